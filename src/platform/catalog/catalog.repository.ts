/** Catalog reads: tracks, artists, credits. Filters run in SQL so pagination and totals agree. */
import { and, asc, count, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../infra/db/client.js';
import { artists, playEvents, tracks } from '../../infra/db/schema/index.js';
import { idEq, isUuid } from '../../infra/db/ids.js';

export type TrackRow = typeof tracks.$inferSelect & { artistName: string; artistSlug: string };
export type ArtistRow = typeof artists.$inferSelect;
export interface CreditRow {
  songwriter_id: string;
  name: string;
  ipi: string | null;
  role: string;
  split_pct: number;
}

export interface TrackFilter {
  search?: string;
  genre?: string;
  artist?: string;
  artistId?: string;
}

export interface ArtistFilter {
  search?: string;
  genre?: string;
  verified?: boolean;
}

/** Escapes LIKE wildcards so a search for "100%" means the characters, not a pattern. */
function likeContains(value: string): string {
  return `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const trackColumns = {
  track: tracks,
  artistName: artists.name,
  artistSlug: artists.slug,
};

/** What a track detail answer shows: one json field per entry, named as in TrackRow. */
const detailFields = {
  id: tracks.id,
  slug: tracks.slug,
  title: tracks.title,
  artistName: artists.name,
  artistSlug: artists.slug,
  durationSec: tracks.durationSec,
  streams: tracks.streams,
  genre: tracks.genre,
  subgenre: tracks.subgenre,
  mood: tracks.mood,
  bpm: tracks.bpm,
  musicalKey: tracks.musicalKey,
  mode: tracks.mode,
  isrc: tracks.isrc,
  explicit: tracks.explicit,
  releaseYear: tracks.releaseYear,
  coverBlobKey: tracks.coverBlobKey,
  lifestyle: tracks.lifestyle,
  energy: tracks.energy,
  audioBlobKey: tracks.audioBlobKey,
  audioFormat: tracks.audioFormat,
  audioBitrateKbps: tracks.audioBitrateKbps,
  audioSizeBytes: tracks.audioSizeBytes,
  waveformBlobKey: tracks.waveformBlobKey,
  createdAt: tracks.createdAt,
};
export type TrackDetailFields = Pick<TrackRow, keyof typeof detailFields>;

/** The detail as it arrives: json keeps every field's value but the timestamp, which comes as text. */
interface TrackDetailJson {
  track: Omit<TrackDetailFields, 'createdAt'> & { createdAt: string | Date };
  credits: CreditRow[];
  hasLyrics: boolean;
}

/**
 * The detail in one indexed query (`$id` a placeholder) and one json field: a select of 27 columns costs
 * more CPU in node-postgres and Drizzle (a parser and a mapping per column, per row) than the query costs
 * PostgreSQL; one json value is parsed natively (bench/README.md, HTTP).
 */
function trackDetailQuery(db: Db) {
  const fields = sql.join(
    Object.entries(detailFields).map(([name, column]) => sql`${sql.raw(`'${name}'`)}, ${column}`),
    sql`, `,
  );
  return db
    .select({
      detail: sql<TrackDetailJson | string>`json_build_object(
        'track', json_build_object(${fields}),
        'credits', coalesce((
          select json_agg(json_build_object('songwriter_id', s.id, 'name', s.name, 'ipi', s.ipi, 'role', c.role, 'split_pct', c.split_pct)
                          order by c.split_pct desc, s.name)
          from track_credits c join songwriters s on s.id = c.songwriter_id
          where c.track_id = ${tracks.id}), '[]'::json),
        'hasLyrics', exists (select 1 from lyrics l where l.track_id = ${tracks.id}))`,
    })
    .from(tracks)
    .innerJoin(artists, eq(artists.id, tracks.artistId))
    .where(and(eq(tracks.id, sql.placeholder('id')), eq(tracks.status, 'published')))
    .limit(1);
}

/** A track row with its artist's name and slug (Object.assign: a spread with new keys is slow in V8, see catalog.service.ts). */
function withArtist(row: { track: typeof tracks.$inferSelect; artistName: string; artistSlug: string }): TrackRow {
  return Object.assign(row.track, { artistName: row.artistName, artistSlug: row.artistSlug });
}

export class CatalogRepository {
  /**
   * Track detail is the catalog's hottest read. Building the query with Drizzle cost more CPU than the
   * query itself (bench/README.md, HTTP), so it is built once; on PostgreSQL it is also a named prepared
   * statement, parsed and planned once per connection.
   */
  private readonly trackDetail: ReturnType<ReturnType<typeof trackDetailQuery>['prepare']>;

  constructor(private readonly db: Db) {
    this.trackDetail = trackDetailQuery(db).prepare('catalog_track_detail');
  }

  private trackWhere(filter: TrackFilter): SQL | undefined {
    const conditions: (SQL | undefined)[] = [eq(tracks.status, 'published')];
    if (filter.search) {
      const pattern = likeContains(filter.search);
      conditions.push(or(ilike(tracks.title, pattern), ilike(artists.name, pattern), ilike(tracks.genre, pattern)));
    }
    if (filter.genre) conditions.push(sql`lower(${tracks.genre}) = lower(${filter.genre})`);
    if (filter.artist) conditions.push(or(eq(artists.slug, filter.artist), ilike(artists.name, filter.artist)));
    if (filter.artistId) conditions.push(eq(tracks.artistId, filter.artistId));
    return and(...conditions);
  }

  async listTracks(filter: TrackFilter, limit: number, offset: number): Promise<{ rows: TrackRow[]; total: number }> {
    const where = this.trackWhere(filter);
    const [rows, [{ total }]] = await Promise.all([
      this.db
        .select(trackColumns)
        .from(tracks)
        .innerJoin(artists, eq(artists.id, tracks.artistId))
        .where(where)
        .orderBy(desc(tracks.streams), asc(tracks.title), asc(tracks.id))
        .limit(limit)
        .offset(offset),
      this.db.select({ total: count() }).from(tracks).innerJoin(artists, eq(artists.id, tracks.artistId)).where(where),
    ]);
    return { rows: rows.map((r) => withArtist(r)), total };
  }

  async findTrack(id: string): Promise<TrackRow | null> {
    const [row] = await this.db
      .select(trackColumns)
      .from(tracks)
      .innerJoin(artists, eq(artists.id, tracks.artistId))
      .where(and(idEq(tracks.id, id), eq(tracks.status, 'published')))
      .limit(1);
    return row ? withArtist(row) : null;
  }

  /** A track with its credits and lyrics flag in one indexed query (the catalog's hottest read). */
  async findTrackDetail(id: string) {
    if (!isUuid(id)) return null; // no uuid column can hold it: not found, without asking the database
    const [row] = await this.trackDetail.execute({ id });
    if (!row) return null;
    const detail: TrackDetailJson = typeof row.detail === 'string' ? JSON.parse(row.detail) : row.detail;
    detail.track.createdAt = new Date(detail.track.createdAt);
    return detail as { track: TrackDetailFields; credits: CreditRow[]; hasLyrics: boolean };
  }

  async listArtists(filter: ArtistFilter, limit: number, offset: number): Promise<{ rows: ArtistRow[]; total: number }> {
    const conditions: (SQL | undefined)[] = [];
    if (filter.search) conditions.push(or(ilike(artists.name, likeContains(filter.search)), ilike(artists.bio, likeContains(filter.search))));
    if (filter.genre) conditions.push(sql`lower(${artists.genre}) = lower(${filter.genre})`);
    if (filter.verified !== undefined) conditions.push(eq(artists.verified, filter.verified));
    const where = and(...conditions);
    const [rows, [{ total }]] = await Promise.all([
      this.db.select().from(artists).where(where).orderBy(asc(artists.name), asc(artists.id)).limit(limit).offset(offset),
      this.db.select({ total: count() }).from(artists).where(where),
    ]);
    return { rows, total };
  }

  async findArtistBySlug(slug: string): Promise<ArtistRow | null> {
    const [row] = await this.db.select().from(artists).where(eq(artists.slug, slug)).limit(1);
    return row ?? null;
  }

  /** A play event and the track's stream counter move together, or not at all. */
  async recordPlay(input: { trackId: string; userId: string | null; source: 'radio' | 'on_demand'; sessionId?: string }) {
    await this.db.transaction(async (tx) => {
      await tx.insert(playEvents).values({ trackId: input.trackId, userId: input.userId, source: input.source, sessionId: input.sessionId ?? null });
      await tx.update(tracks).set({ streams: sql`${tracks.streams} + 1` }).where(eq(tracks.id, input.trackId));
    });
  }
}
