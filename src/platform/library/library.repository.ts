/** library_items and library_albums: the tracks and releases a user saved, per environment. */
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../infra/db/client.js';
import { idEq } from '../../infra/db/ids.js';
import { albums, artists, libraryAlbums, libraryItems, tracks } from '../../infra/db/schema/index.js';
import { trackRefColumns, type TrackRefRow } from '../shared/track-ref.js';
import type { Environment } from '../../kernel/environment.js';

/** A release as a library lists it. */
export interface AlbumRefRow {
  albumId: string;
  albumSlug: string;
  albumTitle: string;
  albumType: string;
  releaseYear: number | null;
  genre: string;
  artistName: string;
  artistId: string;
  artistSlug: string;
}

const albumRefColumns = {
  albumId: albums.id,
  albumSlug: albums.slug,
  albumTitle: albums.title,
  albumType: albums.type,
  releaseYear: albums.releaseYear,
  genre: albums.genre,
  artistName: artists.name,
  artistId: artists.id,
  artistSlug: artists.slug,
};

/** One saved thing, in the order the library lists them. */
export interface LibraryEntry {
  kind: 'track' | 'album';
  id: string;
  savedAt: Date;
}

export class LibraryRepository {
  constructor(private readonly db: DbOrTx) {}

  async list(userId: string, environment: Environment, limit: number, offset: number): Promise<{ rows: (TrackRefRow & { savedAt: Date })[]; total: number }> {
    const where = and(eq(libraryItems.userId, userId), eq(libraryItems.environment, environment));
    const [rows, [{ total }]] = await Promise.all([
      this.db
        .select({ ...trackRefColumns, savedAt: libraryItems.savedAt })
        .from(libraryItems)
        .innerJoin(tracks, eq(tracks.id, libraryItems.trackId))
        .innerJoin(artists, eq(artists.id, tracks.artistId))
        .where(where)
        .orderBy(desc(libraryItems.savedAt), desc(libraryItems.trackId))
        .limit(limit)
        .offset(offset),
      this.db.select({ total: count() }).from(libraryItems).where(where),
    ]);
    return { rows, total };
  }

  /** A track of the environment: a library never holds a track of the other one. */
  async findTrack(trackId: string, environment: Environment): Promise<TrackRefRow | null> {
    const [row] = await this.db
      .select(trackRefColumns)
      .from(tracks)
      .innerJoin(artists, eq(artists.id, tracks.artistId))
      .where(and(idEq(tracks.id, trackId), eq(tracks.environment, environment)))
      .limit(1);
    return row ?? null;
  }

  /** Saves once: answers whether this call added it, and when it was saved. */
  async save(userId: string, environment: Environment, trackId: string): Promise<{ created: boolean; savedAt: Date }> {
    const [inserted] = await this.db
      .insert(libraryItems)
      .values({ userId, environment, trackId })
      .onConflictDoNothing()
      .returning({ savedAt: libraryItems.savedAt });
    if (inserted) return { created: true, savedAt: inserted.savedAt };
    const [existing] = await this.db
      .select({ savedAt: libraryItems.savedAt })
      .from(libraryItems)
      .where(and(eq(libraryItems.userId, userId), eq(libraryItems.environment, environment), eq(libraryItems.trackId, trackId)));
    return { created: false, savedAt: existing.savedAt };
  }

  async remove(userId: string, environment: Environment, trackId: string): Promise<boolean> {
    const removed = await this.db
      .delete(libraryItems)
      .where(and(eq(libraryItems.userId, userId), eq(libraryItems.environment, environment), idEq(libraryItems.trackId, trackId)))
      .returning({ trackId: libraryItems.trackId });
    return removed.length > 0;
  }

  /**
   * Saved tracks and releases together, most recently saved first: one page of (kind, id) over both tables,
   * then the rows it names (tracksByIds, albumsByIds).
   */
  async entries(userId: string, environment: Environment, limit: number, offset: number): Promise<{ entries: LibraryEntry[]; total: number }> {
    const page = await this.db.execute(sql`
      select kind, id, saved_at from (
        select 'track' as kind, ${libraryItems.trackId}::text as id, ${libraryItems.savedAt} as saved_at from ${libraryItems}
        where ${libraryItems.userId} = ${userId} and ${libraryItems.environment} = ${environment}
        union all
        select 'album' as kind, ${libraryAlbums.albumId}::text as id, ${libraryAlbums.savedAt} as saved_at from ${libraryAlbums}
        where ${libraryAlbums.userId} = ${userId} and ${libraryAlbums.environment} = ${environment}
      ) saved
      order by saved_at desc, kind, id desc
      limit ${limit} offset ${offset}`);
    const [[{ tracksTotal }], [{ albumsTotal }]] = await Promise.all([
      this.db
        .select({ tracksTotal: count() })
        .from(libraryItems)
        .where(and(eq(libraryItems.userId, userId), eq(libraryItems.environment, environment))),
      this.db
        .select({ albumsTotal: count() })
        .from(libraryAlbums)
        .where(and(eq(libraryAlbums.userId, userId), eq(libraryAlbums.environment, environment))),
    ]);
    // node-postgres and PGlite both answer { rows }; saved_at comes back as a Date or an ISO string by driver.
    const rows = (page as { rows: { kind: 'track' | 'album'; id: string; saved_at: Date | string }[] }).rows;
    return { entries: rows.map((r) => ({ kind: r.kind, id: r.id, savedAt: new Date(r.saved_at) })), total: tracksTotal + albumsTotal };
  }

  async tracksByIds(ids: string[]): Promise<TrackRefRow[]> {
    if (ids.length === 0) return [];
    return this.db.select(trackRefColumns).from(tracks).innerJoin(artists, eq(artists.id, tracks.artistId)).where(inArray(tracks.id, ids));
  }

  async albumsByIds(ids: string[]): Promise<AlbumRefRow[]> {
    if (ids.length === 0) return [];
    return this.db.select(albumRefColumns).from(albums).innerJoin(artists, eq(artists.id, albums.artistId)).where(inArray(albums.id, ids));
  }

  /** A release of the environment by id. */
  async findAlbum(albumId: string, environment: Environment): Promise<AlbumRefRow | null> {
    const [row] = await this.db
      .select(albumRefColumns)
      .from(albums)
      .innerJoin(artists, eq(artists.id, albums.artistId))
      .where(and(idEq(albums.id, albumId), eq(albums.environment, environment)))
      .limit(1);
    return row ?? null;
  }

  async saveAlbum(userId: string, environment: Environment, albumId: string): Promise<{ created: boolean; savedAt: Date }> {
    const [inserted] = await this.db
      .insert(libraryAlbums)
      .values({ userId, environment, albumId })
      .onConflictDoNothing()
      .returning({ savedAt: libraryAlbums.savedAt });
    if (inserted) return { created: true, savedAt: inserted.savedAt };
    const [existing] = await this.db
      .select({ savedAt: libraryAlbums.savedAt })
      .from(libraryAlbums)
      .where(and(eq(libraryAlbums.userId, userId), eq(libraryAlbums.environment, environment), eq(libraryAlbums.albumId, albumId)));
    return { created: false, savedAt: existing.savedAt };
  }

  async removeAlbum(userId: string, environment: Environment, albumId: string): Promise<boolean> {
    const removed = await this.db
      .delete(libraryAlbums)
      .where(and(eq(libraryAlbums.userId, userId), eq(libraryAlbums.environment, environment), idEq(libraryAlbums.albumId, albumId)))
      .returning({ albumId: libraryAlbums.albumId });
    return removed.length > 0;
  }
}
