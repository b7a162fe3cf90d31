/**
 * Module B's queries: the configuration record, per-artist statuses and their audit trail, snapshots. The
 * catalog's rows (artists, tracks, lyrics, credits, stored features) are read through the catalog's ports, in
 * this repository's handle, so that inside transaction() they are read in the same transaction.
 */
import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { AudioFeatures, LyricsDocument } from '../../engine/types.js';
import type { DbOrTx } from '../../infra/db/client.js';
import { idEq, isUuid } from '../../infra/db/ids.js';
import { datasetArtistAudit, datasetArtistStatus, datasetConfig, datasetSnapshots } from '../../infra/db/schema/index.js';
import type { DatasetCatalogReads, LyricCheckRow, TrackCheckRow } from './catalog-reads.js';
import type { ArtistOverride, CatalogArtist, CatalogSnapshot } from './eligibility.js';
import type { ArtistStatus } from './schemas.js';
import { loadLyricRows, type TrainingCatalog } from './training-data.js';

export type DatasetConfigRow = typeof datasetConfig.$inferSelect;
export type DatasetConfigChange = Partial<Omit<DatasetConfigRow, 'id' | 'updatedAt'>>;
export type DatasetSnapshotRow = typeof datasetSnapshots.$inferSelect;
export type ArtistAuditRow = typeof datasetArtistAudit.$inferSelect;

const CHUNK = 500;

function chunks<T>(values: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < values.length; i += CHUNK) out.push(values.slice(i, i + CHUNK));
  return out;
}

export class DatasetRepository {
  constructor(
    private readonly db: DbOrTx,
    /** The catalog's read port: lyrics as the training loader reads them (read in this repository's transaction). */
    private readonly catalogReads: TrainingCatalog,
    /** The catalog's read port for this module: the rows the eligibility and the validation judge, stored features. */
    private readonly catalogRows: DatasetCatalogReads,
  ) {}

  /** Runs `work` in one transaction with a repository bound to it. */
  transaction<T>(work: (repo: DatasetRepository) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(new DatasetRepository(tx, this.catalogReads, this.catalogRows)));
  }

  /** The record, created with its defaults the first time it is read. */
  async config(): Promise<DatasetConfigRow> {
    const [row] = await this.db.select().from(datasetConfig).where(eq(datasetConfig.id, 1)).limit(1);
    if (row) return row;
    await this.db.insert(datasetConfig).values({ id: 1 }).onConflictDoNothing();
    const [created] = await this.db.select().from(datasetConfig).where(eq(datasetConfig.id, 1)).limit(1);
    return created;
  }

  /**
   * The record under a row lock (call inside transaction()): configuration changes, per-artist changes and
   * snapshots all take it, so a snapshot never mixes a configuration with items computed from another.
   */
  async lockConfig(): Promise<DatasetConfigRow> {
    await this.db.insert(datasetConfig).values({ id: 1 }).onConflictDoNothing();
    const [row] = await this.db.select().from(datasetConfig).where(eq(datasetConfig.id, 1)).for('update');
    return row;
  }

  async updateConfig(change: DatasetConfigChange): Promise<DatasetConfigRow> {
    const [row] = await this.db
      .update(datasetConfig)
      .set({ ...change, updatedAt: sql`now()` })
      .where(eq(datasetConfig.id, 1))
      .returning();
    return row;
  }

  async overrides(): Promise<ArtistOverride[]> {
    const rows = await this.db.select().from(datasetArtistStatus).orderBy(asc(datasetArtistStatus.artistId));
    return rows.map((r) => ({ artistId: r.artistId, status: r.status as ArtistStatus, reason: r.reason }));
  }

  /** The live artists among these ids, read through the catalog's port in this repository's handle. */
  async artistsByIds(ids: string[]): Promise<CatalogArtist[]> {
    return this.catalogRows.liveArtists(ids, this.db);
  }

  /**
   * Every catalog row the eligibility rules look at (the live catalog's), read through the catalog's port in this
   * repository's handle: inside transaction(), a snapshot's transaction.
   */
  async catalog(): Promise<CatalogSnapshot> {
    return this.catalogRows.eligibilityCatalog(this.db);
  }

  async setArtistStatus(change: {
    artistId: string;
    oldStatus: ArtistStatus;
    status: ArtistStatus;
    reason: string;
    by: string | null;
    at: Date;
  }): Promise<ArtistAuditRow> {
    const values = { artistId: change.artistId, status: change.status, reason: change.reason, changedBy: change.by, changedAt: change.at };
    await this.db
      .insert(datasetArtistStatus)
      .values(values)
      .onConflictDoUpdate({
        target: datasetArtistStatus.artistId,
        set: { status: values.status, reason: values.reason, changedBy: values.changedBy, changedAt: values.changedAt },
      });
    const [audit] = await this.db
      .insert(datasetArtistAudit)
      .values({
        artistId: change.artistId,
        oldStatus: change.oldStatus,
        newStatus: change.status,
        reason: change.reason,
        changedBy: change.by,
        changedAt: change.at,
      })
      .returning();
    return audit;
  }

  /** An artist's explicit status, or null when none was ever set. */
  async explicitStatus(artistId: string): Promise<ArtistStatus | null> {
    const [row] = await this.db.select({ status: datasetArtistStatus.status }).from(datasetArtistStatus).where(idEq(datasetArtistStatus.artistId, artistId));
    return (row?.status as ArtistStatus | undefined) ?? null;
  }

  /** The latest audit entry of each given artist. */
  async lastChanges(artistIds: string[]): Promise<Map<string, ArtistAuditRow>> {
    const out = new Map<string, ArtistAuditRow>();
    for (const part of chunks(artistIds.filter(isUuid))) {
      const rows = await this.db
        .selectDistinctOn([datasetArtistAudit.artistId])
        .from(datasetArtistAudit)
        .where(inArray(datasetArtistAudit.artistId, part))
        .orderBy(asc(datasetArtistAudit.artistId), desc(datasetArtistAudit.id));
      for (const row of rows) out.set(row.artistId, row);
    }
    return out;
  }

  async auditTrail(artistId: string): Promise<ArtistAuditRow[]> {
    return this.db.select().from(datasetArtistAudit).where(eq(datasetArtistAudit.artistId, artistId)).orderBy(asc(datasetArtistAudit.id));
  }

  /** Stored style features of these tracks, by track id (the catalog's port, in this repository's handle). */
  async featuresOf(trackIds: string[]): Promise<Map<string, AudioFeatures>> {
    return this.catalogRows.featuresOf(trackIds, this.db);
  }

  /** Lyrics as the training loader reads them (platform songwriters and artists only), by lyric id. */
  async lyricDocuments(lyricIds: string[]): Promise<Map<string, LyricsDocument>> {
    const out = new Map<string, LyricsDocument>();
    for (const part of chunks(lyricIds)) for (const row of await loadLyricRows(this.catalogReads, part, this.db)) out.set(row.lyricId, row.document);
    return out;
  }

  /** Style features of every live master by an artist that is not platform-owned (third-party audio). */
  async nonPlatformFeatures(): Promise<{ id: string; title: string; features: AudioFeatures }[]> {
    return this.catalogRows.thirdPartyFeatures(this.db);
  }

  async tracksForCheck(trackIds: string[]): Promise<TrackCheckRow[]> {
    return this.catalogRows.tracksToValidate(trackIds, this.db);
  }

  async lyricsForCheck(lyricIds: string[]): Promise<LyricCheckRow[]> {
    return this.catalogRows.lyricsToValidate(lyricIds, this.db);
  }

  async insertSnapshot(values: typeof datasetSnapshots.$inferInsert): Promise<DatasetSnapshotRow> {
    const [row] = await this.db.insert(datasetSnapshots).values(values).returning();
    return row;
  }

  async listSnapshots(page: { offset: number; limit: number }): Promise<{ rows: DatasetSnapshotRow[]; total: number }> {
    const [rows, [{ total }]] = await Promise.all([
      this.db.select().from(datasetSnapshots).orderBy(desc(datasetSnapshots.createdAt), desc(datasetSnapshots.id)).limit(page.limit).offset(page.offset),
      this.db.select({ total: count() }).from(datasetSnapshots),
    ]);
    return { rows, total };
  }

  async snapshot(id: string): Promise<DatasetSnapshotRow | null> {
    if (!isUuid(id)) return null;
    const [row] = await this.db
      .select()
      .from(datasetSnapshots)
      .where(and(eq(datasetSnapshots.id, id)))
      .limit(1);
    return row ?? null;
  }
}
