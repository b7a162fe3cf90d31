/**
 * Module C: accepting, tracking, pausing, resuming and cancelling training jobs, and the model versions
 * they produce. The training itself runs in runner.ts on the 'training' queue; this service never trains.
 *
 * The 409 rule ("1 training job per model type"): a queued, running or paused job holds its model type, on
 * every instance (a partial unique index on training_jobs). A paused job still holds it, because resuming
 * must not race a second job of the same type; DELETE it to start another.
 */
import { randomInt } from 'node:crypto';
import type { TrainableModel, TrainingHyperparams } from '../../engine/engine.js';
import type { BlobStore } from '../../infra/blobs/blob-store.js';
import type { Clock } from '../../infra/clock/clock.js';
import type { EventBus } from '../../infra/pubsub/event-bus.js';
import type { JobQueue } from '../../infra/queue/job-queue.js';
import { Errors } from '../../errors.js';
import { refusedDestinationDetail, type EgressPolicy } from '../../infra/egress/egress-policy.js';
import { isDeliverableUrl } from '../../platform/webhooks/delivery.js';
import { DEFAULT_HYPERPARAMS } from '../models/default-hyperparams.js';
import type { ModelsRepository } from '../models/models.repository.js';
import type { TrainingStatusSource } from '../admin/status-ports.js';
import { TrainingErrors } from './errors.js';
import type { JobModelType, TrainingJobRow, TrainingJobsRepository } from './repository.js';
import type { JobListQuery, ModelListQuery, TrainingJobRequest } from './schemas.js';
import { itemCountFor, type SnapshotSource } from './snapshots.js';
import { jobDetails, jobView, modelVersionView } from './view.js';
import { addJob, QUEUES } from '../../infra/queue/jobs.js';

export const TRAINING_QUEUE = QUEUES.training;
/** Tells the instance running a job to read its pause/cancel request now rather than at its next poll. */
export const TRAINING_CONTROL_CHANNEL = 'station.training_control';
/** At most one job per model type runs, so at most this many at once. */
export const TRAINING_CONCURRENCY = 3;
/** Lyrics model dropout when the request names none (as the engine's default). */
const DEFAULT_DROPOUT = 0.5;

export interface TrainingServiceDeps {
  repo: TrainingJobsRepository;
  snapshots: SnapshotSource;
  modelsRepo: ModelsRepository;
  queue: JobQueue;
  bus: EventBus;
  blobs: BlobStore;
  clock: Clock;
  egress: Pick<EgressPolicy, 'screen'>;
}

export function modelTypeOf(filter: string | undefined): JobModelType | undefined {
  if (filter === undefined) return undefined;
  return filter === 'style' ? 'style_embedding' : (filter as JobModelType);
}

export function enqueueTraining(queue: JobQueue, jobId: string): Promise<string> {
  // Job-level attempts cover our own trouble (a database hiccup before the claim); training errors fail the job.
  return addJob(queue, TRAINING_QUEUE, 'train', { jobId }, { jobId, attempts: 3, backoffMs: 2_000 });
}

export class TrainingService implements TrainingStatusSource {
  constructor(private readonly deps: TrainingServiceDeps) {}

  async create(request: TrainingJobRequest, requestedBy: string | null) {
    const { repo, snapshots, modelsRepo, clock } = this.deps;
    const type = request.model_type;
    const hyperparams = resolveHyperparams(type, request.hyperparams ?? {});
    const notifyWebhook = request.notify_webhook ?? null;
    if (notifyWebhook !== null) await this.screenNotifyWebhook(notifyWebhook);
    const snapshot = await snapshots.find(request.dataset_snapshot_id);
    if (!snapshot) throw Errors.notFound('Dataset snapshot', request.dataset_snapshot_id);
    if (itemCountFor(snapshot, type) === 0) {
      throw Errors.validation(`snapshot ${snapshot.id} holds no ${type === 'lyrics' ? 'lyrics' : 'audio masters'} to train a ${type} model on`);
    }
    const baseId = request.base_model_id ?? null;
    if (baseId !== null) {
      const base = await modelsRepo.findById(baseId);
      if (!base || base.modelType !== type) throw Errors.notFound(`Base ${type} model`, baseId);
    }
    const now = clock.date();
    const row = await repo.insert({
      modelType: type,
      snapshotId: snapshot.id,
      datasetHash: snapshot.datasetHash,
      baseModelId: baseId,
      hyperparams,
      seed: request.seed ?? randomInt(0, 2 ** 31 - 1),
      notifyWebhook,
      totalEpochs: hyperparams.epochs,
      requestedBy,
      createdAt: now,
      updatedAt: now,
    });
    if (!row) throw TrainingErrors.inProgress(type, (await repo.activeOfType(type))?.id ?? null);
    await enqueueTraining(this.deps.queue, row.id);
    return jobView(row);
  }

  async list(query: JobListQuery) {
    const page = query.page ?? 1;
    const limit = query.limit ?? 20;
    const { rows, total } = await this.deps.repo.list({ type: modelTypeOf(query.model), status: query.status }, limit, (page - 1) * limit);
    return { data: rows.map(jobView), total, page, limit };
  }

  async get(jobId: string) {
    const row = await this.require(jobId);
    return jobDetails(row, await this.deps.snapshots.find(row.snapshotId));
  }

  /** running -> paused at the next checkpoint: answers at once with pause_requested true. */
  async pause(jobId: string) {
    const row = await this.require(jobId);
    const requested = await this.deps.repo.requestPause(jobId, this.deps.clock.date());
    if (!requested) throw TrainingErrors.wrongState('pause', row.status, 'running');
    await this.nudge(jobId);
    return jobView(requested);
  }

  /** paused -> queued -> running from the last checkpoint (or withdraws a pause that has not happened yet). */
  async resume(jobId: string) {
    const row = await this.require(jobId);
    const resumed = await this.deps.repo.resume(jobId, this.deps.clock.date());
    if (!resumed) throw TrainingErrors.wrongState('resume', row.status, 'paused');
    if (resumed.status === 'queued') await enqueueTraining(this.deps.queue, jobId);
    return jobView(resumed);
  }

  /**
   * Cancel and delete (spec). From this answer on the job is gone: GET answers 404 and the list leaves it out
   * (the row stays, status cancelled with deleted_at, as the internal audit trail). A job no worker holds
   * loses its checkpoint at once; a running one's worker stops at its next check and deletes its checkpoints.
   * A completed job answers 409: the model version it produced keeps its lineage.
   */
  async cancel(jobId: string) {
    const { repo, clock } = this.deps;
    for (let attempt = 0; attempt < 3; attempt++) {
      const row = await this.require(jobId);
      if (row.status === 'completed') throw TrainingErrors.wrongState('delete', row.status, 'not completed');
      if (row.status === 'running') {
        if (await repo.requestCancel(jobId, clock.date())) {
          await this.nudge(jobId);
          return { job_id: jobId, status: 'cancelled' as const, deleted: true };
        }
        continue; // it changed state meanwhile: look again
      }
      const deleted = await repo.deleteIdle(jobId, clock.date());
      if (deleted) {
        if (deleted.checkpointBlobKey) await this.deps.blobs.delete(deleted.checkpointBlobKey).catch(() => undefined);
        return { job_id: jobId, status: 'cancelled' as const, deleted: true };
      }
    }
    throw Errors.conflict('The training job changed state while being cancelled', 'try again');
  }

  async listModels(query: ModelListQuery) {
    const page = query.page ?? 1;
    const limit = query.limit ?? 20;
    const { rows, total } = await this.deps.modelsRepo.list({ type: modelTypeOf(query.model) }, limit, (page - 1) * limit);
    return { data: rows.map(modelVersionView), total, page, limit };
  }

  /**
   * Makes a version the production model of its type in one transaction. Zero downtime: every generation
   * resolves its model version when it is admitted, so running ones finish on the old version and new ones
   * use the new; no request sees a moment without a production model.
   */
  async deploy(modelId: string) {
    const { modelsRepo } = this.deps;
    const target = await modelsRepo.findById(modelId);
    if (!target) throw TrainingErrors.modelNotFound(modelId);
    const previous = await modelsRepo.production(target.modelType);
    const deployed = await modelsRepo.deploy(target.id);
    return {
      model_id: deployed.id,
      version: deployed.version,
      model_type: deployed.modelType,
      status: 'production' as const,
      previous_version: previous && previous.id !== deployed.id ? previous.version : null,
      deployed_at: (deployed.deployedAt ?? this.deps.clock.date()).toISOString(),
    };
  }

  /** Module A's training_status. */
  status() {
    return this.deps.repo.stationStatus();
  }

  /** Refuses at once what could never be delivered: credentials in the URL, or a destination the policy refuses. */
  private async screenNotifyWebhook(url: string): Promise<void> {
    if (!isDeliverableUrl(url)) throw Errors.validation('notify_webhook must be an absolute http(s) URL without credentials', 'Invalid notify_webhook URL');
    if ((await this.deps.egress.screen(new URL(url).hostname)) === 'refused') {
      throw Errors.validation(refusedDestinationDetail('notify_webhook'), 'Invalid notify_webhook URL');
    }
  }

  /** Best effort: without it the worker still sees the request at its next poll (500 ms). */
  private async nudge(jobId: string): Promise<void> {
    await this.deps.bus.publish(TRAINING_CONTROL_CHANNEL, { job_id: jobId }).catch(() => undefined);
  }

  private async require(jobId: string): Promise<TrainingJobRow> {
    const row = await this.deps.repo.findVisible(jobId);
    if (!row) throw TrainingErrors.jobNotFound(jobId);
    return row;
  }
}

/** The request's hyperparameters over the type's defaults, in the engine's form. */
export function resolveHyperparams(type: TrainableModel, given: NonNullable<TrainingJobRequest['hyperparams']>): TrainingHyperparams {
  if (given.dropout !== undefined && type !== 'lyrics') throw Errors.validation('hyperparams.dropout applies to the lyrics model only');
  const defaults = DEFAULT_HYPERPARAMS[type];
  return {
    epochs: given.epochs ?? defaults.epochs,
    learningRate: given.learning_rate ?? defaults.learningRate,
    batchSize: given.batch_size ?? defaults.batchSize,
    warmupSteps: given.warmup_steps ?? defaults.warmupSteps,
    ...(type === 'lyrics' ? { dropout: given.dropout ?? defaults.dropout ?? DEFAULT_DROPOUT } : {}),
  };
}
