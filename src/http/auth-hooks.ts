/**
 * Authentication, scopes and CSRF for every route, decided by the route's `config`
 * ({ scope }, { public }, { csrfExempt }). Routes are closed unless they say otherwise.
 */
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import type { AuthService } from '../auth/auth.service.js';
import { hasScope } from '../auth/principal.js';
import { DomainError, Errors } from '../errors.js';
import { cameThroughSandboxBase, sandboxPrincipal } from './sandbox-base.js';

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function bearerOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : '';
}

export function registerAuthHooks(app: FastifyInstance, auth: AuthService): void {
  app.decorateRequest('principal', null);

  app.addHook('onRequest', async (request, reply) => {
    if (request.is404) return;
    const config = request.routeOptions.config;
    let failure: DomainError | null = null;
    const bearer = bearerOf(request);
    const apiKey = request.headers['x-api-key'];
    try {
      if (bearer !== null) request.principal = await auth.authenticateBearer(bearer, typeof apiKey === 'string' && apiKey !== '' ? apiKey : undefined);
      else if (typeof apiKey === 'string' && apiKey !== '') request.principal = await auth.authenticateApiKey(apiKey);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      failure = error;
    }
    // Through /sandbox/v1 the credential acts in the sandbox; a live key is refused there even on public routes.
    if (request.principal && cameThroughSandboxBase(request.raw)) request.principal = sandboxPrincipal(request.principal);
    const principal = request.principal;
    if (principal?.metered && principal.apiKeyId) {
      // Every answer to a developer key's request carries its quota, whatever the route (src/auth/api-quota.ts).
      // Counted per owner and environment: an account's keys share one quota (a metered key always has an owner).
      const quota = await auth.quota.take(principal.userId ?? principal.apiKeyId, principal.environment);
      reply.header('x-ratelimit-limit', quota.limit);
      reply.header('x-ratelimit-remaining', quota.remaining);
      reply.header('x-ratelimit-reset', quota.resetSec);
      if (!quota.allowed) throw Errors.rateLimited(quota.resetSec, "The request quota of this account's API keys is spent; see Retry-After");
    }
    if (config.public) return;
    if (failure) throw failure;
    if (!principal) throw Errors.authRequired('send Authorization: Bearer <token> or X-API-Key');
    if (config.scope && !hasScope(principal, config.scope)) throw Errors.insufficientScope(config.scope);
    if (UNSAFE_METHODS.has(request.method) && !config.csrfExempt) {
      const presented = request.headers['x-csrf-token'];
      if (!auth.csrf.matches(principal.credentialId, typeof presented === 'string' ? presented : undefined)) {
        throw Errors.csrfInvalid();
      }
    }
  });
}

/** Documents each route's security and scope in the OpenAPI description. Must run before routes are added. */
export function documentSecurity(route: RouteOptions): void {
  // The interactive docs (a static page and its assets) are public like /openapi.json.
  if (route.url.startsWith('/docs')) route.config = { ...(route.config ?? {}), public: true };
  const schema = (route.schema ??= {}) as Record<string, unknown>;
  const config = (route.config ?? {}) as { scope?: string; public?: boolean; csrfExempt?: boolean };
  if (schema.hide) return;
  if (!config.public) {
    schema.security = [{ bearerAuth: [] }, { apiKey: [] }];
    const notes = [config.scope ? `Scope: \`${config.scope}\`.` : 'Any authenticated caller.'];
    if (UNSAFE_METHODS.has(String(route.method)) && !config.csrfExempt) notes.push('Requires `X-CSRF-Token`.');
    schema.description = [schema.description, notes.join(' ')].filter(Boolean).join('\n\n');
  } else {
    schema.security = [];
  }
  const response = (schema.response ??= {}) as Record<string, unknown>;
  response['4xx'] ??= { $ref: 'ErrorEnvelope#' };
  response['5xx'] ??= { $ref: 'ErrorEnvelope#' };
}
