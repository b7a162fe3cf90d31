/**
 * TRUST_PROXY (config.ts) as Fastify's `trustProxy`, which decides request.ip, the key of every per-address
 * rate limit and of the login throttle's familiar addresses.
 *
 * A hop count becomes a trust function: Fastify 5 ignores a numeric trustProxy on purpose (a hop count
 * cannot tell a proxy from a client that connects directly and sends its own X-Forwarded-For), but the
 * contract offers it. It is right only when the server is reachable through the proxies alone; otherwise
 * list the proxies' addresses instead (README, Configuration).
 */
import type { FastifyServerOptions } from 'fastify';
import type { TrustProxy } from '../config.js';

export function fastifyTrustProxy(trust: TrustProxy): NonNullable<FastifyServerOptions['trustProxy']> {
  switch (trust.kind) {
    case 'none':
      return false;
    case 'hops': {
      // proxy-addr walks from the socket's peer (hop 0) towards the client: believe the first `hops` of them.
      const hops = trust.hops;
      return (_address: string, hop: number) => hop < hops;
    }
    case 'addresses':
      return trust.addresses;
  }
}
