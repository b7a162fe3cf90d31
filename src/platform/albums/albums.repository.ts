/** Releases (albums, EPs, singles): listed, filtered and found, with their published tracks' count and length. */
import { and, asc, count, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../infra/db/client.js';
import { idEq } from '../../infra/db/ids.js';
import { albums, artists, tracks } from '../../infra/db/schema/index.js';
import type { Environment } from '../../kernel/environment.js';

export type ReleaseType = (typeof albums.$inferSelect)['type'];

export interface AlbumRow {
  id: string;
  slug: string;
  title: string;
  type: ReleaseType;
  genre: string;
  releaseYear: number | null;
  coverBlobKey: string | null;
  artistId: string;
  artistSlug: string;
  artistName: string;
  artistVerified: boolean;
  trackCount: number;
  durationSec: number;
}

export interface AlbumFilter {
  /** The caller's data space: a release is of its artist's environment (tracks_album_same_artist_fk). */
  environment: Environment;
  /** The artist's slug or id. */
  artist?: string;
  genre?: string;
  year?: number;
  type?: ReleaseType;
  /** Part of the release title or the artist's name, case-insensitively. */
  search?: string;
}

export interface AlbumProductRow {
  id: string;
  title: string;
  type: ReleaseType;
  priceCents: number;
  currency: string;
}

/** `%text%` for ILIKE with the pattern characters of the text itself escaped. */
function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const published = and(eq(tracks.albumId, albums.id), eq(tracks.status, 'published'));

const columns = {
  id: albums.id,
  slug: albums.slug,
  title: albums.title,
  type: albums.type,
  genre: albums.genre,
  releaseYear: albums.releaseYear,
  coverBlobKey: albums.coverBlobKey,
  artistId: artists.id,
  artistSlug: artists.slug,
  artistName: artists.name,
  artistVerified: artists.verified,
  trackCount: sql<number>`(select count(*) from ${tracks} where ${published})`.mapWith(Number),
  durationSec: sql<number>`(select coalesce(sum(${tracks.durationSec}), 0) from ${tracks} where ${published})`.mapWith(Number),
};

/** Newest first; undated releases last. */
const newestFirst = [sql`${albums.releaseYear} desc nulls last`, asc(albums.title), asc(albums.id)];

export class AlbumsRepository {
  constructor(private readonly db: DbOrTx) {}

  private where(filter: AlbumFilter): SQL | undefined {
    const conditions: (SQL | undefined)[] = [eq(artists.environment, filter.environment)];
    if (filter.artist) conditions.push(or(eq(artists.slug, filter.artist), idEq(artists.id, filter.artist)));
    if (filter.genre) conditions.push(sql`lower(${albums.genre}) = lower(${filter.genre})`);
    if (filter.year !== undefined) conditions.push(eq(albums.releaseYear, filter.year));
    if (filter.type) conditions.push(eq(albums.type, filter.type));
    if (filter.search) conditions.push(or(ilike(albums.title, containing(filter.search)), ilike(artists.name, containing(filter.search))));
    return and(...conditions);
  }

  async list(filter: AlbumFilter, limit: number, offset: number): Promise<{ rows: AlbumRow[]; total: number }> {
    const where = this.where(filter);
    const [rows, [{ total }]] = await Promise.all([
      this.db
        .select(columns)
        .from(albums)
        .innerJoin(artists, eq(artists.id, albums.artistId))
        .where(where)
        .orderBy(...newestFirst)
        .limit(limit)
        .offset(offset),
      this.db.select({ total: count() }).from(albums).innerJoin(artists, eq(artists.id, albums.artistId)).where(where),
    ]);
    return { rows, total };
  }

  /** A release of the environment by id or slug. */
  async find(idOrSlug: string, environment: Environment): Promise<AlbumRow | null> {
    const [row] = await this.db
      .select(columns)
      .from(albums)
      .innerJoin(artists, eq(artists.id, albums.artistId))
      .where(and(eq(artists.environment, environment), or(eq(albums.slug, idOrSlug), idEq(albums.id, idOrSlug))))
      .limit(1);
    return row ?? null;
  }

  /** An artist's releases, newest first. */
  ofArtist(artistId: string, limit: number): Promise<AlbumRow[]> {
    return this.db
      .select(columns)
      .from(albums)
      .innerJoin(artists, eq(artists.id, albums.artistId))
      .where(eq(albums.artistId, artistId))
      .orderBy(...newestFirst)
      .limit(limit);
  }
}
