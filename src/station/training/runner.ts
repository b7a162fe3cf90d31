/**
 * The training pipeline, run by a 'training' queue worker for one job id (see README.md):
 *
 *   claim (queued -> running) -> load snapshot dataset -> load base model -> load checkpoint
 *     -> engine.train: every epoch -> loss curve, progress, ETA, CPU, training-progress channel
 *                      every checkpoint -> blob, recorded BEFORE the worker goes on
 *     -> save model version (ready, not deployed) -> completed + station.training.job_completed + notify_webhook
 *   pause -> paused at the checkpoint; shutdown -> queued again (resumes from the checkpoint)
 *   cancel (DELETE) -> the worker stops, the checkpoints are deleted, the row stays (deleted for the API) as the record
 *   any failure -> failed with error_stage + station.training.job_failed + notify_webhook (production untouched)
 *
 * A worker that dies stops beating; its job is put back on the queue by any instance's sweep and resumes
 * from the last checkpoint, so at most the running epoch is lost.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { ArtifactRef, Engine, TrainableModel, TrainingEpoch } from '../../engine/engine.js';
import { EngineError } from '../../engine/errors.js';
import type { BlobStore } from '../../infra/blobs/blob-store.js';
import type { EgressPolicy } from '../../infra/egress/egress-policy.js';
import type { Clock } from '../../infra/clock/clock.js';
import type { LossCurvePoint } from '../../infra/db/schema/index.js';
import type { EventBus } from '../../infra/pubsub/event-bus.js';
import type { Job, JobQueue } from '../../infra/queue/job-queue.js';
import { loggableUrl, sendSignedPost } from '../../platform/webhooks/delivery.js';
import { TRAINING_PROGRESS_CHANNEL, type StationEventName, type StationEvents } from '../events/station-events.js';
import { artifactRefOf } from '../models/blob-artifact-source.js';
import type { ModelStore } from '../models/model-store.js';
import type { ModelsRepository, ModelVersionRow } from '../models/models.repository.js';
import { publicFailure } from '../../errors.js';
import { internalTrainingFailure, trainingFailureOf, TrainingErrors } from './errors.js';
import { JobControl } from './job-control.js';
import type { TrainingJobRow, TrainingJobsRepository } from './repository.js';
import { CpuMeter, modelMetrics } from './metrics.js';
import { enqueueTraining, TRAINING_CONTROL_CHANNEL } from './service.js';
import type { SnapshotSource } from './snapshots.js';
import type { JobPayloads } from '../../infra/queue/jobs.js';

/** A running job whose heartbeat is older than this lost its worker (STATION_TRAINING_STALE_SEC's default). */
export const TRAINING_STALE_MS = 20_000;
/** Engine worker crashes tolerated per job before it fails. */
const MAX_RESTARTS = 3;
/** How long a graceful shutdown waits for running jobs to reach a checkpoint before giving them up. */
const STOP_WAIT_MS = 8_000;
const WEBHOOK_ATTEMPTS = 3;

export interface TrainingRunnerDeps {
  repo: TrainingJobsRepository;
  snapshots: SnapshotSource;
  engine: Engine;
  models: ModelStore;
  modelsRepo: ModelsRepository;
  blobs: BlobStore;
  events: StationEvents;
  bus: EventBus;
  queue: JobQueue;
  clock: Clock;
  /** Signs notify_webhook calls (STATION_WEBHOOK_SECRET, or generated and kept in DATA_DIR). */
  webhookSecret: Buffer;
  /** STATION_WEBHOOK_ALLOWED_HOSTS, checked again at every send (the name may resolve elsewhere by now). */
  egress: EgressPolicy;
  log: FastifyBaseLogger;
  /** STATION_TRAINING_STALE_SEC: TRAINING_STALE_MS by default; the sweep looks twice per period. */
  staleMs?: number;
}

/** A failure with the pipeline step it happened in (the job's error_stage). */
class StageError extends Error {
  constructor(
    readonly stage: string,
    readonly origin: unknown,
  ) {
    super(origin instanceof Error ? origin.message : String(origin));
  }
}

async function step<T>(stage: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw new StageError(stage, error);
  }
}

export class TrainingRunner {
  private readonly workerId = `${process.pid}-${randomUUID().slice(0, 8)}`;
  private stopping = false;
  private readonly running = new Map<string, Promise<void>>();
  private readonly controls = new Map<string, JobControl>();
  private unsubscribe: (() => Promise<void>) | null = null;
  private readonly notifications = new Set<Promise<void>>();
  private readonly shutdown = new AbortController();
  private sweepTimer: NodeJS.Timeout | null = null;

  private readonly staleMs: number;

  constructor(private readonly deps: TrainingRunnerDeps) {
    this.staleMs = deps.staleMs ?? TRAINING_STALE_MS;
  }

  /** Puts back jobs whose worker died (or that no queue holds any more), then keeps doing so periodically. */
  async start(): Promise<void> {
    this.unsubscribe = await this.deps.bus.subscribe(TRAINING_CONTROL_CHANNEL, (message) => {
      const jobId = (message as { job_id?: unknown }).job_id;
      if (typeof jobId === 'string') void this.controls.get(jobId)?.poll();
    });
    await this.sweep();
    this.sweepTimer = setInterval(() => void this.sweep().catch((error) => this.deps.log.warn({ err: error }, 'training sweep failed')), this.staleMs / 2);
    this.sweepTimer.unref();
  }

  /** Graceful stop: running jobs stop at their next checkpoint and go back to 'queued' for the next start. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    await this.unsubscribe?.().catch(() => undefined);
    const running = [...this.running.values()];
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<void>((resolve) => (timer = setTimeout(resolve, STOP_WAIT_MS)));
    await Promise.race([Promise.allSettled(running), gaveUp]);
    clearTimeout(timer);
    // Jobs still running are given up now (the engine closes next); their checkpoint stays.
    for (const jobId of this.running.keys()) await this.deps.repo.release(jobId, this.workerId, this.deps.clock.date(), false).catch(() => undefined);
    this.shutdown.abort();
    await Promise.allSettled([...this.notifications]);
  }

  async handle(job: Job<JobPayloads['training']>): Promise<void> {
    if (this.stopping) return; // the job stays queued in the database; the next sweep or start picks it up
    const { jobId } = job.data;
    const { repo, clock, models } = this.deps;
    const found = await repo.find(jobId);
    if (!found || (found.status !== 'queued' && found.status !== 'running')) return;
    const draft = found.modelVersionDraft ?? (await models.draftVersionName(found.modelType));
    const now = clock.date();
    const row = await repo.claim(jobId, this.workerId, now, new Date(now.getTime() - this.staleMs), draft);
    if (!row) return; // paused, cancelled, done, or running on a live worker
    const run = this.run(row).finally(() => this.running.delete(jobId));
    this.running.set(jobId, run);
    await run;
  }

  private async sweep(): Promise<void> {
    const now = this.deps.clock.date();
    const { requeued, orphanCheckpoints } = await this.deps.repo.recoverStale(new Date(now.getTime() - this.staleMs), now);
    for (const key of orphanCheckpoints) await this.deps.blobs.delete(key).catch(() => undefined);
    // Dedupe by job id: a job the queue already holds is not added twice.
    for (const jobId of requeued) if (!this.running.has(jobId)) await enqueueTraining(this.deps.queue, jobId);
  }

  private async run(row: TrainingJobRow): Promise<void> {
    const { repo, clock, log } = this.deps;
    const control = new JobControl(repo, row.id, this.workerId, clock);
    control.start();
    this.controls.set(row.id, control);
    const shouldStop = () => this.stopping || control.pause || control.cancel;
    try {
      const outcome = await this.train(row, shouldStop);
      await control.poll();
      if (control.cancel) return await this.finishCancelled(row);
      if (outcome === 'stopped') {
        if (control.pause && !this.stopping) {
          if (!(await repo.markPaused(row.id, this.workerId, clock.date()))) await this.finishCancelled(row);
          return;
        }
        await repo.release(row.id, this.workerId, clock.date(), false);
        return;
      }
      await this.complete(row, outcome);
    } catch (error) {
      await control.poll();
      if (control.cancel) return await this.finishCancelled(row);
      const cause = error instanceof StageError ? error.origin : error;
      if (cause instanceof EngineError && (cause.code === 'SHUTDOWN' || (cause.code === 'CRASHED' && this.stopping))) {
        await repo.release(row.id, this.workerId, clock.date(), false);
        return;
      }
      if (cause instanceof EngineError && cause.code === 'CRASHED' && row.restarts < MAX_RESTARTS) {
        log.warn({ err: cause, jobId: row.id }, 'training worker crashed; resuming from the last checkpoint');
        if (await repo.release(row.id, this.workerId, clock.date(), true)) await enqueueTraining(this.deps.queue, row.id);
        return;
      }
      await this.fail(row, error);
    } finally {
      control.stop();
      this.controls.delete(row.id);
    }
  }

  /** The engine run with its hooks; answers the saved model, or 'stopped' when it stopped at a checkpoint. */
  private async train(row: TrainingJobRow, shouldStop: () => boolean): Promise<ModelVersionRow | 'stopped'> {
    const { repo, snapshots, engine, blobs, modelsRepo, bus, clock } = this.deps;
    const type = row.modelType as TrainableModel;
    const dataset = await step('load_dataset', () => snapshots.load(row.snapshotId, type));
    const base = await step('load_base_model', () => this.baseRef(row.baseModelId));
    const resumeFrom = row.checkpointBlobKey
      ? await step('load_checkpoint', async () => JSON.parse((await blobs.get(row.checkpointBlobKey!)).toString('utf8')) as unknown)
      : null;

    const curve: LossCurvePoint[] = [...row.lossCurve];
    let epochStarted = clock.now();
    // In-process, the engine's worker threads are this process's: its CPU time is the training's (with what
    // else the process does meanwhile). A remote engine trains in another process, which is not measured here.
    const cpuMeter = engine.kind === 'local' ? new CpuMeter() : null;
    let lastEpoch = row.checkpointEpoch;
    const hyperparams = row.hyperparams;

    const onEpoch = async (e: TrainingEpoch) => {
      const now = clock.now();
      const seconds = Math.max(0.001, (now - epochStarted) / 1000);
      const cpuPct = cpuMeter?.lap() ?? null;
      epochStarted = now;
      lastEpoch = e.epoch;
      const point: LossCurvePoint = {
        epoch: e.epoch,
        loss: e.loss,
        held_out_loss: e.heldOutLoss,
        perplexity: type === 'lyrics' ? e.perplexity : null,
        seconds: Math.round(seconds * 1000) / 1000,
        at: new Date(now).toISOString(),
      };
      curve.push(point);
      const meanSeconds = curve.reduce((sum, p) => sum + p.seconds, 0) / curve.length;
      await repo.recordEpoch(
        row.id,
        this.workerId,
        {
          point,
          totalEpochs: row.totalEpochs,
          epochSeconds: meanSeconds,
          etaSeconds: Math.round(meanSeconds * Math.max(0, row.totalEpochs - e.epoch)),
          cpuUtilizationPct: cpuPct,
        },
        new Date(now),
      );
      void bus
        .publish(TRAINING_PROGRESS_CHANNEL, { event: 'training_epoch', job_id: row.id, epoch: e.epoch, loss: e.loss, perplexity: point.perplexity })
        .catch(() => undefined);
    };

    // Written and recorded before the hook returns: the worker waits for it, so a kill loses at most one epoch.
    const onCheckpoint = async (checkpoint: unknown) => {
      const key = `training/${row.id}/checkpoint-${lastEpoch}.json`;
      await blobs.put(key, Buffer.from(JSON.stringify(checkpoint)));
      const replaced = await repo.recordCheckpoint(row.id, this.workerId, key, lastEpoch, clock.date());
      if (replaced) await blobs.delete(replaced).catch(() => undefined);
    };

    epochStarted = clock.now();
    cpuMeter?.lap();
    const result = await step('train', () =>
      engine.train({ modelType: type, dataset: dataset.ref, hyperparams, base, resumeFrom, seed: row.seed }, { onEpoch, onCheckpoint, shouldStop }),
    );
    if (result.stopped || result.artifact === null) return 'stopped';

    return step('save_model', async () => {
      // A retried save (the worker died after saving) finds its own version instead of saving twice.
      const existing = row.modelVersionDraft ? await modelsRepo.findByVersion(row.modelVersionDraft) : null;
      if (existing && existing.lineage.job_id === row.id) return existing;
      return this.deps.models.save({
        type,
        version: row.modelVersionDraft ?? undefined,
        artifact: result.artifact,
        datasetHash: dataset.datasetHash,
        metrics: modelMetrics(type, result.metrics, curve),
        lineage: {
          source: 'training-job',
          job_id: row.id,
          snapshot_id: row.snapshotId,
          snapshot_dataset_hash: row.datasetHash,
          dataset_hash: dataset.datasetHash,
          items: dataset.items,
          base_model_id: row.baseModelId,
          base_model_version: base?.version ?? null,
          hyperparams: row.hyperparams,
          seed: row.seed,
        },
      });
    });
  }

  private async baseRef(baseModelId: string | null): Promise<ArtifactRef | null> {
    if (!baseModelId) return null;
    const base = await this.deps.modelsRepo.findById(baseModelId);
    if (!base) throw TrainingErrors.baseModelGone(baseModelId);
    return artifactRefOf(base);
  }

  private async complete(row: TrainingJobRow, model: ModelVersionRow): Promise<void> {
    const metrics = model.metrics;
    const dataOf = (done: TrainingJobRow) => ({
      job_id: row.id,
      model_version_draft: done.modelVersionDraft,
      model_id: model.id,
      final_loss: done.currentLoss,
      perplexity: typeof metrics.perplexity === 'number' ? metrics.perplexity : null,
      held_out_loss: done.heldOutLoss,
      dataset_hash: done.datasetHash,
    });
    const settled = await this.deps.repo.complete(row.id, this.workerId, model.id, this.deps.clock.date(), (tx, done) =>
      this.deps.events.recordIn(tx, 'station.training.job_completed', dataOf(done)),
    );
    if (!settled) return;
    const done = settled.row;
    await settled.raised();
    if (row.checkpointBlobKey || done.checkpointEpoch > 0) await this.deleteCheckpoints(row.id, done.checkpointEpoch);
    this.notifyOf(done, 'station.training.job_completed', dataOf(done));
  }

  /** Failed: the job and its announcements carry the public face of the failure; the real error is only logged. */
  private async fail(row: TrainingJobRow, error: unknown): Promise<void> {
    const stage = stageOf(error);
    const cause = error instanceof StageError ? error.origin : error;
    const { message } = publicFailure(trainingFailureOf(cause), {
      fallback: internalTrainingFailure(stage),
      log: this.deps.log,
      context: { jobId: row.id, stage },
    });
    const data = { job_id: row.id, error_stage: stage, message };
    const settled = await this.deps.repo.fail(row.id, this.workerId, stage, message, this.deps.clock.date(), (tx) =>
      this.deps.events.recordIn(tx, 'station.training.job_failed', data),
    );
    if (!settled) return;
    await settled.raised();
    this.notifyOf(settled.row, 'station.training.job_failed', data);
  }

  /** The job was deleted while running: its worker has stopped; the checkpoints go, the row stays as the record. */
  private async finishCancelled(row: TrainingJobRow): Promise<void> {
    const released = await this.deps.repo.releaseCancelled(row.id, this.workerId, this.deps.clock.date());
    if (released) await this.deleteCheckpoints(row.id, released.checkpointEpoch);
  }

  private async deleteCheckpoints(jobId: string, lastEpoch: number): Promise<void> {
    for (let epoch = lastEpoch; epoch >= Math.max(0, lastEpoch - 1); epoch--) {
      await this.deps.blobs.delete(`training/${jobId}/checkpoint-${epoch}.json`).catch(() => undefined);
    }
  }

  /**
   * The job's own notify_webhook (signed; retried a few times, in the background), beside the station event
   * recorded with the job's end state.
   */
  private notifyOf(row: TrainingJobRow, event: StationEventName, data: Record<string, unknown>): void {
    const url = row.notifyWebhook;
    if (!url) return;
    const delivery = this.notify(url, event, data).finally(() => this.notifications.delete(delivery));
    this.notifications.add(delivery);
  }

  private async notify(url: string, event: StationEventName, data: Record<string, unknown>): Promise<void> {
    for (let attempt = 1; attempt <= WEBHOOK_ATTEMPTS; attempt++) {
      const outcome = await sendSignedPost(url, event, data, this.deps.webhookSecret, {
        egress: this.deps.egress,
        clock: this.deps.clock,
        signal: this.shutdown.signal,
        timeoutMs: 10_000,
      });
      if (outcome.ok || outcome.interrupted) return;
      // Origin and path only: a notify_webhook's query string may carry the receiver's token.
      this.deps.log.warn({ url: loggableUrl(url), event, attempt, error: outcome.error }, 'notify_webhook delivery failed');
      if (attempt < WEBHOOK_ATTEMPTS) await sleep(1_000 * 4 ** (attempt - 1), this.shutdown.signal);
      if (this.shutdown.signal.aborted) return;
    }
  }
}

function stageOf(error: unknown): string {
  if (!(error instanceof StageError)) return 'train';
  const cause = error.origin;
  if (error.stage === 'train' && cause instanceof EngineError) {
    if (cause.code === 'TRAINING_DIVERGED') return 'diverged';
    if (cause.code === 'INVALID_HYPERPARAMS') return 'validate_hyperparams';
    if (cause.code === 'INVALID_INPUT' && cause.details?.reason === 'CHECKPOINT_MISMATCH') return 'load_checkpoint';
    if (cause.code === 'INVALID_INPUT') return 'validate_dataset';
    if (cause.code === 'ARTIFACT_INVALID') return 'load_base_model';
    if (cause.code === 'CRASHED') return 'worker_lost';
  }
  if (error.stage === 'train' && !(cause instanceof EngineError)) return 'checkpoint'; // a hook's own failure
  return error.stage;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
