/** Module G's data access: append to the chain, read, and the few permitted updates. */
import { asc, desc, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../../infra/db/client.js';
import { registryTracks } from '../../infra/db/schema/index.js';
import { GENESIS_HASH, recordHash, type ChainedFields } from './hash-chain.js';

export type RegistryRow = typeof registryTracks.$inferSelect;
export type NewRegistryRecord = Omit<ChainedFields, 'prevHash'>;

/** Serialises appends across instances so that each record chains to exactly one predecessor. */
const APPEND_LOCK_KEY = 7_246_002;

export class RegistryRepository {
  constructor(private readonly db: Db) {}

  /** Appends a record; a second registration of the same generation returns the first one. */
  async append(record: NewRegistryRecord): Promise<RegistryRow> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${APPEND_LOCK_KEY})`);
      const [existing] = await tx.select().from(registryTracks).where(eq(registryTracks.generationId, record.generationId)).limit(1);
      if (existing) return existing;
      const [head] = await tx.select({ recordHash: registryTracks.recordHash }).from(registryTracks).orderBy(desc(registryTracks.seq)).limit(1);
      const chained: ChainedFields = { ...record, prevHash: head?.recordHash ?? GENESIS_HASH };
      const [row] = await tx
        .insert(registryTracks)
        .values({ ...chained, recordHash: recordHash(chained) })
        .returning();
      return row;
    });
  }

  async find(stationTrackId: string): Promise<RegistryRow | null> {
    const [row] = await this.db.select().from(registryTracks).where(eq(registryTracks.stationTrackId, stationTrackId)).limit(1);
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

  /** Records in chain order, a page at a time (verification and export stream through these). */
  async pageAfter(seq: number, limit: number): Promise<RegistryRow[]> {
    return this.db.select().from(registryTracks).where(gt(registryTracks.seq, seq)).orderBy(asc(registryTracks.seq)).limit(limit);
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
}
