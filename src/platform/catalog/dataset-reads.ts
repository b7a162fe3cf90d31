/**
 * The catalog's read port for module B (the dataset manager): the live catalog's artists, tracks and lyrics as
 * the eligibility rules judge them, the rows the dataset's validation checks, and the stored features a snapshot
 * fingerprints and the near-duplicate check compares. Published by the catalog module as `datasetReads`; module
 * B declares the part it uses on its side (`DatasetCatalogReads`, src/station/dataset/catalog-reads.ts) and reads
 * no catalog table itself. Long id lists are read in chunks of CHUNK ids, so that no statement binds thousands
 * of parameters.
 *
 * Every method reads in the handle it is given (`tx`, this port's database when left out). A snapshot reads the
 * catalog and writes dataset_snapshots in one transaction, under the dataset configuration's row lock: its
 * items are judged on the rows it freezes, and on the embedded database (one connection) a read made outside
 * the open transaction would wait for that transaction, which waits for the read. A handle per call rather than
 * a port built per transaction keeps one port object for the process, as the catalog's other reads that run in
 * a caller's transaction (`lyricDocuments`, `fillMeasuredLoudness`) do.
 */
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { AudioFeatures } from '../../engine/types.js';
import type { Db, DbOrTx } from '../../infra/db/client.js';
import { isUuid } from '../../infra/db/ids.js';
import { artists, lyrics, songwriters, trackCredits, trackFeatures, tracks, type TrackStatus } from '../../infra/db/schema/index.js';

const CHUNK = 500;

function chunks<T>(values: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < values.length; i += CHUNK) out.push(values.slice(i, i + CHUNK));
  return out;
}

/** An artist of the live catalog, and whether it is the platform's own. */
export interface DatasetArtistRow {
  id: string;
  slug: string;
  name: string;
  platformOwned: boolean;
}

/** A live track with what the eligibility gates look at: its master, stored features and number of credits. */
export interface DatasetTrackRow {
  id: string;
  title: string;
  artistId: string;
  status: TrackStatus;
  releaseYear: number | null;
  isrc: string | null;
  audioBitrateKbps: number | null;
  audioBlobKey: string | null;
  audioFormat: string | null;
  durationSec: number;
  hasFeatures: boolean;
  creditCount: number;
}

/** A lyric of a live artist, and whether its songwriter is the platform's own. */
export interface DatasetLyricRow {
  id: string;
  slug: string;
  title: string;
  artistId: string;
  trackId: string | null;
  songwriterId: string;
  songwriterPlatformOwned: boolean;
}

/** A live track as the validation checks its master. */
export interface TrackToValidate {
  id: string;
  title: string;
  artistId: string;
  artistPlatformOwned: boolean;
  audioBlobKey: string | null;
  audioFormat: string | null;
  hasFeatures: boolean;
}

/** A lyric as the validation checks its attribution. */
export interface LyricToValidate {
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

const artistColumns = { id: artists.id, slug: artists.slug, name: artists.name, platformOwned: artists.platformOwned };

export class CatalogDatasetReads {
  constructor(private readonly db: Db) {}

  /** The live artists among these ids (ids that cannot be uuids name none). */
  async liveArtists(ids: string[], tx: DbOrTx = this.db): Promise<DatasetArtistRow[]> {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return [];
    return tx
      .select(artistColumns)
      .from(artists)
      .where(and(inArray(artists.id, valid), eq(artists.environment, 'live')));
  }

  /**
   * Every catalog row the eligibility rules look at: the live catalog's. The sandbox's copies (environment
   * 'test') are never training data, whoever their artist is.
   */
  async eligibilityCatalog(tx: DbOrTx = this.db): Promise<{ artists: DatasetArtistRow[]; tracks: DatasetTrackRow[]; lyrics: DatasetLyricRow[] }> {
    const credits = tx
      .select({ trackId: trackCredits.trackId, n: count().as('n') })
      .from(trackCredits)
      .groupBy(trackCredits.trackId)
      .as('credits');
    const [artistRows, trackRows, lyricRows] = await Promise.all([
      tx.select(artistColumns).from(artists).where(eq(artists.environment, 'live')).orderBy(asc(artists.name), asc(artists.id)),
      tx
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
      tx
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
      tracks: trackRows.map(({ featuresTrackId, creditCount, ...t }): DatasetTrackRow => ({
        ...t,
        hasFeatures: featuresTrackId !== null,
        creditCount: Number(creditCount ?? 0),
      })),
      lyrics: lyricRows,
    };
  }

  /** The stored style features of these tracks that have them, by track id. */
  async featuresOf(trackIds: string[], tx: DbOrTx = this.db): Promise<Map<string, AudioFeatures>> {
    const out = new Map<string, AudioFeatures>();
    for (const part of chunks(trackIds)) {
      const rows = await tx
        .select({ id: trackFeatures.trackId, features: trackFeatures.features })
        .from(trackFeatures)
        .where(inArray(trackFeatures.trackId, part));
      for (const row of rows) out.set(row.id, row.features);
    }
    return out;
  }

  /** Style features of every live master by an artist that is not platform-owned (third-party audio). */
  async thirdPartyFeatures(tx: DbOrTx = this.db): Promise<{ id: string; title: string; features: AudioFeatures }[]> {
    return tx
      .select({ id: tracks.id, title: tracks.title, features: trackFeatures.features })
      .from(trackFeatures)
      .innerJoin(tracks, eq(tracks.id, trackFeatures.trackId))
      .innerJoin(artists, eq(artists.id, tracks.artistId))
      .where(and(eq(artists.platformOwned, false), eq(tracks.environment, 'live')))
      .orderBy(asc(tracks.id));
  }

  /** The live tracks among these ids, with their artist's ownership and whether they have stored features. */
  async tracksToValidate(trackIds: string[], tx: DbOrTx = this.db): Promise<TrackToValidate[]> {
    const out: TrackToValidate[] = [];
    for (const part of chunks(trackIds.filter(isUuid))) {
      const rows = await tx
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

  /** The lyrics among these ids, with their artist's and songwriter's ownership and the songwriter's credit. */
  async lyricsToValidate(lyricIds: string[], tx: DbOrTx = this.db): Promise<LyricToValidate[]> {
    const out: LyricToValidate[] = [];
    for (const part of chunks(lyricIds.filter(isUuid))) {
      const rows = await tx
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
}
