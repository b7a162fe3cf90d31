/**
 * Module C's data access: training jobs and their state machine. Every transition is one conditional
 * UPDATE (... WHERE status = <from>), so two instances, or a request racing the worker, cannot both win.
 *
 * DELETE is "cancelled and deleted" for the API, but no row is removed: the job becomes status cancelled
 * with deleted_at set, which every read the API makes (`findVisible`, `list`) leaves out. The row stays as
 * the audit trail (what ran, on which snapshot, how far, why it failed), and the model versions earlier
 * jobs produced keep their lineage.
 */
import { and, asc, count, desc, eq, inArray, isNotNull, isNull, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../infra/db/client.js';
import { trainingJobs, type LossCurvePoint } from '../../infra/db/schema/index.js';
import { idEq, isUuid } from '../../infra/db/ids.js';
import { isUniqueViolation } from '../../infra/db/errors.js';

export type TrainingJobRow = typeof trainingJobs.$inferSelect;
export type NewTrainingJob = typeof trainingJobs.$inferInsert;
export type TrainingJobStatus = TrainingJobRow['status'];
export type JobModelType = TrainingJobRow['modelType'];

const ACTIVE: TrainingJobStatus[] = ['queued', 'running', 'paused'];

/** Ids per IN list when many snapshots are asked about at once. */
const SNAPSHOT_CHUNK = 500;

/** A job as module B's snapshot list shows it. */
export interface SnapshotRun {
  job_id: string;
  model_type: string;
  status: string;
}

export interface EpochUpdate {
  point: LossCurvePoint;
  totalEpochs: number;
  etaSeconds: number;
  epochSeconds: number;
  cpuUtilizationPct: number | null;
}

export class TrainingJobsRepository {
  constructor(private readonly db: Db) {}

  /** Inserts a queued job; null when a job of that type is already queued, running or paused. */
  async insert(row: NewTrainingJob): Promise<TrainingJobRow | null> {
    try {
      const [inserted] = await this.db.insert(trainingJobs).values(row).returning();
      return inserted;
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }

  /** Any row, deleted ones included (the worker's view). */
  async find(id: string): Promise<TrainingJobRow | null> {
    const [row] = await this.db.select().from(trainingJobs).where(idEq(trainingJobs.id, id)).limit(1);
    return row ?? null;
  }

  /** A job the API may show: null for an unknown id and for a deleted (cancelled) job alike. */
  async findVisible(id: string): Promise<TrainingJobRow | null> {
    const [row] = await this.db
      .select()
      .from(trainingJobs)
      .where(and(idEq(trainingJobs.id, id), isNull(trainingJobs.deletedAt)))
      .limit(1);
    return row ?? null;
  }

  async activeOfType(type: JobModelType): Promise<TrainingJobRow | null> {
    const [row] = await this.db
      .select()
      .from(trainingJobs)
      .where(and(eq(trainingJobs.modelType, type), inArray(trainingJobs.status, ACTIVE)))
      .limit(1);
    return row ?? null;
  }

  async list(filter: { type?: JobModelType; status?: TrainingJobStatus }, limit: number, offset: number) {
    const conditions: SQL[] = [isNull(trainingJobs.deletedAt)];
    if (filter.type) conditions.push(eq(trainingJobs.modelType, filter.type));
    if (filter.status) conditions.push(eq(trainingJobs.status, filter.status));
    const where = and(...conditions);
    const [rows, [{ total }]] = await Promise.all([
      this.db.select().from(trainingJobs).where(where).orderBy(desc(trainingJobs.createdAt), desc(trainingJobs.id)).limit(limit).offset(offset),
      this.db.select({ total: count() }).from(trainingJobs).where(where),
    ]);
    return { rows, total };
  }

  /**
   * queued -> running for this worker; also takes over a running job whose worker stopped beating. The loss
   * curve is cut back to the last checkpoint: epochs after it were lost with the worker and run again.
   */
  async claim(id: string, workerId: string, now: Date, staleBefore: Date, draft: string): Promise<TrainingJobRow | null> {
    const t = trainingJobs;
    const [row] = await this.db
      .update(t)
      .set({
        status: 'running',
        workerId,
        heartbeatAt: now,
        updatedAt: now,
        startedAt: sql`coalesce(${t.startedAt}, ${now.toISOString()}::timestamptz)`,
        modelVersionDraft: sql`coalesce(${t.modelVersionDraft}, ${draft})`,
        restarts: sql`${t.restarts} + (case when ${t.status} = 'running' then 1 else 0 end)`,
        currentEpoch: sql`${t.checkpointEpoch}`,
        lossCurve: sql`coalesce((select jsonb_agg(e order by (e->>'epoch')::int) from jsonb_array_elements(${t.lossCurve}) e where (e->>'epoch')::int <= ${t.checkpointEpoch}), '[]'::jsonb)`,
        pausedAt: null,
      })
      .where(and(eq(t.id, id), or(eq(t.status, 'queued'), and(eq(t.status, 'running'), lt(t.heartbeatAt, sql`${staleBefore.toISOString()}::timestamptz`)))))
      .returning();
    return row ?? null;
  }

  /** The worker's poll: refreshes its heartbeat and reads what the API asked for. */
  async beat(id: string, workerId: string, now: Date): Promise<Pick<TrainingJobRow, 'status' | 'pauseRequested' | 'cancelRequested'> | null> {
    const [row] = await this.db
      .update(trainingJobs)
      .set({ heartbeatAt: now })
      .where(and(eq(trainingJobs.id, id), eq(trainingJobs.workerId, workerId)))
      .returning({ status: trainingJobs.status, pauseRequested: trainingJobs.pauseRequested, cancelRequested: trainingJobs.cancelRequested });
    return row ?? null;
  }

  async recordEpoch(id: string, workerId: string, update: EpochUpdate, now: Date): Promise<void> {
    const t = trainingJobs;
    const { point } = update;
    await this.db
      .update(t)
      .set({
        currentEpoch: point.epoch,
        progressPct: Math.min(100, Math.floor((point.epoch / update.totalEpochs) * 100)),
        currentLoss: point.loss,
        heldOutLoss: point.held_out_loss,
        perplexity: point.perplexity,
        etaSeconds: update.etaSeconds,
        epochSeconds: update.epochSeconds,
        cpuUtilizationPct: update.cpuUtilizationPct,
        lossCurve: sql`${t.lossCurve} || ${JSON.stringify([point])}::jsonb`,
        heartbeatAt: now,
        updatedAt: now,
      })
      .where(and(eq(t.id, id), eq(t.workerId, workerId), inArray(t.status, ['running', 'cancelled'])));
  }

  /** Records a checkpoint already in blob storage; answers the key it replaced (to delete). */
  async recordCheckpoint(id: string, workerId: string, key: string, epoch: number, now: Date): Promise<string | null> {
    const t = trainingJobs;
    const previous = await this.db.select({ key: t.checkpointBlobKey }).from(t).where(eq(t.id, id)).limit(1);
    const updated = await this.db
      .update(t)
      .set({ checkpointBlobKey: key, checkpointEpoch: epoch, heartbeatAt: now, updatedAt: now })
      .where(and(eq(t.id, id), eq(t.workerId, workerId)))
      .returning({ id: t.id });
    if (updated.length === 0) throw new Error(`training job ${id} is no longer held by this worker`);
    const old = previous[0]?.key ?? null;
    return old !== key ? old : null;
  }

  /**
   * running -> completed by this worker. `onSettled` runs in the same transaction when this call completed it,
   * so that what it records (station.training.job_completed in the webhooks' outbox) commits with the row;
   * fail() likewise (job_failed).
   */
  async complete<T>(
    id: string,
    workerId: string,
    modelVersionId: string,
    now: Date,
    onSettled: (tx: DbOrTx, row: TrainingJobRow) => Promise<T>,
  ): Promise<{ row: TrainingJobRow; raised: T } | null> {
    const done = {
      status: 'completed',
      modelVersionId,
      progressPct: 100,
      etaSeconds: 0,
      pauseRequested: false,
      checkpointBlobKey: null,
      completedAt: now,
      updatedAt: now,
    } as const;
    return this.settle(id, workerId, done, onSettled);
  }

  async fail<T>(
    id: string,
    workerId: string,
    stage: string,
    message: string,
    now: Date,
    onSettled: (tx: DbOrTx, row: TrainingJobRow) => Promise<T>,
  ): Promise<{ row: TrainingJobRow; raised: T } | null> {
    const failed = {
      status: 'failed',
      errorStage: stage,
      errorMessage: message,
      etaSeconds: null,
      pauseRequested: false,
      completedAt: now,
      updatedAt: now,
    } as const;
    return this.settle(id, workerId, failed, onSettled);
  }

  /** Ends this worker's running job with `change`, and runs `onSettled` in the same transaction if it did. */
  private settle<T>(
    id: string,
    workerId: string,
    change: Partial<typeof trainingJobs.$inferInsert>,
    onSettled: (tx: DbOrTx, row: TrainingJobRow) => Promise<T>,
  ): Promise<{ row: TrainingJobRow; raised: T } | null> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(trainingJobs)
        .set(change)
        .where(and(eq(trainingJobs.id, id), eq(trainingJobs.workerId, workerId), eq(trainingJobs.status, 'running')))
        .returning();
      return row ? { row, raised: await onSettled(tx, row) } : null;
    });
  }

  /** running -> paused, once the worker stopped at its checkpoint. */
  async markPaused(id: string, workerId: string, now: Date): Promise<TrainingJobRow | null> {
    const [row] = await this.db
      .update(trainingJobs)
      .set({ status: 'paused', pauseRequested: false, pausedAt: now, etaSeconds: null, workerId: null, updatedAt: now })
      .where(and(eq(trainingJobs.id, id), eq(trainingJobs.workerId, workerId), eq(trainingJobs.status, 'running')))
      .returning();
    return row ?? null;
  }

  /** running -> queued: this worker gives the job up (shutdown, crashed engine worker); the checkpoint stays. */
  async release(id: string, workerId: string, now: Date, countRestart: boolean): Promise<boolean> {
    const t = trainingJobs;
    const rows = await this.db
      .update(t)
      .set({ status: 'queued', workerId: null, heartbeatAt: null, updatedAt: now, restarts: sql`${t.restarts} + ${countRestart ? 1 : 0}` })
      .where(and(eq(t.id, id), eq(t.workerId, workerId), eq(t.status, 'running')))
      .returning({ id: t.id });
    return rows.length > 0;
  }

  /** Sets pause_requested on a running job. */
  async requestPause(id: string, now: Date): Promise<TrainingJobRow | null> {
    const [row] = await this.db
      .update(trainingJobs)
      .set({ pauseRequested: true, updatedAt: now })
      .where(and(eq(trainingJobs.id, id), eq(trainingJobs.status, 'running')))
      .returning();
    return row ?? null;
  }

  /** paused -> queued (the worker resumes from the checkpoint); or, before the pause took effect, withdraws it. */
  async resume(id: string, now: Date): Promise<TrainingJobRow | null> {
    const t = trainingJobs;
    const [row] = await this.db
      .update(t)
      .set({ status: sql`case when ${t.status} = 'paused' then 'queued'::training_job_status else ${t.status} end`, pauseRequested: false, updatedAt: now })
      .where(and(eq(t.id, id), or(eq(t.status, 'paused'), and(eq(t.status, 'running'), eq(t.pauseRequested, true)))))
      .returning();
    return row ?? null;
  }

  /**
   * DELETE of a running job: cancelled and deleted for the API at once; its worker sees the cancel at its next
   * check, stops, and lets the row go (`releaseCancelled`).
   */
  async requestCancel(id: string, now: Date): Promise<TrainingJobRow | null> {
    const [row] = await this.db
      .update(trainingJobs)
      .set({ status: 'cancelled', cancelRequested: true, pauseRequested: false, etaSeconds: null, deletedAt: now, updatedAt: now })
      .where(and(eq(trainingJobs.id, id), eq(trainingJobs.status, 'running'), isNull(trainingJobs.deletedAt)))
      .returning();
    return row ?? null;
  }

  /**
   * DELETE of a job no worker holds (queued, paused, failed): cancelled and deleted at once. null when it is
   * running, completed or already deleted. The checkpoint key stays in the row for the record; the caller
   * deletes the blob.
   */
  async deleteIdle(id: string, now: Date): Promise<TrainingJobRow | null> {
    const t = trainingJobs;
    const [row] = await this.db
      .update(t)
      .set({
        status: 'cancelled',
        cancelRequested: true,
        pauseRequested: false,
        etaSeconds: null,
        workerId: null,
        heartbeatAt: null,
        deletedAt: now,
        updatedAt: now,
      })
      .where(and(eq(t.id, id), inArray(t.status, ['queued', 'paused', 'failed']), isNull(t.deletedAt)))
      .returning();
    return row ?? null;
  }

  /**
   * Running jobs whose worker stopped beating go back to the queue; cancelled ones whose worker died before
   * letting them go are let go here, and their checkpoints answered for deletion.
   */
  async recoverStale(staleBefore: Date, now: Date): Promise<{ requeued: string[]; orphanCheckpoints: string[] }> {
    const t = trainingJobs;
    const stale = sql`${staleBefore.toISOString()}::timestamptz`;
    await this.db
      .update(t)
      .set({ status: 'queued', workerId: null, heartbeatAt: null, restarts: sql`${t.restarts} + 1`, updatedAt: now })
      .where(and(eq(t.status, 'running'), or(lt(t.heartbeatAt, stale), sql`${t.heartbeatAt} is null`)));
    const dropped = await this.db
      .update(t)
      .set({ workerId: null, heartbeatAt: null, updatedAt: now })
      .where(and(eq(t.status, 'cancelled'), isNotNull(t.workerId), or(lt(t.heartbeatAt, stale), sql`${t.heartbeatAt} is null`)))
      .returning({ key: t.checkpointBlobKey });
    const queued = await this.db.select({ id: t.id }).from(t).where(eq(t.status, 'queued')).orderBy(t.createdAt);
    return { requeued: queued.map((r) => r.id), orphanCheckpoints: dropped.map((r) => r.key).filter((k): k is string => k !== null) };
  }

  /** The worker of a cancelled job stopped: it lets the row go (kept, deleted for the API, as the audit trail). */
  async releaseCancelled(id: string, workerId: string, now: Date): Promise<TrainingJobRow | null> {
    const t = trainingJobs;
    const [row] = await this.db
      .update(t)
      .set({ workerId: null, heartbeatAt: null, updatedAt: now })
      .where(and(eq(t.id, id), eq(t.workerId, workerId), eq(t.status, 'cancelled')))
      .returning();
    return row ?? null;
  }

  /** The jobs that used each snapshot, oldest first (a cancelled job is on its way out and not listed). */
  async runsForSnapshots(snapshotIds: string[]): Promise<Map<string, SnapshotRun[]>> {
    const out = new Map<string, SnapshotRun[]>();
    const ids = snapshotIds.filter(isUuid);
    for (let i = 0; i < ids.length; i += SNAPSHOT_CHUNK) {
      const rows = await this.db
        .select({ jobId: trainingJobs.id, snapshotId: trainingJobs.snapshotId, modelType: trainingJobs.modelType, status: trainingJobs.status })
        .from(trainingJobs)
        .where(and(inArray(trainingJobs.snapshotId, ids.slice(i, i + SNAPSHOT_CHUNK)), ne(trainingJobs.status, 'cancelled')))
        .orderBy(asc(trainingJobs.createdAt), asc(trainingJobs.id));
      for (const row of rows)
        out.set(row.snapshotId, [...(out.get(row.snapshotId) ?? []), { job_id: row.jobId, model_type: row.modelType, status: row.status }]);
    }
    return out;
  }

  /** running (or queued) > paused > failed (if the latest finished job failed) > idle. */
  async stationStatus(): Promise<'idle' | 'running' | 'paused' | 'failed'> {
    const t = trainingJobs;
    // A queued job is about to run (or resumes). A cancelled job is deleted: it counts for nothing.
    const active = await this.db
      .select({ status: t.status })
      .from(t)
      .where(inArray(t.status, ['running', 'paused', 'queued']));
    if (active.some((r) => r.status !== 'paused')) return 'running';
    if (active.some((r) => r.status === 'paused')) return 'paused';
    const [latest] = await this.db
      .select({ status: t.status })
      .from(t)
      .where(and(inArray(t.status, ['completed', 'failed']), isNotNull(t.completedAt)))
      .orderBy(desc(t.completedAt))
      .limit(1);
    return latest?.status === 'failed' ? 'failed' : 'idle';
  }
}
