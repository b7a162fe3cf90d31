/** Module B's queries: the configuration record, per-artist statuses and their audit trail, catalog rows, snapshots. */
import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { AudioFeatures, LyricsDocument } from '../../engine/types.js';
import type { DbOrTx } from '../../infra/db/client.js';
import { isUuid } from '../../infra/db/ids.js';
import {
  artists,
  datasetArtistAudit,
  datasetArtistStatus,
  datasetConfig,
  datasetSnapshots,
  lyrics,
  songwriters,
  trackCredits,
  trackFeatures,
  tracks,
} from '../../infra/db/schema/index.js';
import type { ArtistOverride, CatalogArtist, CatalogLyric, CatalogSnapshot, CatalogTrack } from './eligibility.js';
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

export interface TrackCheckRow {
  id: string;
  title: string;
  artistId: string;
  artistPlatformOwned: boolean;
  audioBlobKey: string | null;
  audioFormat: string | null;
  hasFeatures: boolean;
}

export interface LyricCheckRow {
  id: string;
  title: string;
  artistId: string;
  artistPlatformOwned: boolean;
  songwriterId: string;
  songwriterName: string;
  songwriterPlatformOwned: boolean;
  trackId: string | null;
  /** Whether the songwriter holds a lyricist (or composer_lyricist) credit on the lyric's track; null without a track. */
  creditedOnTrack: boolean | null;
}

export class DatasetRepository {
  constructor(
    private readonly db: DbOrTx,
    /** The catalog's read port: lyrics as the training loader reads them (read in this repository's transaction). */
    private readonly catalogReads: TrainingCatalog,
  ) {}

  /** Runs `work` in one transaction with a repository bound to it. */
  transaction<T>(work: (repo: DatasetRepository) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(new DatasetRepository(tx, this.catalogReads)));
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

  async artistsByIds(ids: string[]): Promise<CatalogArtist[]> {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return [];
    return this.db
      .select({ id: artists.id, slug: artists.slug, name: artists.name, platformOwned: artists.platformOwned })
      .from(artists)
      .where(and(inArray(artists.id, valid), eq(artists.environment, 'live')));
  }

  /**
   * Every catalog row the eligibility rules look at: the live catalog's. The sandbox's copies (environment
   * 'test') are never training data, whoever their artist is.
   */
  async catalog(): Promise<CatalogSnapshot> {
    const credits = this.db
      .select({ trackId: trackCredits.trackId, n: count().as('n') })
      .from(trackCredits)
      .groupBy(trackCredits.trackId)
      .as('credits');
    const [artistRows, trackRows, lyricRows] = await Promise.all([
      this.db
        .select({ id: artists.id, slug: artists.slug, name: artists.name, platformOwned: artists.platformOwned })
        .from(artists)
        .where(eq(artists.environment, 'live'))
        .orderBy(asc(artists.name), asc(artists.id)),
      this.db
        .select({
          id: tracks.id,
          title: tracks.title,
          artistId: tracks.artistId,
          status: tracks.status,
          releaseYear: tracks.releaseYear,
          isrc: tracks.isrc,
          audioBitrateKbps: tracks.audioBitrateKbps,
          audioBlobKey: tracks.audioBlobKey,
          audioFormat: tracks.audioFormat,
          durationSec: tracks.durationSec,
          featuresTrackId: trackFeatures.trackId,
          creditCount: credits.n,
        })
        .from(tracks)
        .leftJoin(trackFeatures, eq(trackFeatures.trackId, tracks.id))
        .leftJoin(credits, eq(credits.trackId, tracks.id))
        .where(eq(tracks.environment, 'live'))
        .orderBy(asc(tracks.id)),
      this.db
        .select({
          id: lyrics.id,
          slug: lyrics.slug,
          title: lyrics.title,
          artistId: lyrics.artistId,
          trackId: lyrics.trackId,
          songwriterId: lyrics.songwriterId,
          songwriterPlatformOwned: songwriters.platformOwned,
        })
        .from(lyrics)
        .innerJoin(songwriters, eq(songwriters.id, lyrics.songwriterId))
        // The sandbox's copies of the demo lyrics are of sandbox artists: not catalog rows the rules look at.
        .innerJoin(artists, eq(artists.id, lyrics.artistId))
        .where(eq(artists.environment, 'live'))
        .orderBy(asc(lyrics.id)),
    ]);
    return {
      artists: artistRows,
      tracks: trackRows.map(({ featuresTrackId, creditCount, ...t }): CatalogTrack => ({
        ...t,
        hasFeatures: featuresTrackId !== null,
        creditCount: Number(creditCount ?? 0),
      })),
      lyrics: lyricRows satisfies CatalogLyric[],
    };
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

  async featuresOf(trackIds: string[]): Promise<Map<string, AudioFeatures>> {
    const out = new Map<string, AudioFeatures>();
    for (const part of chunks(trackIds)) {
      const rows = await this.db
        .select({ id: trackFeatures.trackId, features: trackFeatures.features })
        .from(trackFeatures)
        .where(inArray(trackFeatures.trackId, part));
      for (const row of rows) out.set(row.id, row.features);
    }
    return out;
  }

  /** Lyrics as the training loader reads them (platform songwriters and artists only), by lyric id. */
  async lyricDocuments(lyricIds: string[]): Promise<Map<string, LyricsDocument>> {
    const out = new Map<string, LyricsDocument>();
    for (const part of chunks(lyricIds)) for (const row of await loadLyricRows(this.catalogReads, part, this.db)) out.set(row.lyricId, row.document);
    return out;
  }

  /** Style features of every master by an artist that is not platform-owned (third-party audio). */
  async nonPlatformFeatures(): Promise<{ id: string; title: string; features: AudioFeatures }[]> {
    const rows = await this.db
      .select({ id: tracks.id, title: tracks.title, features: trackFeatures.features })
      .from(trackFeatures)
      .innerJoin(tracks, eq(tracks.id, trackFeatures.trackId))
      .innerJoin(artists, eq(artists.id, tracks.artistId))
      .where(and(eq(artists.platformOwned, false), eq(tracks.environment, 'live')))
      .orderBy(asc(tracks.id));
    return rows.map((r) => ({ id: r.id, title: r.title, features: r.features }));
  }

  async tracksForCheck(trackIds: string[]): Promise<TrackCheckRow[]> {
    const out: TrackCheckRow[] = [];
    for (const part of chunks(trackIds.filter(isUuid))) {
      const rows = await this.db
        .select({
          id: tracks.id,
          title: tracks.title,
          artistId: tracks.artistId,
          artistPlatformOwned: artists.platformOwned,
          audioBlobKey: tracks.audioBlobKey,
          audioFormat: tracks.audioFormat,
          featuresTrackId: trackFeatures.trackId,
        })
        .from(tracks)
        .innerJoin(artists, eq(artists.id, tracks.artistId))
        .leftJoin(trackFeatures, eq(trackFeatures.trackId, tracks.id))
        .where(and(inArray(tracks.id, part), eq(tracks.environment, 'live')));
      out.push(...rows.map(({ featuresTrackId, ...r }) => ({ ...r, hasFeatures: featuresTrackId !== null })));
    }
    return out;
  }

  async lyricsForCheck(lyricIds: string[]): Promise<LyricCheckRow[]> {
    const out: LyricCheckRow[] = [];
    for (const part of chunks(lyricIds.filter(isUuid))) {
      const rows = await this.db
        .select({
          id: lyrics.id,
          title: lyrics.title,
          artistId: lyrics.artistId,
          artistPlatformOwned: artists.platformOwned,
          songwriterId: lyrics.songwriterId,
          songwriterName: songwriters.name,
          songwriterPlatformOwned: songwriters.platformOwned,
          trackId: lyrics.trackId,
          creditedOnTrack: sql<boolean | null>`CASE WHEN ${lyrics.trackId} IS NULL THEN NULL ELSE EXISTS (
            SELECT 1 FROM ${trackCredits} WHERE ${trackCredits.trackId} = ${lyrics.trackId}
              AND ${trackCredits.songwriterId} = ${lyrics.songwriterId}
              AND ${trackCredits.role} IN ('lyricist', 'composer_lyricist')) END`,
        })
        .from(lyrics)
        .innerJoin(artists, eq(artists.id, lyrics.artistId))
        .innerJoin(songwriters, eq(songwriters.id, lyrics.songwriterId))
        .where(inArray(lyrics.id, part));
      out.push(...rows);
    }
    return out;
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
