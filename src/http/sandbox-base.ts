/**
 * The sandbox base address (contract.md, "Sandbox base address"): `/sandbox/v1/...` serves the platform API
 * of `/v1/...`, always in the sandbox. The router sees the `/v1` path (one set of routes, one schema, one
 * OpenAPI entry per operation); the request remembers that it came through the sandbox base, and the auth
 * hook then makes its principal act in the 'test' environment: a test key as it always does, a login session
 * (or an app acting for one) on sandbox data, and a live key not at all (403).
 *
 * Remembered in a WeakSet of the raw requests because Fastify's `rewriteUrl` runs before any request object
 * or decorator exists; the entry goes away with the request.
 */
import type { IncomingMessage } from 'node:http';
import type { Principal } from '../auth/principal.js';
import { actsOutsideSandbox } from '../auth/scopes.js';
import { Errors } from '../errors.js';

export const SANDBOX_BASE_PATH = '/sandbox/v1';

const throughSandboxBase = new WeakSet<IncomingMessage>();

/** Fastify's `rewriteUrl`: `/sandbox/v1/x?y` -> `/v1/x?y`, remembered; every other URL unchanged. */
export function rewriteSandboxUrl(request: IncomingMessage): string {
  const url = request.url ?? '/';
  const rest = url.slice(SANDBOX_BASE_PATH.length);
  if (url.startsWith(SANDBOX_BASE_PATH) && (rest === '' || rest.startsWith('/') || rest.startsWith('?'))) {
    throughSandboxBase.add(request);
    return `/v1${rest}`;
  }
  return url;
}

export function cameThroughSandboxBase(request: IncomingMessage): boolean {
  return throughSandboxBase.has(request);
}

/** The principal a request through the sandbox base acts as: the same credential, in the sandbox. */
export function sandboxPrincipal(principal: Principal): Principal {
  if (principal.environment === 'test') return principal;
  if (principal.apiKeyId !== null) {
    throw Errors.forbidden(`a live API key serves production at /v1; ${SANDBOX_BASE_PATH} takes a test key or a login session`);
  }
  // Staff scopes act on live users and the live radio: a session acting in the sandbox holds none of them.
  return { ...principal, environment: 'test', scopes: new Set([...principal.scopes].filter((scope) => !actsOutsideSandbox(scope))) };
}
