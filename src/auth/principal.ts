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
}

export function hasScope(principal: Principal, scope: Scope): boolean {
  return principal.scopes.has(scope);
}
