/**
 * The token endpoint (RFC 6749 sections 3.2, 4.1.3 and 6, PKCE per RFC 7636): client authentication, the
 * authorization_code grant with code_verifier, and the refresh_token grant with rotation. Every refusal is
 * an OAuthError (invalid_grant, invalid_client, ...), which the route answers in RFC 6749's shape.
 *
 * A code is spent by its first redemption attempt, right or wrong: a code presented again is a replay, and
 * the tokens issued from it are revoked. A refresh token presented after it was rotated revokes its whole
 * session, as a login's does.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../infra/clock/clock.js';
import type { DelegatedSessions } from '../../auth/delegated-sessions.js';
import { sessionScopes, type Role } from '../../auth/scopes.js';
import { sha256Hex } from '../../auth/tokens.js';
import type { AppSessions } from './app-sessions.js';
import { secretMatches, type RevokeSession } from './apps.service.js';
import { OAuthError, invalidClient, invalidGrant, invalidRequest } from './oauth-errors.js';
import type { ClientRow, CodeRow, OAuthRepository } from './oauth.repository.js';
import { formatScope, parseScope } from './scopes.js';

const CODE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

export interface TokenParams {
  grant_type?: string;
  code?: string;
  redirect_uri?: string;
  code_verifier?: string;
  refresh_token?: string;
  scope?: string;
  client_id?: string;
  client_secret?: string;
}

/** Credentials from `Authorization: Basic` (client_secret_basic), already decoded. */
export interface BasicCredentials {
  clientId: string;
  clientSecret: string;
}

export interface TokenAnswer {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
  csrf_token: string;
}

export class OAuthTokenService {
  constructor(
    private readonly repo: OAuthRepository,
    private readonly sessions: DelegatedSessions,
    private readonly appSessions: AppSessions,
    private readonly revokeSession: RevokeSession,
    private readonly clock: Clock,
  ) {}

  async token(params: TokenParams, basic: BasicCredentials | null): Promise<TokenAnswer> {
    if (!params.grant_type) throw invalidRequest('grant_type is missing');
    if (params.grant_type !== 'authorization_code' && params.grant_type !== 'refresh_token') {
      throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
    }
    const client = await this.authenticate(params, basic);
    return params.grant_type === 'authorization_code' ? this.redeemCode(client, params) : this.refresh(client, params);
  }

  /** client_secret_basic or client_secret_post for a confidential app; client_id alone for a public one. */
  private async authenticate(params: TokenParams, basic: BasicCredentials | null): Promise<ClientRow> {
    if (basic && params.client_secret !== undefined) throw invalidRequest('use one client authentication method, not two');
    if (basic && params.client_id !== undefined && params.client_id !== basic.clientId) throw invalidRequest('client_id differs from the authenticated client');
    const clientId = basic?.clientId ?? params.client_id;
    const secret = basic?.clientSecret ?? params.client_secret;
    if (!clientId) throw invalidClient('client_id is missing');
    const client = await this.repo.client(clientId);
    if (!client) throw invalidClient();
    if (client.type === 'confidential' ? secret === undefined || !secretMatches(client, secret) : secret !== undefined) throw invalidClient();
    return client;
  }

  private async redeemCode(client: ClientRow, params: TokenParams): Promise<TokenAnswer> {
    const { code, redirect_uri: redirectUri, code_verifier: verifier } = params;
    if (!code || !redirectUri) throw invalidRequest('code and redirect_uri are required');
    if (!verifier) throw invalidRequest('code_verifier is required (PKCE)');
    if (!CODE_VERIFIER.test(verifier)) throw invalidRequest('code_verifier must be 43 to 128 characters of [A-Za-z0-9._~-]');
    const redemption = await this.repo.spendCode(sha256Hex(code), this.clock.date());
    if (redemption.kind === 'unknown') throw invalidGrant('the authorization code is not valid');
    if (redemption.kind === 'replayed') {
      if (redemption.sessionId) await this.revokeSession(redemption.sessionId, 'authorization code replayed');
      throw invalidGrant('the authorization code was already used; the tokens issued for it are revoked');
    }
    const found = redemption.code;
    if (found.clientId !== client.id) throw invalidGrant('the authorization code was issued to another client');
    if (found.redirectUri !== redirectUri) throw invalidGrant('redirect_uri differs from the authorization request’s');
    if (found.expiresAt.getTime() <= this.clock.now()) throw invalidGrant('the authorization code expired');
    if (!challengeMatches(found, verifier)) throw invalidGrant('code_verifier does not match the code_challenge');
    const user = await this.appSessions.account(found.userId);
    if (!user || user.status !== 'active') throw invalidGrant('the account is not active');
    const refresh = this.sessions.newRefreshToken();
    const sessionId = await this.repo.openSession(found, refresh.hash, this.sessions.sessionExpiry());
    if (!sessionId) throw invalidGrant('the user revoked this app’s access');
    return this.answer(user, sessionId, refresh.token, found.scopes);
  }

  private async refresh(client: ClientRow, params: TokenParams): Promise<TokenAnswer> {
    if (!params.refresh_token) throw invalidRequest('refresh_token is required');
    const row = await this.appSessions.refreshToken(sha256Hex(params.refresh_token));
    if (!row || row.sessionKind !== 'oauth' || row.oauthClientId !== client.id || !row.scopes) throw invalidGrant('the refresh token is not valid');
    if (row.sessionRevokedAt) throw invalidGrant('this access was revoked');
    if (row.rotatedAt) {
      await this.revokeSession(row.sessionId, 'refresh token reuse detected');
      throw invalidGrant('the refresh token was already used; this access has been revoked');
    }
    const now = this.clock.now();
    if (row.expiresAt.getTime() <= now || row.sessionExpiresAt.getTime() <= now) throw invalidGrant('the refresh token expired');
    if (row.userStatus !== 'active') throw invalidGrant('the account is not active');
    let narrowed: string[] | null = null;
    if (params.scope !== undefined) {
      const asked = parseScope(params.scope);
      if (!asked) throw new OAuthError('invalid_scope', 'scope is malformed');
      const wider = asked.filter((scope) => !row.scopes!.includes(scope));
      if (wider.length > 0) throw new OAuthError('invalid_scope', `scopes not granted to this app: ${wider.join(' ')}`);
      if (asked.length < row.scopes.length) narrowed = asked.sort();
    }
    const next = this.sessions.newRefreshToken();
    if (!(await this.appSessions.rotate(row.id, row.sessionId, { hash: next.hash, expiresAt: row.sessionExpiresAt }, narrowed))) {
      await this.revokeSession(row.sessionId, 'refresh token reuse detected');
      throw invalidGrant('the refresh token was already used; this access has been revoked');
    }
    return this.answer({ id: row.userId, role: row.role }, row.sessionId, next.token, narrowed ?? row.scopes);
  }

  /** The scopes answered are the approved ones the user's role grants now (what the token will actually hold). */
  private async answer(user: { id: string; role: Role }, sessionId: string, refreshToken: string, approved: readonly string[]): Promise<TokenAnswer> {
    const access = await this.sessions.access(user, sessionId);
    const held = sessionScopes(user.role, false).filter((scope) => approved.includes(scope));
    return {
      access_token: access.accessToken,
      token_type: 'Bearer',
      expires_in: access.expiresIn,
      refresh_token: refreshToken,
      scope: formatScope(held),
      csrf_token: access.csrfToken,
    };
  }
}

/** S256: base64url(SHA-256(code_verifier)) equals the stored challenge, compared in constant time. */
function challengeMatches(code: CodeRow, verifier: string): boolean {
  const computed = Buffer.from(createHash('sha256').update(verifier).digest('base64url'));
  const expected = Buffer.from(code.codeChallenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}
