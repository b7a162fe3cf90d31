/**
 * Module E (generation) for the composition root: the service behind POST /station/v1/generate, the queue
 * worker that runs each generation's pipeline (generation.runner.ts), and the model waiter, which starts the
 * generations and lyrics that were accepted before the first model of their type was deployed
 * (model-waiter.ts). Its repository is also the registry's GenerationLookup.
 */
import type { SQLWrapper } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Engine } from '../../engine/engine.js';
import type { BlobStore } from '../../infra/blobs/blob-store.js';
import type { UrlSigner } from '../../infra/blobs/url-signer.js';
import type { Clock } from '../../infra/clock/clock.js';
import type { IntervalTimers } from '../../infra/clock/timers.js';
import type { Db } from '../../infra/db/client.js';
import type { JobQueue } from '../../infra/queue/job-queue.js';
import { addJob, processJobs } from '../../infra/queue/jobs.js';
import type { ConfigRepository } from '../admin/config.repository.js';
import type { ContextService } from '../context/context.service.js';
import type { StationEvents } from '../events/station-events.js';
import type { LyricsService } from '../lyrics/lyrics.service.js';
import type { ModelAvailability } from '../models/model-availability.js';
import type { ModelStore } from '../models/model-store.js';
import type { RegistryService } from '../registry/registry.service.js';
import type { SafetyReferenceStore } from '../safety/safety-reference.js';
import { GenerationRepository } from './generation.repository.js';
import { GenerationRunner, type CatalogTrackNames } from './generation.runner.js';
import { GENERATION_QUEUE, GenerationService, MAX_CONCURRENT_GENERATIONS } from './generation.service.js';
import { ModelWaiter } from './model-waiter.js';
import { generationRoutes } from './routes.js';

export interface GenerationModuleDeps {
  db: Db;
  queue: JobQueue;
  blobs: BlobStore;
  signer: UrlSigner;
  engine: Engine;
  clock: Clock;
  events: StationEvents;
  config: ConfigRepository;
  contexts: ContextService;
  models: ModelStore;
  availability: ModelAvailability;
  lyrics: LyricsService;
  safetyReference: SafetyReferenceStore;
  registry: RegistryService;
  /** The catalog's read port: the names of the catalog tracks a generated track was influenced by. */
  catalog: CatalogTrackNames;
  log: FastifyBaseLogger;
  /** The model waiter's repeating timer; real ones by default. */
  timers?: IntervalTimers;
  /**
   * At start, put generations left in progress back to pending (one process, an in-process queue), or leave
   * them (with Redis, jobs other instances run stay theirs: BullMQ redelivers a dead worker's job).
   */
  resetRunning: boolean;
}

/**
 * Module E's read port for module F (lyrics), which is built first because module E's runner asks it for a
 * track's words: whether a generation exists (a lyric request may name one). Made on the database alone.
 */
export function generationExists(db: Db): (generationId: string) => Promise<boolean> {
  const repo = new GenerationRepository(db);
  return (generationId) => repo.exists(generationId);
}

/**
 * Module E's second read port for module F, made on the database alone like generationExists: the ids of a
 * session's generations as a subquery, so the lyrics repository reads a session's latest songs in one query.
 */
export function sessionGenerationIds(db: Db): (sessionId: string) => SQLWrapper {
  const repo = new GenerationRepository(db);
  return (sessionId) => repo.sessionGenerationIds(sessionId);
}

/**
 * Module E's read port for module D (context), which is built before module E because module E resolves each
 * generation's context: the generations made under each context, by radio session. Made on the database alone.
 */
export function contextSessions(db: Db): GenerationRepository['sessionsOfContexts'] {
  const repo = new GenerationRepository(db);
  return (contextIds) => repo.sessionsOfContexts(contextIds);
}

export function buildGenerationModule(deps: GenerationModuleDeps) {
  const repo = new GenerationRepository(deps.db);
  const service = new GenerationService({
    repo,
    contexts: deps.contexts,
    config: deps.config,
    models: deps.models,
    queue: deps.queue,
    signer: deps.signer,
    engine: deps.engine,
    clock: deps.clock,
    availability: deps.availability,
    events: deps.events,
  });
  // Generations and lyrics accepted while the first model of their type was on its way start when it is deployed.
  const modelWaiter = new ModelWaiter(service, deps.lyrics, deps.log, deps.timers);
  return {
    repo,
    service,
    /** Read port for module A's status: generations pending or in progress. */
    queueDepth: () => repo.queueDepth(),
    /** Runs work that waited for a model; tests call `modelWaiter.tick()` instead of waiting for its timer. */
    modelWaiter,
    routes: async (app: FastifyInstance) => {
      await app.register(generationRoutes(service));
    },
    /** Picks up generations a previous process left unfinished, then takes jobs; then looks for work waiting for a model. */
    start: async () => {
      const runner = new GenerationRunner({
        catalog: deps.catalog,
        repo,
        engine: deps.engine,
        models: deps.models,
        blobs: deps.blobs,
        signer: deps.signer,
        lyrics: deps.lyrics,
        safetyReference: deps.safetyReference,
        registry: deps.registry,
        events: deps.events,
        config: deps.config,
        generations: service,
        clock: deps.clock,
        log: deps.log,
      });
      // Before this process takes jobs, so it never resets one it has just started.
      for (const generationId of await repo.requeueInterrupted(deps.resetRunning)) {
        await addJob(deps.queue, GENERATION_QUEUE, 'generate', { generationId }, { jobId: generationId });
      }
      await processJobs(deps.queue, GENERATION_QUEUE, (job) => runner.handle(job), { concurrency: MAX_CONCURRENT_GENERATIONS });
      modelWaiter.start();
    },
    stop: () => modelWaiter.stop(),
  };
}

export type GenerationModule = ReturnType<typeof buildGenerationModule>;
