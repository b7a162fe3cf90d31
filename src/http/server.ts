/**
 * The Fastify server both APIs share: request ids, logging, error envelope, authentication hooks,
 * rate limits, metrics, OpenAPI at /openapi.json and interactive docs at /docs. Domain modules add
 * their routes through `registerModules`.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { Type } from '@sinclair/typebox';
import type { Redis } from 'ioredis';
import type { Registry } from 'prom-client';
import type { AuthService } from '../auth/auth.service.js';
import { documentSecurity, registerAuthHooks } from './auth-hooks.js';
import { registerBodyDeadline } from './body-deadline.js';
import { registerErrorHandling, sendError, toErrorResponse } from './error-handler.js';
import { Errors } from '../errors.js';
import { registerHttpMetrics } from './metrics.js';
import { registerNulGuard, registerValidation } from './validation.js';
import { fastifyTrustProxy } from './trust-proxy.js';
import { clientKey } from './client-address.js';
import type { TrustProxy } from '../config.js';
import { normaliseOpenApi, openApiDocument } from './openapi.js';
import { rewriteSandboxUrl } from './sandbox-base.js';
import { registerWeb } from './web.js';
import { cachedSerializerFactory, type SchemaCompileCache } from './compile-cache.js';
import './types.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export interface HttpServerDeps {
  /** The process's logger (src/http/logger.ts); null when logging is off. */
  log: FastifyBaseLogger | null;
  auth: AuthService;
  metrics: Registry;
  /** When set, GET /metrics requires `Authorization: Bearer <token>` (METRICS_TOKEN). */
  metricsToken?: string | null;
  /** Shared rate-limit counters across instances; in-memory when absent. */
  rateLimitRedis: Redis | null;
  rateLimitNamespace: string;
  publicBaseUrl: string;
  /** Whose X-Forwarded-For decides request.ip (TRUST_PROXY); unset believes none. */
  trustProxy: TrustProxy;
  isReady: () => Promise<boolean>;
  /** The built web front end; default dist/web (src/http/web.ts). */
  webRoot?: string;
  /** The object store's origin when media links are presigned URLs on it: the pages may load media from there. */
  mediaOrigin?: string | null;
  /** STATION_REQUEST_TIMEOUT_SEC: a request's body must arrive within this (408); see body-deadline.ts. */
  requestTimeoutMs?: number;
  /** The longest body limit a route gives itself (uploads); Node's own request timeout, as a backstop. */
  longestBodyTimeoutMs?: number;
  /** Validators and serializers compiled by earlier servers of this process (tests); compiled afresh when absent. */
  compileCache?: SchemaCompileCache;
}

const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/**
 * On close, drops the connections that never sent a request (a browser's preconnect, a half-open probe).
 * Fastify's forceCloseConnections: 'idle' closes keep-alive sockets between requests, but Node counts a socket
 * that has not sent its first request as busy until the headers timeout (60 s): server.close() waited for it,
 * and a SIGTERM hit the forced exit before the shutdown had released jobs, leases and the database. Node's
 * http module offers no list of such sockets (closeIdleConnections skips them), hence the bookkeeping here.
 */
function closeSilentConnectionsOnClose(app: FastifyInstance): void {
  const silent = new Set<Socket>();
  let closing = false;
  app.server.on('connection', (socket: Socket) => {
    if (closing) {
      socket.destroy();
      return;
    }
    silent.add(socket);
    socket.once('close', () => silent.delete(socket));
  });
  // A request, or an upgrade to a WebSocket (closed with 1001 by its own plugin), makes a socket a client's.
  const spoke = (request: IncomingMessage) => silent.delete(request.socket);
  app.server.on('request', spoke);
  app.server.on('upgrade', spoke);
  app.addHook('preClose', async () => {
    closing = true;
    for (const socket of silent) socket.destroy();
    silent.clear();
  });
}
/**
 * Once the close has begun, ends each keep-alive connection as soon as its last response in flight is sent.
 * Fastify's forceCloseConnections: 'idle' closes the idle connections once, when the close begins; a connection
 * whose response was still being written then became idle afterwards and was kept for the keep-alive timeout
 * (72 s), holding server.close() that long (a SIGTERM then hit the forced exit, as above).
 *
 * Why at each response's end rather than the alternatives: a `Connection: close` header cannot reach a response
 * whose headers went out before the close (a media stream, a download), and calling closeIdleConnections() on
 * a timer until the server closes polls for nothing most of the time and, on a connection with a pipelined
 * answer queued, would destroy it mid-write (Node counts an ended but unsent response as done). Counting the
 * responses in flight per socket knows when the last one is out; destroySoon() is what Node itself does after
 * a `Connection: close` answer: it flushes what is written, then closes.
 */
function endConnectionsAfterTheirLastResponse(app: FastifyInstance): void {
  const inFlight = new WeakMap<Socket, number>();
  let closing = false;
  app.server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
    // 'close' comes once per response: after it is sent, or when its connection is lost.
    response.once('close', () => {
      const left = (inFlight.get(socket) ?? 1) - 1;
      if (left > 0) {
        inFlight.set(socket, left);
        return;
      }
      inFlight.delete(socket);
      if (closing && !socket.destroyed) socket.destroySoon();
    });
  });
  app.addHook('preClose', async () => {
    closing = true;
  });
}

/** A socket with no bytes either way for this long is closed (SSE streams send a heartbeat every 15 s). */
const IDLE_CONNECTION_MS = 120_000;

export async function buildHttpServer(deps: HttpServerDeps, registerModules: (app: FastifyInstance) => Promise<void>): Promise<FastifyInstance> {
  const app = Fastify({
    ...(deps.log ? { loggerInstance: deps.log } : { logger: false }),
    bodyLimit: 1024 * 1024,
    // Slow bodies: Node's requestTimeout is one limit for every route, so it is the longest (uploads') as a
    // backstop; registerBodyDeadline holds each route to its own. connectionTimeout closes idle sockets.
    requestTimeout: Math.max(deps.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS, deps.longestBodyTimeoutMs ?? 0),
    connectionTimeout: IDLE_CONNECTION_MS,
    // Honour a caller's X-Request-Id when it is sane, so a request can be followed across services.
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    trustProxy: fastifyTrustProxy(deps.trustProxy),
    // Ids are opaque: a long one is still an id that names nothing (404 from the lookup), not a router error.
    routerOptions: { maxParamLength: 1024 },
    // /sandbox/v1/... is the platform API of /v1/... acting in the sandbox (src/http/sandbox-base.ts).
    rewriteUrl: rewriteSandboxUrl,
    // The router's own failures (a malformed percent-encoding, a parameter past maxParamLength) get the envelope too.
    frameworkErrors: (error, request, reply) => sendError(request, reply, toErrorResponse(error)),
    ...(deps.compileCache ? { schemaController: { compilersFactory: { buildSerializer: cachedSerializerFactory(deps.compileCache) } } } : {}),
  });

  // Hooks on every request take Fastify's callback form: an async hook costs a promise and a microtask per request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', String(request.id));
    done();
  });
  closeSilentConnectionsOnClose(app);
  endConnectionsAfterTheirLastResponse(app);
  // JSON only: a text/plain body is a wrong Content-Type (415), not a string for the schema to reject.
  app.removeContentTypeParser('text/plain');
  registerErrorHandling(app);
  registerValidation(app, deps.compileCache);
  registerNulGuard(app);
  registerBodyDeadline(app, deps.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS);
  app.addHook('onRoute', documentSecurity);

  await app.register(cookie);
  await app.register(rateLimit, {
    global: false,
    ...(deps.rateLimitRedis ? { redis: deps.rateLimitRedis, nameSpace: deps.rateLimitNamespace } : {}),
    keyGenerator: (request) => request.principal?.userId ?? request.principal?.credentialId ?? clientKey(request.ip),
    errorResponseBuilder: (_request, context) => Errors.rateLimited(Math.max(1, Math.ceil(context.ttl / 1000))),
  });
  await app.register(swagger, {
    openapi: openApiDocument(deps.publicBaseUrl),
    transformObject: (documents) => normaliseOpenApi('openapiObject' in documents ? documents.openapiObject : documents.swaggerObject),
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { deepLinking: true }, staticCSP: true });

  registerAuthHooks(app, deps.auth);
  registerHttpMetrics(app, deps.metrics, deps.metricsToken ?? null);

  app.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
  app.get('/healthz', { config: { public: true }, schema: { tags: ['operations'], summary: 'Liveness' } }, async () => ({ status: 'ok' }));
  app.get(
    '/readyz',
    {
      config: { public: true },
      schema: {
        tags: ['operations'],
        summary: 'Readiness: database and workers up',
        // 503 is declared so the answer is not serialized with the 5xx error envelope.
        response: {
          200: Type.Object({ status: Type.Literal('ready') }),
          503: Type.Object({ status: Type.Literal('starting') }),
        },
      },
    },
    async (_request, reply) => {
      const ready = await deps.isReady().catch(() => false);
      return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'starting' });
    },
  );

  await registerModules(app);
  // The listener player at / and the admin panel at /admin (web/, built into dist/web).
  await registerWeb(app, { publicBaseUrl: deps.publicBaseUrl, root: deps.webRoot, mediaOrigin: deps.mediaOrigin });
  return app;
}
