import type { Role, Scope } from './scopes.js';

/** Who is calling: a logged-in user (JWT) or a service (API key). */
export interface Principal {
  kind: 'user' | 'service';
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
  environment: 'live' | 'test';
  /** Developer keys (owned by a user) count against the monthly quota and the burst; the bootstrap service key does not. */
  metered: boolean;
}

export function hasScope(principal: Principal, scope: Scope): boolean {
  return principal.scopes.has(scope);
}
