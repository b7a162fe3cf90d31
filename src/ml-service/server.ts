/**
 * The ML service: the built-in engine (LocalEngine, worker threads) served over the /ml/v1 protocol
 * (src/engine/remote/protocol.ts), so generation and training can run on another machine than the
 * station. Models reach it as signed links (HttpArtifactSource); callers authenticate with X-API-Key.
 * OpenAPI at /openapi.json, liveness at /healthz (both without the key).
 */
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { join } from 'node:path';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import swagger from '@fastify/swagger';
import type { Engine } from '../engine/engine.js';
import { LocalEngine } from '../engine/local-engine.js';
import { API_KEY_HEADER, SHARED_SCHEMAS } from '../engine/remote/protocol.js';
import { MlErrors, registerMlErrorHandling } from './errors.js';
import { HttpArtifactSource } from './http-artifact-source.js';
import { mlRoutes } from './routes.js';
import { TrainingRuns } from './training-runs.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const MiB = 1024 * 1024;

export interface MlHttpOptions {
  engine: Engine;
  apiKey: string;
  logger?: FastifyServerOptions['logger'];
  /** Largest request body: audio for /features and training checkpoints travel in it (default 64 MiB). */
  bodyLimitBytes?: number;
  heartbeatMs?: number;
}

export interface MlHttp {
  app: FastifyInstance;
  runs: TrainingRuns;
}

/** The Fastify app around an Engine (any Engine: tests may pass their own). */
export async function buildMlHttp(options: MlHttpOptions): Promise<MlHttp> {
  const bodyLimit = options.bodyLimitBytes ?? 64 * MiB;
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit,
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: true, allErrors: false } },
  });
  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', String(request.id));
  });
  app.removeContentTypeParser('text/plain');
  registerMlErrorHandling(app);
  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);

  const keyDigest = digest(options.apiKey);
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/ml/')) return;
    const given = request.headers[API_KEY_HEADER];
    if (typeof given !== 'string' || given === '') throw MlErrors.authRequired();
    if (!timingSafeEqual(digest(given), keyDigest)) throw MlErrors.invalidKey();
  });

  await app.register(swagger, {
    // Shared schemas appear under components.schemas by their $id (ArtifactRef, AudioFeatures, ...).
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Station ML service',
        version: '1',
        description:
          'The AI engine as an HTTP service (/ml/v1). Generation and training answer NDJSON streams; every other call answers JSON. ' +
          'Models are passed as ArtifactRefs with a signed url the service fetches (and caches by sha256). ' +
          'Errors use the envelope {"error":{code,http_status,message,detail,retry_after,request_id,engine?}} with ML_* codes.',
      },
      components: { securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } } },
      security: [{ apiKey: [] }],
      tags: [
        { name: 'engine', description: 'Service health' },
        { name: 'generation', description: 'Tracks and lyrics' },
        { name: 'safety', description: 'Safety verdicts' },
        { name: 'analysis', description: 'Audio features and style influences' },
        { name: 'training', description: 'Model training runs' },
      ],
    },
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  const runs = new TrainingRuns();
  await app.register(mlRoutes({ engine: options.engine, runs, heartbeatMs: options.heartbeatMs, audioFetch: { timeoutMs: 120_000, maxBytes: bodyLimit } }));
  await app.ready();
  return { app, runs };
}

export interface MlServiceOptions {
  apiKey: string;
  /** Artifacts are cached on disk under DATA_DIR/artifacts; null caches in memory only. */
  dataDir: string | null;
  logger?: FastifyServerOptions['logger'];
  /** Engine worker threads (default: cores - 1). */
  poolSize?: number;
  taskTimeoutMs?: number;
  /** Nice value of the engine threads (default ENGINE_THREAD_NICENESS: the service's HTTP thread goes first). */
  niceness?: number;
  heartbeatMs?: number;
}

export interface MlService {
  http: FastifyInstance;
  engine: Engine;
  artifacts: HttpArtifactSource;
  /**
   * Stops accepting requests and aborts running trainings (their streams end with a SHUTDOWN error); other
   * calls in flight get `graceMs` (default 20 s) to finish before the workers are stopped under them.
   */
  close(graceMs?: number): Promise<void>;
}

export async function createMlService(options: MlServiceOptions): Promise<MlService> {
  const artifacts = new HttpArtifactSource({ cacheDir: options.dataDir ? join(options.dataDir, 'artifacts') : null });
  const engine = new LocalEngine({ artifacts, poolSize: options.poolSize, taskTimeoutMs: options.taskTimeoutMs, niceness: options.niceness });
  const { app, runs } = await buildMlHttp({ engine, apiKey: options.apiKey, logger: options.logger, heartbeatMs: options.heartbeatMs });
  return {
    http: app,
    engine,
    artifacts,
    async close(graceMs = 20_000) {
      runs.abortAll();
      const draining = app.close();
      const force = setTimeout(() => void engine.close(), graceMs);
      try {
        await draining;
      } finally {
        clearTimeout(force);
        await engine.close();
      }
    },
  };
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
