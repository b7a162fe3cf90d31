/** library_items and library_albums: the tracks and releases a user saved, per environment. */
import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../infra/db/client.js';
import { idEq } from '../../infra/db/ids.js';
import { libraryAlbums, libraryItems } from '../../infra/db/schema/index.js';
import { trackRefFields, type AlbumRefRow, type TrackRefRow, type TrackRefTable } from '../catalog/display-reads.js';
import type { Environment } from '../../kernel/environment.js';

export type { AlbumRefRow };

/**
 * The catalog's read port as the library uses it (its module's `displayReads`, src/platform/catalog/display-reads.ts):
 * the saved tracks' and releases' display fields. The list of saved tracks joins them as a derived table, so that
 * the page stays one statement ordered by when each was saved.
 */
export interface LibraryCatalog {
  trackRefs(): TrackRefTable;
  trackRef(trackId: string, environment: Environment, options: { publishedOnly: boolean }): Promise<TrackRefRow | null>;
  trackRefsByIds(ids: string[]): Promise<TrackRefRow[]>;
  albumRef(albumId: string, environment: Environment): Promise<AlbumRefRow | null>;
  albumRefsByIds(ids: string[]): Promise<AlbumRefRow[]>;
}

/** One saved thing, in the order the library lists them. */
export interface LibraryEntry {
  kind: 'track' | 'album';
  id: string;
  savedAt: Date;
}

export class LibraryRepository {
  constructor(
    private readonly db: DbOrTx,
    private readonly catalog: LibraryCatalog,
  ) {}

  async list(userId: string, environment: Environment, limit: number, offset: number): Promise<{ rows: (TrackRefRow & { savedAt: Date })[]; total: number }> {
    const where = and(eq(libraryItems.userId, userId), eq(libraryItems.environment, environment));
    const refs = this.catalog.trackRefs();
    const [rows, [{ total }]] = await Promise.all([
      this.db
        .select({ ...trackRefFields(refs), savedAt: libraryItems.savedAt })
        .from(libraryItems)
        .innerJoin(refs, eq(refs.trackId, libraryItems.trackId))
        .where(where)
        .orderBy(desc(libraryItems.savedAt), desc(libraryItems.trackId))
        .limit(limit)
        .offset(offset),
      this.db.select({ total: count() }).from(libraryItems).where(where),
    ]);
    return { rows, total };
  }

  /** A track of the environment: a library never holds a track of the other one. */
  findTrack(trackId: string, environment: Environment): Promise<TrackRefRow | null> {
    return this.catalog.trackRef(trackId, environment, { publishedOnly: false });
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

  tracksByIds(ids: string[]): Promise<TrackRefRow[]> {
    return this.catalog.trackRefsByIds(ids);
  }

  albumsByIds(ids: string[]): Promise<AlbumRefRow[]> {
    return this.catalog.albumRefsByIds(ids);
  }

  /** A release of the environment by id. */
  findAlbum(albumId: string, environment: Environment): Promise<AlbumRefRow | null> {
    return this.catalog.albumRef(albumId, environment);
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
