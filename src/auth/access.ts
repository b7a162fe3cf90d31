/**
 * Presented credential -> Principal. A bearer JWT only proves which login session it belongs to: the
 * user's role, status and whether the login passed TOTP are read from the database (through the session
 * cache, which the event bus keeps current on every instance), never from the token's claims. So a banned
 * or demoted user loses rights at once, and a session that did not pass TOTP never holds TOTP-only scopes.
 */
import type { Clock } from '../infra/clock/clock.js';
import { Errors } from '../errors.js';
import type { SessionState } from './auth-events.js';
import type { ApiKeyWithOwner, ApiKeysRepository } from './api-keys.repository.js';
import { KeyUsage } from './key-usage.js';
import type { Principal } from './principal.js';
import { actsOutsideSandbox, isScope, scopesOfAccount, sessionScopes, type Role, type Scope } from './scopes.js';
import type { SessionCache } from './session-cache.js';
import type { SessionsRepository } from './sessions.repository.js';
import { TokenError, type TokenService, sha256Hex } from './tokens.js';

export const API_KEY_CREDENTIAL = 'key:';

export class CredentialResolver {
  /** api_keys.last_used_at, written at most once a minute per key. */
  private readonly keyUsage: KeyUsage;

  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly logins: SessionsRepository,
    private readonly tokens: TokenService,
    private readonly sessions: SessionCache,
    private readonly clock: Clock,
  ) {
    this.keyUsage = new KeyUsage(keys.db, clock);
  }

  /**
   * Turns a bearer JWT into a principal, or throws AUTH_REQUIRED. A JWT exchanged for an API key
   * (POST /v1/auth/token) names the key as its session (`key:<id>`): the key is read as it is now, so a
   * revoked key or a banned owner stops its JWTs at once. When the request also carries X-API-Key (as the
   * platform's API key flow says it does), that key must be the one the JWT was issued for.
   */
  async authenticateBearer(token: string, apiKey?: string): Promise<Principal> {
    let claims;
    try {
      claims = await this.tokens.verify(token, 'access');
    } catch (error) {
      const reason = error instanceof TokenError && error.reason === 'expired' ? 'token expired' : 'token invalid';
      throw Errors.authRequired(reason);
    }
    if (claims.sessionId.startsWith(API_KEY_CREDENTIAL)) {
      const keyId = claims.sessionId.slice(API_KEY_CREDENTIAL.length);
      const row = await this.keys.findApiKeyById(keyId);
      if (!row || !usable(row) || row.ownerUserId !== claims.userId) throw Errors.authRequired('this API key was revoked');
      if (apiKey !== undefined && sha256Hex(apiKey) !== row.keyHash) throw Errors.authRequired('X-API-Key is not the key this token was issued for');
      await this.keyUsage.touch(row.id);
      return keyPrincipal(row);
    }
    const state = await this.sessionState(claims.sessionId);
    if (!state?.valid || state.userId !== claims.userId) throw Errors.authRequired('this login was revoked');
    return userPrincipal(claims.sessionId, state);
  }

  async authenticateApiKey(key: string): Promise<Principal> {
    const row = await this.keys.findApiKeyByHash(sha256Hex(key));
    if (!row || !usable(row)) throw Errors.authRequired('API key not recognised');
    await this.keyUsage.touch(row.id);
    return keyPrincipal(row);
  }

  /** The key row behind a presented API key, when it is usable now (POST /v1/auth/token). */
  async usableApiKey(key: string): Promise<ApiKeyWithOwner | null> {
    const row = await this.keys.findApiKeyByHash(sha256Hex(key));
    return row && usable(row) ? row : null;
  }

  /**
   * The principal of a credential id (a login session's id, or `key:<id>` of an API key) as it is now;
   * null when it was revoked, expired or its user banned. `fresh` reads the database past the cache.
   * Stream tickets and connection watchers hold credential ids rather than principals.
   */
  async principalOf(credentialId: string, options: { fresh?: boolean } = {}): Promise<Principal | null> {
    if (credentialId.startsWith(API_KEY_CREDENTIAL)) {
      const row = await this.keys.findApiKeyById(credentialId.slice(API_KEY_CREDENTIAL.length));
      return row && usable(row) ? keyPrincipal(row) : null;
    }
    const state = await this.sessionState(credentialId, options.fresh);
    return state?.valid ? userPrincipal(credentialId, state) : null;
  }

  private async sessionState(sessionId: string, fresh = false): Promise<SessionState | null> {
    if (!fresh) {
      const cached = this.sessions.get(sessionId);
      if (cached !== undefined) return cached;
    }
    const state = await this.logins.sessionState(sessionId, this.clock.now());
    this.sessions.set(sessionId, state);
    return state;
  }
}

function usable(row: ApiKeyWithOwner): boolean {
  return !row.revokedAt && (row.ownerStatus === null || row.ownerStatus === 'active');
}

/** One set per (role, TOTP passed): built once, shared read-only by every principal (this is the hot path). */
const scopeSets = new Map<string, ReadonlySet<Scope>>();
function scopeSetOf(role: Role, secondFactor: boolean, developerAccount: boolean): ReadonlySet<Scope> {
  const key = `${role}:${secondFactor}:${developerAccount}`;
  let set = scopeSets.get(key);
  if (!set) scopeSets.set(key, (set = new Set(sessionScopes(role, secondFactor, developerAccount))));
  return set;
}

/**
 * An OAuth session's scopes: those the user approved that the role still grants a login without TOTP, so a
 * demoted user's apps narrow at once and an app never holds a TOTP-only scope. Shared like scopeSetOf.
 */
function delegatedScopeSetOf(role: Role, developerAccount: boolean, approved: readonly string[]): ReadonlySet<Scope> {
  const key = `${role}:${developerAccount}:oauth:${approved.join(' ')}`;
  let set = scopeSets.get(key);
  if (!set) {
    if (scopeSets.size > 10_000) scopeSets.clear();
    scopeSets.set(key, (set = new Set(sessionScopes(role, false, developerAccount).filter((scope) => approved.includes(scope)))));
  }
  return set;
}

function userPrincipal(sessionId: string, state: SessionState): Principal {
  const delegated = state.oauthClientId !== null;
  return {
    kind: delegated ? 'delegated' : 'user',
    ...(delegated ? { oauthClientId: state.oauthClientId! } : {}),
    userId: state.userId,
    role: state.role,
    scopes: delegated
      ? delegatedScopeSetOf(state.role, state.developerAccount, state.scopes ?? [])
      : scopeSetOf(state.role, state.secondFactor, state.developerAccount),
    credentialId: sessionId,
    sessionId,
    apiKeyId: null,
    environment: 'live',
    metered: false,
  };
}

/**
 * An API key's principal. A developer key holds the scopes chosen at its creation that its owner's role
 * still grants: demoting the owner narrows the key at once. The bootstrap service key (no owner) holds
 * its stored scopes and is not metered.
 */
function keyPrincipal(row: ApiKeyWithOwner): Principal {
  const granted = row.ownerRole ? new Set<string>(scopesOfAccount(row.ownerRole, row.ownerDeveloperAccount)) : null;
  return {
    kind: 'service',
    userId: row.ownerUserId,
    role: null,
    // A test key acts in the sandbox: never with a scope that acts on the live platform (scopes.ts).
    scopes: new Set(
      row.scopes.filter(
        (scope): scope is Scope => isScope(scope) && (granted === null || granted.has(scope)) && !(row.environment === 'test' && actsOutsideSandbox(scope)),
      ),
    ),
    credentialId: `${API_KEY_CREDENTIAL}${row.id}`,
    sessionId: null,
    apiKeyId: row.id,
    environment: row.environment,
    metered: row.ownerUserId !== null,
  };
}
