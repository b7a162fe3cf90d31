/** Catalog reads: tracks, artists, credits. Filters run in SQL so pagination and totals agree. */
import { and, asc, count, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../infra/db/client.js';
import { artists, playEvents, tracks } from '../../infra/db/schema/index.js';

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

export class CatalogRepository {
  constructor(private readonly db: Db) {}

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
    return { rows: rows.map((r) => ({ ...r.track, artistName: r.artistName, artistSlug: r.artistSlug })), total };
  }

  async findTrack(id: string): Promise<TrackRow | null> {
    const [row] = await this.db
      .select(trackColumns)
      .from(tracks)
      .innerJoin(artists, eq(artists.id, tracks.artistId))
      .where(and(eq(tracks.id, id), eq(tracks.status, 'published')))
      .limit(1);
    return row ? { ...row.track, artistName: row.artistName, artistSlug: row.artistSlug } : null;
  }

  /** A track with its credits and lyrics flag in one indexed query (the catalog's hottest read). */
  async findTrackDetail(id: string) {
    const [row] = await this.db
      .select({
        ...trackColumns,
        credits: sql<CreditRow[]>`coalesce((
          select json_agg(json_build_object('songwriter_id', s.id, 'name', s.name, 'ipi', s.ipi, 'role', c.role, 'split_pct', c.split_pct)
                          order by c.split_pct desc, s.name)
          from track_credits c join songwriters s on s.id = c.songwriter_id
          where c.track_id = ${tracks.id}), '[]'::json)`,
        hasLyrics: sql<boolean>`exists (select 1 from lyrics l where l.track_id = ${tracks.id})`,
      })
      .from(tracks)
      .innerJoin(artists, eq(artists.id, tracks.artistId))
      .where(and(eq(tracks.id, id), eq(tracks.status, 'published')))
      .limit(1);
    if (!row) return null;
    return {
      track: { ...row.track, artistName: row.artistName, artistSlug: row.artistSlug } as TrackRow,
      credits: (typeof row.credits === 'string' ? JSON.parse(row.credits) : row.credits) as CreditRow[],
      hasLyrics: row.hasLyrics === true || (row.hasLyrics as unknown) === 't',
    };
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
