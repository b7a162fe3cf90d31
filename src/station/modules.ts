/**
 * The station's part of the composition root: builds modules A to I on the infrastructure app.ts chose,
 * registers their routes and starts their workers. app.ts calls this once.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { LiveAccess } from '../auth/connection-guard.js';
import type { Config } from '../config.js';
import type { Engine } from '../engine/engine.js';
import type { BlobStore } from '../infra/blobs/blob-store.js';
import type { UrlSigner } from '../infra/blobs/url-signer.js';
import type { Clock } from '../infra/clock/clock.js';
import type { IntervalTimers } from '../infra/clock/timers.js';
import type { Database } from '../infra/db/client.js';
import type { EventBus } from '../infra/pubsub/event-bus.js';
import type { MessageOutbox } from '../infra/pubsub/recorded-publish.js';
import type { JobQueue } from '../infra/queue/job-queue.js';
import { ConfigRepository } from './admin/config.repository.js';
import { buildStationAdminModule } from './admin/module.js';
import { buildContextModule, buildContextRotationModule } from './context/module.js';
import { buildGenerationModule, contextSessions, generationExists, sessionGenerationIds } from './generation/module.js';
import { buildListeners } from './realtime/realtime.js';
import { buildRealtimeModule } from './realtime/module.js';
import { StationEvents } from './events/station-events.js';
import { buildLyricsModule } from './lyrics/module.js';
import { ModelStore } from './models/model-store.js';
import { ModelsRepository } from './models/models.repository.js';
import { ModelAvailability } from './models/model-availability.js';
import { ModelLineageRepository } from './models/model-lineage.repository.js';
import { RegistryRepository } from './registry/registry.repository.js';
import { RegistryService } from './registry/registry.service.js';
import { SafetyReviewRepository, type ReportThresholdRead } from './registry/safety-review.repository.js';
import { buildRegistryModule } from './registry/module.js';
import { buildTransparencyModule } from './transparency/module.js';
import { SafetyReferenceStore } from './safety/safety-reference.js';
import { buildDemoSeedModule } from '../demo/module.js';
import { demoSeedOutlook } from '../demo/seed-state.js';
import { buildRadioModule } from './radio/module.js';
import { buildDatasetModule } from './dataset/module.js';
import type { MasterBitrates } from './dataset/service.js';
import { buildTrainingModule } from './training/module.js';
import { loadOrCreateSecret } from '../infra/secrets.js';
import type { EgressPolicy } from '../infra/egress/egress-policy.js';
import type { LeaseStore } from '../infra/leases/lease-store.js';
import type { PlayWindow } from '../platform/catalog/play-window.js';
import type { CatalogDatasetReads } from '../platform/catalog/dataset-reads.js';
import type { CatalogTrackReads } from '../platform/catalog/track-reads.js';
import type { CatalogPlayout } from './scheduler/catalog-reads.js';
import type { EmailVerifiedCheck } from '../auth/email-verification.js';

export interface StationInfra {
  config: Config;
  database: Database;
  bus: EventBus;
  queue: JobQueue;
  blobs: BlobStore;
  signer: UrlSigner;
  clock: Clock;
  engine: Engine;
  /** Where notify_webhook may be delivered (STATION_WEBHOOK_ALLOWED_HOSTS). */
  egress: EgressPolicy;
  /** Repeating timers of the realtime channels and the model waiter; real ones by default. */
  timers?: IntervalTimers;
  /** Closes WebSocket clients and stream listeners whose credential ends (src/auth/connection-guard.ts). */
  access: LiveAccess;
  /** Shared by every instance: who is listening (src/station/realtime/listener-presence.ts). */
  leases: LeaseStore;
  /** One counted play per caller and track within the track's length (src/platform/catalog/play-window.ts). */
  playWindow: PlayWindow;
  /**
   * The catalog's port for the station (src/platform/catalog/track-reads.ts): stored features (module A's safety
   * test, the safety reference), names (module E's influences), platform artists (module F's styles), training
   * inputs (modules B and C), ownership (module I's dataset check), what the radio plays and the playout's loudness.
   */
  catalogTracks: CatalogTrackReads;
  /** The catalog's port for module B (src/platform/catalog/dataset-reads.ts): the rows its eligibility and validation judge. */
  catalogDataset: CatalogDatasetReads;
  /** The catalog's playout port (its module's `repo`): a published live track as the radio airs it, and each airing's play. */
  catalogPlayout: CatalogPlayout;
  /** Whether an account's e-mail address is verified (the auth module's read). */
  verified: EmailVerifiedCheck;
  /** The platform uploads' masters' bitrates, which module B's quality gate judges an uploaded track by. */
  masterBitrates: MasterBitrates;
  log: FastifyBaseLogger;
  /** The webhooks' outbox: station events are recorded there before they are published (delivered after any outage). */
  eventOutbox: MessageOutbox;
}

export type StationModules = ReturnType<typeof buildStationModules>;

export function buildStationModules(infra: StationInfra) {
  const { database, bus, queue, blobs, signer, clock, engine, config, egress, log } = infra;
  const db = database.db;
  const startedAt = clock.now();
  // ---- What most modules read: the bus's station events, the configuration, the model versions ----
  const events = new StationEvents(bus, clock, infra.eventOutbox);
  const stationConfig = new ConfigRepository(db);
  const modelsRepo = new ModelsRepository(db);
  const models = new ModelStore(modelsRepo, blobs, clock);
  const safetyReference = new SafetyReferenceStore(infra.catalogTracks, blobs);
  // ---- Module D (context engine); its rotation starts below, on the radio's leader. Its history counts the
  // generations made under each context through module E's read port, made on the database alone ----
  const context = buildContextModule({ db, clock, rotationSec: config.contextRotationSec, sessionsOf: contextSessions(db) });
  const contexts = context.service;
  // ---- Module C (training jobs, model versions); module A's training_status reads its jobs ----
  const training = buildTrainingModule({
    db,
    catalog: infra.catalogTracks,
    blobs,
    queue,
    bus,
    engine,
    events,
    models,
    modelsRepo,
    clock,
    egress,
    webhookSecret: loadOrCreateSecret(config.dataDir, 'webhook', config.webhookSecret),
    log,
    staleMs: config.trainingStaleMs,
  });
  // ---- Module B (dataset manager): its snapshot list asks module C which jobs used each snapshot ----
  const dataset = buildDatasetModule({
    db,
    catalog: infra.catalogTracks,
    catalogRows: infra.catalogDataset,
    blobs,
    clock,
    trainingRuns: training.snapshotRuns,
    masterBitrates: infra.masterBitrates,
  });
  const availability = new ModelAvailability(modelsRepo, training.jobsInFlight, demoSeedOutlook(db), clock);
  // The registry judges listener reports against module A's report_threshold, read in the report's transaction.
  const reportThreshold: ReportThresholdRead = (tx) => new ConfigRepository(tx).reportThreshold();
  const registry = new RegistryService(new RegistryRepository(db), clock, new SafetyReviewRepository(db, reportThreshold));
  // ---- Modules F (lyrics) and E (generation) ----
  const lyricsModule = buildLyricsModule({
    db,
    engine,
    models,
    safetyReference,
    stationConfig,
    events,
    clock,
    availability,
    catalog: infra.catalogTracks,
    generationExists: generationExists(db),
    sessionGenerationIds: sessionGenerationIds(db),
  });
  const lyrics = lyricsModule.service;
  const generation = buildGenerationModule({
    db,
    queue,
    blobs,
    signer,
    engine,
    clock,
    events,
    config: stationConfig,
    contexts,
    models,
    availability,
    lyrics,
    safetyReference,
    registry,
    catalog: infra.catalogTracks,
    log,
    timers: infra.timers,
    resetRunning: !config.redisUrl,
  });
  const generations = generation.service;
  const generationRepo = generation.repo;
  // ---- Modules G (registry) and I (transparency); the scheduler records plays with registryModule.plays.recordPlay ----
  const registryModule = buildRegistryModule({
    db,
    generations: generationRepo,
    blobs,
    events,
    clock,
    playWindow: infra.playWindow,
    lineage: new ModelLineageRepository(db),
    lyrics: lyricsModule.records,
    reportThreshold,
  });
  const transparencyModule = buildTransparencyModule({
    blobs,
    catalog: infra.catalogTracks,
    registry: registryModule,
    lyricsOf: lyricsModule.sungLyrics,
    clock,
    publicBaseUrl: config.publicBaseUrl,
  });
  // ---- Who listens: counted by the radio's streams and the WebSocket channels alike ----
  const listeners = buildListeners({ bus, clock, listenerBroadcastSec: config.listenerBroadcastSec, leases: infra.leases, log });
  const listenerTotal = async () => listeners.counter.total();
  // ---- The radio: scheduler (one leader), live stream, module H ----
  const radioModule = buildRadioModule({
    config,
    db,
    bus,
    blobs,
    signer,
    clock,
    engine,
    events,
    stationConfig,
    contexts,
    generations,
    generationRepo,
    models,
    registry,
    plays: registryModule.plays,
    reviews: registryModule.reviews,
    access: infra.access,
    presence: listeners.presence,
    verified: infra.verified,
    listenerTotal,
    catalogTracks: infra.catalogTracks,
    catalogPlayout: infra.catalogPlayout,
    log,
  });
  // ---- WebSocket channels (hub, listener count broadcast, bus feeds) and the listener-count history ----
  const realtimeModule = buildRealtimeModule({
    db,
    bus,
    clock,
    listenerBroadcastSec: config.listenerBroadcastSec,
    timers: infra.timers,
    access: infra.access,
    listeners,
    currentCard: () => radioModule.scheduler.status.nowPlaying(),
    log,
  });
  const realtime = realtimeModule.realtime;
  // ---- Module A (station control): its status reads the radio and module C ----
  const admin = buildStationAdminModule({
    bus,
    clock,
    engine,
    events,
    stationConfig,
    models,
    safetyReference,
    startedAt,
    radio: radioModule.scheduler.status,
    training: training.service,
    generationQueueDepth: generation.queueDepth,
    safetyFlagsSince: (since) => registryModule.repo.safetyFlagsSince(since),
    reportThresholdChanged: (threshold) => registryModule.reviews.applyThreshold(threshold),
    catalogFeatures: infra.catalogTracks,
  });
  // ---- Leader-only: rotates the live context on the scheduler's leader ----
  const contextRotation = buildContextRotationModule({ context, clock, isLeader: () => radioModule.leader.isLeader(), log });
  // ---- The demo's background seed (STATION_DEMO): masters, models, catalog and store ----
  const demoSeed = config.demo
    ? buildDemoSeedModule({
        db,
        blobs,
        engine,
        models,
        modelsRepo,
        stationConfig,
        contexts,
        safetyReference,
        radioAwaitsFirstAiTrack: () => radioModule.awaitingFirstAiTrack(),
        log,
        clock,
        trackSec: config.demoTrackSec,
      })
    : null;

  return {
    events,
    modelsRepo,
    availability,
    /** Runs work that waited for a model; tests call `modelWaiter.tick()` instead of waiting for its timer. */
    modelWaiter: generation.modelWaiter,
    /** The demo seeder when STATION_DEMO is on; `demo.done` resolves when its background work ends. */
    demo: demoSeed?.seeder ?? null,
    stationConfig,
    contexts,
    models,
    safetyReference,
    registry,
    lyrics,
    registryModule,
    transparencyModule,
    generations,
    realtime,
    listenerHistory: realtimeModule.history,
    radio: radioModule,
    admin,
    dataset,
    contextRotator: contextRotation.rotator,
    training,

    routes: async (app: FastifyInstance) => {
      // Stream listeners and WebSocket clients never finish on their own: end them before the server
      // waits for in-flight requests, so a SIGTERM shuts down at once.
      app.addHook('preClose', async () => {
        radioModule.broadcaster.stop();
        realtime.hub.closeAll();
      });
      await generation.routes(app);
      await lyricsModule.routes(app);
      await registryModule.routes(app);
      await transparencyModule.routes(app);
      await admin.routes(app);
      await dataset.routes(app);
      await context.routes(app);
      await training.routes(app);
      await realtimeModule.routes(app);
      await radioModule.routes(app);
    },

    /** Starts the queue workers and picks up work a previous process left unfinished. */
    start: async () => {
      await realtimeModule.start();
      await contextRotation.start();
      await generation.start(); // and its model waiter
      await training.start();
      await demoSeed?.start();
      // A worker (STATION_ROLE=worker) serves no listeners and never leads the radio: the API instances do.
      if (config.role !== 'worker') await radioModule.start();
    },

    /** Stops background work before the infrastructure closes. */
    stop: async () => {
      await generation.stop(); // the model waiter
      await training.stop();
      if (config.role !== 'worker') await radioModule.stop();
      await contextRotation.stop();
      await demoSeed?.stop();
      await realtimeModule.stop();
    },
  };
}
