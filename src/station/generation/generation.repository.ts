/** Module E's data access: generation jobs and their state machine, guarded by conditional updates. */
import { and, asc, count, desc, eq, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../infra/db/client.js';
import { generations } from '../../infra/db/schema/index.js';
import { idEq } from '../../infra/db/ids.js';

export type GenerationRow = typeof generations.$inferSelect;
export type NewGeneration = typeof generations.$inferInsert;
/** A job this call moved to its end state, with what its callback answered in that transaction. */
export type Settled<T> = { row: GenerationRow; raised: T };

/** Serialises the in-flight check and the insert, so concurrent requests cannot exceed the limit together. */
const ADMISSION_LOCK_KEY = 7_246_003;

export class GenerationRepository {
  constructor(private readonly db: Db) {}

  /** Inserts the job unless `limit` jobs are already pending or in progress; null when full. */
  async admit(row: NewGeneration, limit: number): Promise<GenerationRow | null> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${ADMISSION_LOCK_KEY})`);
      const [{ inFlight }] = await tx
        .select({ inFlight: sql<number>`count(*)::int` })
        .from(generations)
        .where(inArray(generations.status, ['pending', 'in_progress']));
      if (inFlight >= limit) return null;
      const [inserted] = await tx.insert(generations).values(row).returning();
      return inserted;
    });
  }

  async find(id: string): Promise<GenerationRow | null> {
    const [row] = await this.db.select().from(generations).where(idEq(generations.id, id)).limit(1);
    return row ?? null;
  }

  /** The state and title of the generations of these ids that exist (the radio's queue shows them). */
  async titlesOf(ids: string[]): Promise<Pick<GenerationRow, 'id' | 'status' | 'title'>[]> {
    return this.db.select({ id: generations.id, status: generations.status, title: generations.title }).from(generations).where(inArray(generations.id, ids));
  }

  /** Whether a generation of this id exists. */
  async exists(id: string): Promise<boolean> {
    const [row] = await this.db.select({ id: generations.id }).from(generations).where(idEq(generations.id, id)).limit(1);
    return row !== undefined;
  }

  /**
   * Whether a generation has completed yet ('complete'), else whether one is queued or rendering ('rendering'),
   * else 'none' (the radio waits for its first AI track while the answer is not 'complete').
   */
  async firstTrackOutlook(): Promise<'complete' | 'rendering' | 'none'> {
    const completed = await this.db.select({ id: generations.id }).from(generations).where(eq(generations.status, 'complete')).limit(1);
    if (completed.length > 0) return 'complete';
    const rendering = await this.db
      .select({ id: generations.id })
      .from(generations)
      .where(inArray(generations.status, ['pending', 'in_progress']))
      .limit(1);
    return rendering.length > 0 ? 'rendering' : 'none';
  }

  /**
   * The ids of a session's generations, as a subquery for the lyrics repository's `where ... in (...)`: module F
   * reads a session's latest lyrics in one query without reading this table itself.
   */
  sessionGenerationIds(sessionId: string) {
    return this.db.select({ id: generations.id }).from(generations).where(eq(generations.sessionId, sessionId));
  }

  /**
   * The generations made under each of these contexts, grouped by radio session (null: outside any session),
   * oldest session first: module D's context history reads them through module E's `contextSessions`.
   */
  async sessionsOfContexts(contextIds: string[]): Promise<{ contextId: string; sessionId: string | null; generations: number; firstAt: Date; lastAt: Date }[]> {
    if (contextIds.length === 0) return [];
    const rows = await this.db
      .select({
        contextId: generations.contextId,
        sessionId: generations.sessionId,
        generations: sql<number>`count(*)::int`,
        firstAt: sql<string>`min(${generations.createdAt})`,
        lastAt: sql<string>`max(${generations.createdAt})`,
      })
      .from(generations)
      .where(inArray(generations.contextId, contextIds))
      .groupBy(generations.contextId, generations.sessionId)
      .orderBy(sql`min(${generations.createdAt})`);
    return rows.map((r) => ({
      contextId: r.contextId as string,
      sessionId: r.sessionId,
      generations: r.generations,
      firstAt: new Date(r.firstAt),
      lastAt: new Date(r.lastAt),
    }));
  }

  /**
   * The ids of the radio sessions generations were made in, as a subquery: the registry's session list
   * (registry/sessions.repository.ts) unions them with its own in one statement.
   */
  generationSessionIds() {
    return this.db.select({ session_id: generations.sessionId }).from(generations).where(isNotNull(generations.sessionId));
  }

  /**
   * Each radio session's generations (columns session_id, complete, failed, first_at, last_at), as a subquery the
   * registry's session list joins in its one statement, so its page and totals agree.
   */
  sessionActivity() {
    return this.db
      .select({
        session_id: generations.sessionId,
        complete: sql`count(*) filter (where ${generations.status} = 'complete')`.as('complete'),
        failed: sql`count(*) filter (where ${generations.status} = 'failed')`.as('failed'),
        first_at: sql`min(${generations.createdAt})`.as('first_at'),
        last_at: sql`max(coalesce(${generations.completedAt}, ${generations.startedAt}, ${generations.createdAt}))`.as('last_at'),
      })
      .from(generations)
      .where(isNotNull(generations.sessionId))
      .groupBy(generations.sessionId);
  }

  /** pending -> in_progress; also takes over a job whose worker died (in progress for longer than staleMs). */
  /**
   * Takes a pending generation (or one in progress for longer than `staleMs`, or any in progress when
   * `takeOver`: the queue redelivered its job after the worker running it died).
   */
  async claim(id: string, now: Date, staleMs: number, takeOver = false): Promise<GenerationRow | null> {
    const staleBefore = new Date(now.getTime() - staleMs).toISOString();
    const [row] = await this.db
      .update(generations)
      .set({ status: 'in_progress', startedAt: now, progressPct: 0 })
      .where(
        and(
          eq(generations.id, id),
          // A job still waiting for its model is not runnable: the model waiter binds one and enqueues it.
          isNotNull(generations.modelVersion),
          or(
            eq(generations.status, 'pending'),
            and(eq(generations.status, 'in_progress'), takeOver ? undefined : lt(generations.startedAt, sql`${staleBefore}::timestamptz`)),
          ),
        ),
      )
      .returning();
    return row ?? null;
  }

  /** Pending jobs admitted before any production audio model existed, oldest first. */
  async waitingForModel(): Promise<GenerationRow[]> {
    return this.db
      .select()
      .from(generations)
      .where(and(eq(generations.status, 'pending'), isNull(generations.modelVersion)))
      .orderBy(asc(generations.createdAt), asc(generations.id));
  }

  /** Binds a waiting job to the model deployed now; null when another instance bound it or it was cancelled. */
  async bindModel(id: string, modelVersion: string, lyricsModelVersion: string | null, etaSeconds: number): Promise<GenerationRow | null> {
    const [row] = await this.db
      .update(generations)
      .set({ modelVersion, lyricsModelVersion, etaSeconds })
      .where(and(eq(generations.id, id), eq(generations.status, 'pending'), isNull(generations.modelVersion)))
      .returning();
    return row ?? null;
  }

  async setWaitingEta(ids: string[], etaSeconds: number | null): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .update(generations)
      .set({ etaSeconds })
      .where(and(inArray(generations.id, ids), eq(generations.status, 'pending'), isNull(generations.modelVersion)));
  }

  async progress(id: string, pct: number, etaSeconds: number): Promise<void> {
    await this.db
      .update(generations)
      .set({ progressPct: pct, etaSeconds })
      .where(and(eq(generations.id, id), eq(generations.status, 'in_progress')));
  }

  /**
   * in_progress -> complete. `onCompleted` runs in the same transaction when this call completed it, so that
   * what it records (station.track.generation_complete in the webhooks' outbox) commits with the row.
   */
  async complete<T>(id: string, fields: Partial<NewGeneration>, onCompleted: (tx: DbOrTx, row: GenerationRow) => Promise<T>): Promise<Settled<T> | null> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(generations)
        .set({ ...fields, status: 'complete', progressPct: 100, etaSeconds: 0 })
        .where(and(eq(generations.id, id), eq(generations.status, 'in_progress')))
        .returning();
      return row ? { row, raised: await onCompleted(tx, row) } : null;
    });
  }

  /** pending or in_progress -> failed; `onFailed` as complete's `onCompleted` (station.track.generation_failed, station.safety.flag_raised). */
  async fail<T>(
    id: string,
    errorCode: string,
    message: string,
    completedAt: Date,
    extra: Partial<NewGeneration>,
    onFailed: (tx: DbOrTx, row: GenerationRow) => Promise<T>,
  ): Promise<Settled<T> | null> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(generations)
        .set({ ...extra, status: 'failed', errorCode, errorMessage: message, completedAt })
        .where(and(eq(generations.id, id), inArray(generations.status, ['pending', 'in_progress'])))
        .returning();
      return row ? { row, raised: await onFailed(tx, row) } : null;
    });
  }

  /**
   * Fails a job only while it still waits for its model: an instance that bound it a moment ago has
   * started it, and that run's outcome is the job's. null when it no longer waits.
   */
  async failWaiting<T>(
    id: string,
    errorCode: string,
    message: string,
    completedAt: Date,
    onFailed: (tx: DbOrTx, row: GenerationRow) => Promise<T>,
  ): Promise<Settled<T> | null> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(generations)
        .set({ status: 'failed', errorCode, errorMessage: message, completedAt })
        .where(and(eq(generations.id, id), eq(generations.status, 'pending'), isNull(generations.modelVersion)))
        .returning();
      return row ? { row, raised: await onFailed(tx, row) } : null;
    });
  }

  /** pending -> cancelled; null when the job is not pending (any more). */
  async cancel(id: string, at: Date): Promise<GenerationRow | null> {
    const [row] = await this.db
      .update(generations)
      .set({ status: 'cancelled', completedAt: at })
      .where(and(idEq(generations.id, id), eq(generations.status, 'pending')))
      .returning();
    return row ?? null;
  }

  /** Generations pending or in progress (module A's status shows the depth of the queue). */
  async queueDepth(): Promise<number> {
    const [{ n }] = await this.db
      .select({ n: count() })
      .from(generations)
      .where(inArray(generations.status, ['pending', 'in_progress']));
    return Number(n);
  }

  async inFlight(): Promise<GenerationRow[]> {
    return this.db
      .select()
      .from(generations)
      .where(inArray(generations.status, ['pending', 'in_progress']))
      .orderBy(asc(generations.createdAt), asc(generations.id));
  }

  /** Wall times of recent successful generations, to estimate waits. */
  async recentRenderStats(limit = 20): Promise<{ wallMs: number; durationSec: number }[]> {
    const rows = await this.db
      .select({ startedAt: generations.startedAt, completedAt: generations.completedAt, durationSec: generations.durationSec })
      .from(generations)
      .where(and(eq(generations.status, 'complete'), isNotNull(generations.startedAt), isNotNull(generations.completedAt)))
      .orderBy(desc(generations.completedAt))
      .limit(limit);
    return rows.map((r) => ({ wallMs: r.completedAt!.getTime() - r.startedAt!.getTime(), durationSec: r.durationSec ?? 0 }));
  }

  /** The generation started to replace this one (a safety block's new seed), if any. */
  async replacementOf(id: string): Promise<GenerationRow | null> {
    const [row] = await this.db.select().from(generations).where(eq(generations.regeneratedFrom, id)).orderBy(desc(generations.createdAt)).limit(1);
    return row ?? null;
  }

  /** After a restart: jobs that were running lost their worker; put them back to pending. */
  /**
   * Pending generations to queue again at start. With `resetRunning` (one process, an in-process queue: jobs
   * in progress died with the last process) those in progress count as pending; with a shared queue another
   * worker may be running them, and BullMQ redelivers a dead worker's job by itself.
   */
  async requeueInterrupted(resetRunning = true): Promise<string[]> {
    if (resetRunning)
      await this.db.update(generations).set({ status: 'pending', startedAt: null, progressPct: 0 }).where(eq(generations.status, 'in_progress'));
    const rows = await this.db.select({ id: generations.id }).from(generations).where(eq(generations.status, 'pending')).orderBy(asc(generations.createdAt));
    return rows.map((r) => r.id);
  }
}
