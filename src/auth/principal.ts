import type { Role, Scope } from './scopes.js';
import { Errors } from '../errors.js';
import type { Environment } from '../kernel/environment.js';

/**
 * Who is calling: a logged-in user (JWT), a service (API key), or a third-party app acting for a user with
 * the scopes the user approved ('delegated', an OAuth access token: src/platform/oauth). Whatever is done
 * "from a login session only" (profile, personal data, keys, apps, consent) checks `kind === 'user'`.
 */
export interface Principal {
  kind: 'user' | 'service' | 'delegated';
  userId: string | null;
  role: Role | null;
  scopes: ReadonlySet<Scope>;
  /** The login session or API key the request's credential belongs to; CSRF tokens are bound to it. */
  credentialId: string;
  sessionId: string | null;
  apiKeyId: string | null;
  /**
   * The data space the request acts in. A test key (and the JWT exchanged for it) acts in 'test', the
   * sandbox; every other credential in 'live'. Rule for every module that keeps data: rows written in one
   * environment are never read, listed, changed or counted from the other (src/platform/developer/README.md).
   */
  environment: Environment;
  /** Developer keys (owned by a user) count against the monthly quota and the burst; the bootstrap service key does not. */
  metered: boolean;
  /** The app a delegated principal acts through (its OAuth client id). */
  oauthClientId?: string;
}

export function hasScope(principal: Principal, scope: Scope): boolean {
  return principal.scopes.has(scope);
}

/** Whether the caller holds the platform's administrator scope. */
export function isAdmin(caller: Principal): boolean {
  return hasScope(caller, 'platform:admin');
}

/** The user a credential acts for (a developer key acts for its owner); the bootstrap service key has none. */
export function callerUserId(caller: Principal): string {
  if (!caller.userId) throw Errors.forbidden('this credential belongs to no user');
  return caller.userId;
}

/**
 * Personal data (library, playlists, follows, unlocks) is changed from a login session only, as
 * PATCH /v1/users/me: no platform scope grants writing it, so an API key answers 403.
 */
export function sessionUserId(caller: Principal): string {
  if (caller.kind !== 'user') throw Errors.forbidden('personal data is changed from a login session, not with an API key');
  return callerUserId(caller);
}
