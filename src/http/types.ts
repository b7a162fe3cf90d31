import type { Principal } from '../auth/principal.js';
import type { Scope } from '../auth/scopes.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The scope a caller must hold. Routes are authenticated by default; see `public`. */
    scope?: Scope;
    /** Open to anyone (health, docs, logins, public catalog reads). */
    public?: boolean;
    /** Only the calls that create a credential skip the CSRF check (contract.md). */
    csrfExempt?: boolean;
  }
  interface FastifyRequest {
    principal: Principal | null;
  }
}

export type ApiFamily = 'STATION' | 'PLATFORM';

/** Station paths answer STATION_* codes; everything else is the platform's. */
export function apiFamilyOf(url: string): ApiFamily {
  return url.startsWith('/station') || url.startsWith('/api/auth') ? 'STATION' : 'PLATFORM';
}
