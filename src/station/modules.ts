/**
 * The station's part of the composition root: builds modules A to I on the infrastructure app.ts chose,
 * registers their routes and starts their workers. app.ts calls this once.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { Engine } from '../engine/engine.js';
import type { BlobStore } from '../infra/blobs/blob-store.js';
import type { UrlSigner } from '../infra/blobs/url-signer.js';
import type { Clock } from '../infra/clock/clock.js';
import type { Database } from '../infra/db/client.js';
import type { EventBus } from '../infra/pubsub/event-bus.js';
import type { JobQueue } from '../infra/queue/job-queue.js';
import { ConfigRepository } from './admin/config.repository.js';
import { ContextRepository } from './context/context.repository.js';
import { ContextService } from './context/context.service.js';
import { StationEvents } from './events/station-events.js';
import { GenerationRepository } from './generation/generation.repository.js';
import { GenerationRunner } from './generation/generation.runner.js';
import { GENERATION_QUEUE, GenerationService, MAX_CONCURRENT_GENERATIONS } from './generation/generation.service.js';
import { generationRoutes } from './generation/routes.js';
import { LyricsRepository } from './lyrics/lyrics.repository.js';
import { LyricsService } from './lyrics/lyrics.service.js';
import { ModelStore } from './models/model-store.js';
import { ModelsRepository } from './models/models.repository.js';
import { RegistryRepository } from './registry/registry.repository.js';
import { RegistryService } from './registry/registry.service.js';
import { SafetyReferenceStore } from './safety/safety-reference.js';
import { DemoSeeder } from '../demo/seeder.js';

export interface StationInfra {
  config: Config;
  database: Database;
  bus: EventBus;
  queue: JobQueue;
  blobs: BlobStore;
  signer: UrlSigner;
  clock: Clock;
  engine: Engine;
}

export type StationModules = ReturnType<typeof buildStationModules>;

export function buildStationModules(infra: StationInfra) {
  const { database, bus, queue, blobs, signer, clock, engine, config } = infra;
  const db = database.db;
  const events = new StationEvents(bus, clock);
  const stationConfig = new ConfigRepository(db);
  const contexts = new ContextService(new ContextRepository(db), clock, config.contextRotationSec);
  const modelsRepo = new ModelsRepository(db);
  const models = new ModelStore(modelsRepo, blobs, clock);
  const safetyReference = new SafetyReferenceStore(db, blobs);
  const registry = new RegistryService(new RegistryRepository(db), clock);
  const lyrics = new LyricsService(new LyricsRepository(db), engine, models, safetyReference, stationConfig, events, clock);
  const generationRepo = new GenerationRepository(db);
  const generations = new GenerationService(generationRepo, contexts, stationConfig, models, queue, signer, engine, clock);

  let demo: DemoSeeder | null = null;

  return {
    events,
    modelsRepo,
    /** The demo seeder when STATION_DEMO is on; `demo.done` resolves when its background work ends. */
    get demo() {
      return demo;
    },
    stationConfig,
    contexts,
    models,
    safetyReference,
    registry,
    lyrics,
    generations,

    routes: async (app: FastifyInstance) => {
      await app.register(generationRoutes(generations, lyrics));
    },

    /** Starts the queue workers and picks up work a previous process left unfinished. */
    start: async (log: FastifyBaseLogger) => {
      const runner = new GenerationRunner({
        db,
        repo: generationRepo,
        engine,
        models,
        blobs,
        signer,
        lyrics,
        safetyReference,
        registry,
        events,
        config: stationConfig,
        generations,
        clock,
        log,
      });
      await queue.process(GENERATION_QUEUE, (job) => runner.handle(job), { concurrency: MAX_CONCURRENT_GENERATIONS });
      for (const generationId of await generationRepo.requeueInterrupted()) {
        await queue.add(GENERATION_QUEUE, 'generate', { generationId }, { jobId: generationId });
      }
      if (config.demo) {
        demo = new DemoSeeder(
          { db, blobs, engine, models, modelsRepo, stationConfig, contexts, safetyReference, log },
          config.demoTrackSec,
        );
        await demo.start();
      }
    },

    /** Stops background work before the infrastructure closes. */
    stop: async () => {
      await demo?.stop();
    },
  };
}
