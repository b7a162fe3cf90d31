/**
 * The authorization endpoint (RFC 6749 section 4.1, PKCE per RFC 7636 with S256 only). A logged-in user's
 * client (the platform's web app, with the user's bearer token) reads the consent request with GET, then
 * approves or denies it with POST; both answer where to send the browser next. An unknown client or a
 * redirect_uri that is not exactly one of the app's is never redirected to (a 400 for the user instead);
 * every other problem goes back to the app as `error` in its redirect_uri (with `state` and `iss`).
 */
import { randomBytes } from 'node:crypto';
import type { Clock } from '../../infra/clock/clock.js';
import type { Principal } from '../../auth/principal.js';
import type { Scope } from '../../auth/scopes.js';
import { sha256Hex } from '../../auth/tokens.js';
import { DomainError, Errors } from '../../errors.js';
import { OAuthError } from './oauth-errors.js';
import type { ClientRow, OAuthRepository } from './oauth.repository.js';
import { SCOPE_DESCRIPTIONS, formatScope, isGrantable, parseScope } from './scopes.js';

export const CODE_TTL_SEC = 600;
const CODE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export interface AuthorizationParams {
  response_type?: string;
  client_id?: string;
  redirect_uri?: string;
  scope?: string;
  state?: string;
  code_challenge?: string;
  code_challenge_method?: string;
}

interface ValidRequest {
  client: ClientRow;
  redirectUri: string;
  state: string | undefined;
  scopes: string[];
  codeChallenge: string;
}

/** A problem the app hears about through its redirect_uri. */
class Redirectable extends Error {
  constructor(
    readonly oauth: OAuthError,
    readonly redirectUri: string,
    readonly state: string | undefined,
  ) {
    super(oauth.description);
  }
}

export type ConsentAnswer =
  | {
      type: 'consent';
      client: { id: string; name: string; type: string };
      redirect_uri: string;
      state: string | null;
      scope: string;
      scopes: { name: string; description: string; grantable: boolean; previously_approved: boolean }[];
      previously_approved: boolean;
    }
  | { type: 'redirect'; redirect_to: string };

const invalidClientRequest = (detail: string) =>
  new DomainError('invalid', 'OAUTH_INVALID_CLIENT_REQUEST', 'This authorization request cannot be sent back to the app', detail);

export class AuthorizeService {
  constructor(
    private readonly repo: OAuthRepository,
    private readonly clock: Clock,
    private readonly issuer: string,
  ) {}

  /** GET: what the user is asked to approve, or where to send the browser when the request is refused. */
  async consent(caller: Principal, params: AuthorizationParams): Promise<ConsentAnswer> {
    const userId = consentingUser(caller);
    let request: ValidRequest;
    try {
      request = await this.validate(params);
    } catch (error) {
      if (error instanceof Redirectable) return { type: 'redirect', redirect_to: this.errorRedirect(error) };
      throw error;
    }
    const grant = await this.repo.grant(userId, request.client.id);
    const approved = new Set(grant?.scopes ?? []);
    const grantable = request.scopes.filter((scope) => caller.scopes.has(scope as Scope));
    return {
      type: 'consent',
      client: { id: request.client.id, name: request.client.name, type: request.client.type },
      redirect_uri: request.redirectUri,
      state: request.state ?? null,
      scope: formatScope(request.scopes),
      scopes: request.scopes.map((name) => ({
        name,
        description: SCOPE_DESCRIPTIONS[name as keyof typeof SCOPE_DESCRIPTIONS],
        grantable: grantable.includes(name),
        previously_approved: approved.has(name),
      })),
      previously_approved: grantable.length > 0 && grantable.every((scope) => approved.has(scope)),
    };
  }

  /**
   * POST: the user's decision. Approving grants the requested scopes the user holds (an app never gets more
   * than its user's own rights: the others are left out, and the token answer's `scope` says what was
   * granted) and issues a single-use code valid 10 minutes, bound to the app, redirect_uri, user, scopes and
   * PKCE challenge. Denying sends error=access_denied.
   */
  async decide(caller: Principal, params: AuthorizationParams, decision: 'approve' | 'deny'): Promise<{ redirect_to: string }> {
    const userId = consentingUser(caller);
    let request: ValidRequest;
    try {
      request = await this.validate(params);
      if (decision === 'deny') throw new Redirectable(new OAuthError('access_denied', 'the user denied the request'), params.redirect_uri!, params.state);
    } catch (error) {
      if (error instanceof Redirectable) return { redirect_to: this.errorRedirect(error) };
      throw error;
    }
    const scopes = request.scopes.filter((scope) => caller.scopes.has(scope as Scope));
    if (scopes.length === 0) {
      const refused = new OAuthError('invalid_scope', 'the user holds none of the requested scopes');
      return { redirect_to: this.errorRedirect(new Redirectable(refused, request.redirectUri, request.state)) };
    }
    const now = this.clock.date();
    await this.repo.approve(userId, request.client.id, scopes, now);
    const code = randomBytes(32).toString('base64url');
    await this.repo.insertCode({
      codeHash: sha256Hex(code),
      clientId: request.client.id,
      userId,
      redirectUri: request.redirectUri,
      scopes,
      codeChallenge: request.codeChallenge,
      createdAt: now,
      expiresAt: new Date(now.getTime() + CODE_TTL_SEC * 1000),
    });
    return { redirect_to: this.redirect(request.redirectUri, { code }, request.state) };
  }

  /** The request's checks in RFC 6749's order: client and redirect_uri first (never redirected), then the rest. */
  private async validate(params: AuthorizationParams): Promise<ValidRequest> {
    if (!params.client_id) throw invalidClientRequest('client_id is missing');
    const client = await this.repo.client(params.client_id);
    if (!client) throw invalidClientRequest('no app has this client_id');
    if (!params.redirect_uri) throw invalidClientRequest('redirect_uri is missing');
    if (!client.redirectUris.includes(params.redirect_uri)) throw invalidClientRequest('redirect_uri is not registered for this app (exact match)');
    const fail = (error: OAuthError['error'], description: string) => new Redirectable(new OAuthError(error, description), params.redirect_uri!, params.state);
    if (params.response_type !== 'code') throw fail('unsupported_response_type', 'response_type must be code');
    if (!params.code_challenge) throw fail('invalid_request', 'PKCE is required: send code_challenge and code_challenge_method=S256');
    if (params.code_challenge_method !== 'S256') throw fail('invalid_request', 'code_challenge_method must be S256 (plain is not accepted)');
    if (!CODE_CHALLENGE.test(params.code_challenge))
      throw fail('invalid_request', 'code_challenge must be the base64url SHA-256 of the verifier (43 characters)');
    const scopes = parseScope(params.scope);
    if (!scopes) throw fail('invalid_scope', 'scope is missing or malformed');
    const unknown = scopes.filter((scope) => !isGrantable(scope) || !client.scopes.includes(scope));
    if (unknown.length > 0) throw fail('invalid_scope', `scopes this app may not request: ${unknown.join(' ')}`);
    return { client, redirectUri: params.redirect_uri, state: params.state, scopes: scopes.sort(), codeChallenge: params.code_challenge };
  }

  private errorRedirect(error: Redirectable): string {
    return this.redirect(error.redirectUri, { error: error.oauth.error, error_description: error.oauth.description }, error.state);
  }

  /** The redirect_uri (its own query kept) with the answer, `state` as sent, and `iss` (RFC 9207). */
  private redirect(redirectUri: string, answer: Record<string, string>, state: string | undefined): string {
    const url = new URL(redirectUri);
    for (const [name, value] of Object.entries(answer)) url.searchParams.set(name, value);
    if (state !== undefined) url.searchParams.set('state', state);
    url.searchParams.set('iss', this.issuer);
    return url.toString();
  }
}

/** Only a user's own login session approves apps: never an API key, nor an app acting for the user. */
function consentingUser(caller: Principal): string {
  if (caller.kind !== 'user' || !caller.userId) {
    throw Errors.forbidden('apps are authorized from a login session, not with an API key or an app’s token');
  }
  return caller.userId;
}
