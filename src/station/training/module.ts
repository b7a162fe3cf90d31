/** Module C wired from its ports: the service behind the routes, the queue worker, the status port. */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Engine } from '../../engine/engine.js';
import type { BlobStore } from '../../infra/blobs/blob-store.js';
import type { Clock } from '../../infra/clock/clock.js';
import type { Db } from '../../infra/db/client.js';
import type { EgressPolicy } from '../../infra/egress/egress-policy.js';
import type { EventBus } from '../../infra/pubsub/event-bus.js';
import type { JobQueue } from '../../infra/queue/job-queue.js';
import type { StationEvents } from '../events/station-events.js';
import type { ModelStore } from '../models/model-store.js';
import type { ModelsRepository } from '../models/models.repository.js';
import { TrainingJobsRepository, type JobModelType } from './repository.js';
import { trainingRoutes } from './routes.js';
import { TrainingRunner } from './runner.js';
import { TRAINING_CONCURRENCY, TRAINING_QUEUE, TrainingService } from './service.js';
import { snapshotSource } from './snapshots.js';
import type { TrainingCatalog } from '../dataset/training-data.js';
import { processJobs } from '../../infra/queue/jobs.js';

export interface TrainingModuleDeps {
  db: Db;
  /** The catalog's read port: the snapshot's items a job trains on (platform-owned masters' features, lyrics). */
  catalog: TrainingCatalog;
  blobs: BlobStore;
  queue: JobQueue;
  bus: EventBus;
  engine: Engine;
  events: StationEvents;
  models: ModelStore;
  modelsRepo: ModelsRepository;
  clock: Clock;
  webhookSecret: Buffer;
  /** Where notify_webhook may be delivered: screened at job creation, checked again when sent. */
  egress: EgressPolicy;
  log: FastifyBaseLogger;
  /** STATION_TRAINING_STALE_SEC: when a running job's silent worker counts as dead. */
  staleMs?: number;
}

export function buildTrainingModule(deps: TrainingModuleDeps) {
  const repo = new TrainingJobsRepository(deps.db);
  const snapshots = snapshotSource(deps.db, deps.catalog, deps.blobs);
  const service = new TrainingService({
    repo,
    snapshots,
    modelsRepo: deps.modelsRepo,
    queue: deps.queue,
    bus: deps.bus,
    blobs: deps.blobs,
    clock: deps.clock,
    egress: deps.egress,
  });
  let runner: TrainingRunner | null = null;

  return {
    service,
    repo,
    /** Read port for module B's snapshot list: the jobs that used each snapshot. */
    snapshotRuns: { runsForSnapshots: (snapshotIds: string[]) => repo.runsForSnapshots(snapshotIds) },
    /** Read port for the models' availability: the job of a type that will produce a model, if any. */
    jobsInFlight: { activeOfType: (type: JobModelType) => repo.activeOfType(type) },
    routes: (app: FastifyInstance) => app.register(trainingRoutes(service)),
    /** Registers the queue worker and re-queues jobs a previous process left behind. */
    start: async () => {
      runner = new TrainingRunner({ ...deps, repo, snapshots });
      await processJobs(deps.queue, TRAINING_QUEUE, (job) => runner!.handle(job), { concurrency: TRAINING_CONCURRENCY });
      await runner.start();
    },
    stop: async () => {
      await runner?.stop();
    },
  };
}

export type TrainingModule = ReturnType<typeof buildTrainingModule>;
