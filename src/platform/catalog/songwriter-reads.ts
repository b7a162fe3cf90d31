/**
 * The catalog's read port for the admin's songwriters register: who the songwriters are, their publishing rights,
 * and every credit they hold with the track's ISRC and the total of the track's splits (which the database keeps
 * at 100%: track_credits_splits_total in drizzle/0022_artists_albums_search.sql; rows older than that check are
 * reported here if they are off). Published by the catalog module as `songwriterReads`; the admin group declares
 * it on its side (`SongwriterReads`, src/platform/admin/songwriters.service.ts) and reads no catalog table itself.
 * It stays a catalog read rather than an admin repository because every filter and count is over the catalog's
 * tables (the artist, the credits, the tracks' split totals), paged by the database.
 */
import type { TrackStatus } from '../../infra/db/schema/catalog.js';
import { and, asc, count, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../infra/db/client.js';
import { idEq } from '../../infra/db/ids.js';
import { artists, songwriters, trackCredits, tracks } from '../../infra/db/schema/index.js';

export interface SongwriterFilter {
  /** Part of the name, or the exact IPI. */
  search?: string;
  /** The artist the songwriter writes for (slug or id). */
  artist?: string;
  /** Only songwriters with (true) or without (false) a credit on a track whose splits do not sum to 100%. */
  invalidSplits?: boolean;
}

export interface SongwriterRow {
  id: string;
  slug: string;
  name: string;
  ipi: string | null;
  publisher: string | null;
  pro: string | null;
  platformOwned: boolean;
  artistId: string | null;
  artistSlug: string | null;
  artistName: string | null;
  trackCount: number;
}

export interface CreditRow {
  songwriterId: string;
  trackId: string;
  title: string;
  isrc: string | null;
  status: TrackStatus;
  role: string;
  splitPct: number;
  trackTotalPct: number;
}

/** `%text%` for ILIKE with the pattern characters of the text itself escaped. */
function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The sum of a track's splits (track_credits.track_id = the outer credit's track). */
const trackTotal = sql<number>`(select sum(c2.split_pct) from ${trackCredits} c2 where c2.track_id = ${trackCredits.trackId})`;

export class CatalogSongwriterReads {
  constructor(private readonly db: DbOrTx) {}

  private where(filter: SongwriterFilter): SQL | undefined {
    const conditions: (SQL | undefined)[] = [];
    if (filter.search) conditions.push(or(ilike(songwriters.name, containing(filter.search)), eq(songwriters.ipi, filter.search)));
    if (filter.artist) conditions.push(or(eq(artists.slug, filter.artist), idEq(artists.id, filter.artist)));
    if (filter.invalidSplits !== undefined) {
      const offTrack = sql`exists (select 1 from ${trackCredits} where ${trackCredits.songwriterId} = ${songwriters.id} and ${trackTotal} <> 100)`;
      conditions.push(filter.invalidSplits ? offTrack : sql`not ${offTrack}`);
    }
    return and(...conditions);
  }

  async list(filter: SongwriterFilter, page: { limit: number; offset: number }): Promise<{ rows: SongwriterRow[]; total: number }> {
    const where = this.where(filter);
    const columns = {
      id: songwriters.id,
      slug: songwriters.slug,
      name: songwriters.name,
      ipi: songwriters.ipi,
      publisher: songwriters.publisher,
      pro: songwriters.pro,
      platformOwned: songwriters.platformOwned,
      artistId: artists.id,
      artistSlug: artists.slug,
      artistName: artists.name,
      trackCount:
        sql<number>`(select count(distinct ${trackCredits.trackId}) from ${trackCredits} where ${trackCredits.songwriterId} = ${songwriters.id})`.mapWith(
          Number,
        ),
    };
    const [rows, [{ total }]] = await Promise.all([
      this.db
        .select(columns)
        .from(songwriters)
        .leftJoin(artists, eq(artists.id, songwriters.artistId))
        .where(where)
        .orderBy(asc(songwriters.name), asc(songwriters.id))
        .limit(page.limit)
        .offset(page.offset),
      this.db.select({ total: count() }).from(songwriters).leftJoin(artists, eq(artists.id, songwriters.artistId)).where(where),
    ]);
    return { rows, total };
  }

  /** The credits of these songwriters (one row per credit), by title. */
  credits(songwriterIds: string[]): Promise<CreditRow[]> {
    if (songwriterIds.length === 0) return Promise.resolve([]);
    return this.db
      .select({
        songwriterId: trackCredits.songwriterId,
        trackId: tracks.id,
        title: tracks.title,
        isrc: tracks.isrc,
        status: tracks.status,
        role: trackCredits.role,
        splitPct: trackCredits.splitPct,
        trackTotalPct: trackTotal.mapWith(Number),
      })
      .from(trackCredits)
      .innerJoin(tracks, eq(tracks.id, trackCredits.trackId))
      .where(inArray(trackCredits.songwriterId, songwriterIds))
      .orderBy(asc(trackCredits.songwriterId), asc(tracks.title), asc(tracks.id), asc(trackCredits.role));
  }
}
