import { sql } from 'drizzle-orm';
import { boolean, check, doublePrecision, index, integer, jsonb, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { TrainingHyperparams } from '../../../engine/engine.js';
import { modelType, modelVersions } from './station.js';
import { datasetSnapshots } from './training.js';

/**
 * Module C's job states. `cancelled` is what a DELETE leaves: the job is gone from the API at once (deleted_at
 * is set), a running one's worker stops at its next check and lets it go, and the row stays as the audit trail.
 */
export const trainingJobStatus = pgEnum('training_job_status', ['queued', 'running', 'paused', 'completed', 'failed', 'cancelled']);

/** One entry of a job's loss curve; it continues across pauses and restarts (epochs 1..N, no repeats). */
export interface LossCurvePoint {
  epoch: number;
  loss: number;
  held_out_loss: number | null;
  perplexity: number | null;
  /** Wall seconds the epoch took (checkpoint write included). */
  seconds: number;
  at: string;
}

/** Module C: one training job. Status fields are written by the worker after every epoch. */
export const trainingJobs = pgTable(
  'training_jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    modelType: modelType('model_type').notNull(),
    status: trainingJobStatus('status').notNull().default('queued'),
    snapshotId: uuid('snapshot_id')
      .notNull()
      .references(() => datasetSnapshots.id),
    /** The snapshot's dataset_hash (sha256:<hex>), copied at creation: the job's immutable audit fingerprint. */
    datasetHash: text('dataset_hash').notNull(),
    baseModelId: uuid('base_model_id').references(() => modelVersions.id),
    /** Engine form: { epochs, learningRate, batchSize, warmupSteps, dropout? }. */
    hyperparams: jsonb('hyperparams').$type<TrainingHyperparams>().notNull(),
    seed: integer('seed').notNull(),
    notifyWebhook: text('notify_webhook'),
    totalEpochs: integer('total_epochs').notNull(),
    currentEpoch: integer('current_epoch').notNull().default(0),
    progressPct: integer('progress_pct').notNull().default(0),
    currentLoss: doublePrecision('current_loss'),
    heldOutLoss: doublePrecision('held_out_loss'),
    perplexity: doublePrecision('perplexity'),
    etaSeconds: integer('eta_seconds'),
    /** Mean measured wall seconds per epoch (checkpoint write included): ETA = this x epochs left. */
    epochSeconds: doublePrecision('epoch_seconds'),
    cpuUtilizationPct: integer('cpu_utilization_pct'),
    lossCurve: jsonb('loss_curve').$type<LossCurvePoint[]>().notNull().default([]),
    /** Last checkpoint, written before the worker goes on with the next epoch. */
    checkpointBlobKey: text('checkpoint_blob_key'),
    checkpointEpoch: integer('checkpoint_epoch').notNull().default(0),
    pauseRequested: boolean('pause_requested').notNull().default(false),
    cancelRequested: boolean('cancel_requested').notNull().default(false),
    errorStage: text('error_stage'),
    errorMessage: text('error_message'),
    modelVersionDraft: text('model_version_draft'),
    modelVersionId: uuid('model_version_id').references(() => modelVersions.id),
    /** Times the job was taken over after its worker died. */
    restarts: integer('restarts').notNull().default(0),
    workerId: text('worker_id'),
    /** Refreshed by the worker every few seconds; a running job whose heartbeat is stale lost its worker. */
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    requestedBy: text('requested_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    pausedAt: timestamp('paused_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /**
     * Set by DELETE ("cancelled and deleted"): from then on the API answers 404 and lists it nowhere; the row
     * stays (status cancelled, its error and loss curve kept) as the internal audit trail.
     */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Spec limit "1 training job per model type": a queued, running or paused job holds its type, on every instance.
    uniqueIndex('training_jobs_one_active_per_type')
      .on(t.modelType)
      .where(sql`${t.status} in ('queued', 'running', 'paused')`),
    index('training_jobs_created_idx').on(t.createdAt),
    check('training_jobs_dataset_hash_format', sql`${t.datasetHash} ~ '^sha256:[0-9a-f]{64}$'`),
    check('training_jobs_epochs', sql`${t.totalEpochs} >= 1 and ${t.currentEpoch} >= 0 and ${t.checkpointEpoch} >= 0`),
  ],
);
