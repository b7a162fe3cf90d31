/** Module G's data access: append to the chain, read, and the few permitted updates. */
import { and, asc, count, desc, eq, gt, gte, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../infra/db/client.js';
import { idEq } from '../../infra/db/ids.js';
import { registryTracks, safetyFlags } from '../../infra/db/schema/index.js';
import { GENESIS_HASH, recordHash, type ChainedFields } from './hash-chain.js';

export type RegistryRow = typeof registryTracks.$inferSelect;
export type NewRegistryRecord = Omit<ChainedFields, 'prevHash'>;
export type SafetyFlagRow = typeof safetyFlags.$inferSelect;

/** Serialises appends across instances so that each record chains to exactly one predecessor. */
const APPEND_LOCK_KEY = 7_246_002;

/** generated_at bounds: `from` inclusive, `to` exclusive (a date-only upper bound already points at the next day). */
export interface GeneratedRange {
  from?: Date;
  to?: Date;
}

export interface RegistryFilter extends GeneratedRange {
  sessionId?: string;
  modelVersion?: string;
  reuseEligible?: boolean;
  flagForReview?: boolean;
}

function rangeConditions(range: GeneratedRange): SQL[] {
  const conditions: SQL[] = [];
  if (range.from) conditions.push(gte(registryTracks.generatedAt, range.from));
  if (range.to) conditions.push(lt(registryTracks.generatedAt, range.to));
  return conditions;
}

export class RegistryRepository {
  constructor(private readonly db: Db) {}

  /** Appends a record; a second registration of the same generation returns the first one. */
  async append(record: NewRegistryRecord): Promise<RegistryRow> {
    return (await this.appendOrGet(record)).row;
  }

  /** As append, and says whether this call created the record (idempotent registration answers 201 or 200). */
  async appendOrGet(record: NewRegistryRecord): Promise<{ row: RegistryRow; created: boolean }> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${APPEND_LOCK_KEY})`);
      const [existing] = await tx.select().from(registryTracks).where(eq(registryTracks.generationId, record.generationId)).limit(1);
      if (existing) return { row: existing, created: false };
      const [head] = await tx.select({ recordHash: registryTracks.recordHash }).from(registryTracks).orderBy(desc(registryTracks.seq)).limit(1);
      const chained: ChainedFields = { ...record, prevHash: head?.recordHash ?? GENESIS_HASH };
      const [row] = await tx
        .insert(registryTracks)
        .values({ ...chained, recordHash: recordHash(chained) })
        .returning();
      return { row, created: true };
    });
  }

  async find(stationTrackId: string): Promise<RegistryRow | null> {
    const [row] = await this.db.select().from(registryTracks).where(eq(registryTracks.stationTrackId, stationTrackId)).limit(1);
    return row ?? null;
  }

  async findByGeneration(generationId: string): Promise<RegistryRow | null> {
    const [row] = await this.db.select().from(registryTracks).where(idEq(registryTracks.generationId, generationId)).limit(1);
    return row ?? null;
  }

  async head(): Promise<{ seq: number; recordHash: string } | null> {
    const [row] = await this.db
      .select({ seq: registryTracks.seq, recordHash: registryTracks.recordHash })
      .from(registryTracks)
      .orderBy(desc(registryTracks.seq))
      .limit(1);
    return row ?? null;
  }

  /** The last record and the number of records, read in one statement (so one snapshot): null while empty. */
  async headWithCount(): Promise<{ seq: number; recordHash: string; count: number } | null> {
    const [row] = await this.db
      .select({ seq: registryTracks.seq, recordHash: registryTracks.recordHash, count: sql<number | string>`(select count(*) from ${registryTracks})` })
      .from(registryTracks)
      .orderBy(desc(registryTracks.seq))
      .limit(1);
    return row ? { seq: row.seq, recordHash: row.recordHash, count: Number(row.count) } : null;
  }

  /**
   * Records in chain order, a page at a time (verification and export stream through these), optionally
   * only up to `untilSeq` (a snapshot of the head) and within a generated_at range.
   */
  async pageAfter(seq: number, limit: number, options: GeneratedRange & { untilSeq?: number } = {}): Promise<RegistryRow[]> {
    const conditions = [gt(registryTracks.seq, seq), ...rangeConditions(options)];
    if (options.untilSeq !== undefined) conditions.push(lte(registryTracks.seq, options.untilSeq));
    return this.db
      .select()
      .from(registryTracks)
      .where(and(...conditions))
      .orderBy(asc(registryTracks.seq))
      .limit(limit);
  }

  /** Newest first. */
  async list(filter: RegistryFilter, limit: number, offset: number): Promise<{ rows: RegistryRow[]; total: number }> {
    const conditions = rangeConditions(filter);
    if (filter.sessionId !== undefined) conditions.push(eq(registryTracks.sessionId, filter.sessionId));
    if (filter.modelVersion !== undefined) conditions.push(eq(registryTracks.modelVersion, filter.modelVersion));
    if (filter.reuseEligible !== undefined) conditions.push(eq(registryTracks.reuseEligible, filter.reuseEligible));
    if (filter.flagForReview !== undefined) conditions.push(eq(registryTracks.flagForReview, filter.flagForReview));
    const where = conditions.length > 0 ? and(...conditions) : undefined;
    const [rows, [{ total }]] = await Promise.all([
      this.db.select().from(registryTracks).where(where).orderBy(desc(registryTracks.generatedAt), desc(registryTracks.seq)).limit(limit).offset(offset),
      this.db.select({ total: count() }).from(registryTracks).where(where),
    ]);
    return { rows, total };
  }

  async countPlayback(stationTrackId: string, playedAt: Date): Promise<RegistryRow | null> {
    const [row] = await this.db
      .update(registryTracks)
      .set({
        playbackCount: sql`${registryTracks.playbackCount} + 1`,
        firstPlayedAt: sql`coalesce(${registryTracks.firstPlayedAt}, ${playedAt.toISOString()}::timestamptz)`,
      })
      .where(eq(registryTracks.stationTrackId, stationTrackId))
      .returning();
    return row ?? null;
  }

  async safetyFlagsOf(stationTrackId: string): Promise<SafetyFlagRow[]> {
    return this.db.select().from(safetyFlags).where(eq(safetyFlags.stationTrackId, stationTrackId)).orderBy(asc(safetyFlags.createdAt));
  }

  /** Records a safety flag (the generation pipeline's withheld verdicts go through RegistryService.raiseSafetyFlag). */
  async insertSafetyFlag(values: typeof safetyFlags.$inferInsert): Promise<void> {
    await this.db.insert(safetyFlags).values(values);
  }

  /** Safety flags raised since `since` (module A's status counts them). */
  async safetyFlagsSince(since: Date): Promise<number> {
    const [{ n }] = await this.db.select({ n: count() }).from(safetyFlags).where(gte(safetyFlags.createdAt, since));
    return Number(n);
  }

  async safetyFlagsOfGeneration(generationId: string): Promise<SafetyFlagRow[]> {
    return this.db.select().from(safetyFlags).where(eq(safetyFlags.generationId, generationId)).orderBy(asc(safetyFlags.createdAt));
  }

  /** Station-wide totals for the transparency statement. */
  async totals(): Promise<{ generated: number; played: number; plays: number }> {
    const [row] = await this.db
      .select({
        generated: count(),
        played: sql<number | string>`count(*) filter (where ${registryTracks.playbackCount} > 0)`,
        plays: sql<number | string>`coalesce(sum(${registryTracks.playbackCount}), 0)`,
      })
      .from(registryTracks);
    return { generated: Number(row.generated), played: Number(row.played), plays: Number(row.plays) };
  }
}
