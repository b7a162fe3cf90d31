/**
 * playlists and playlist_tracks. Every change to a playlist's tracks locks the playlist row (FOR UPDATE) and
 * rewrites the order inside one transaction, so concurrent edits queue and positions stay 0..n-1, unique.
 */
import { and, asc, count, desc, eq, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../infra/db/client.js';
import { idEq } from '../../infra/db/ids.js';
import { playlists, playlistTracks } from '../../infra/db/schema/index.js';
import type { Environment } from '../../kernel/environment.js';
import { trackRefFields, type TrackRefRow, type TrackRefTable } from '../catalog/display-reads.js';
import { PROFILE_DEFAULTS } from '../users/users.service.js';

export type PlaylistRow = typeof playlists.$inferSelect & { trackCount: number };
export type PlaylistWithOwner = PlaylistRow & { ownerPlaylistsPublic: boolean };
export type PlaylistEntryRow = TrackRefRow & { position: number; addedAt: Date };

/** The most tracks a playlist holds. */
export const MAX_PLAYLIST_TRACKS = 1000;

/** What PlaylistsService uses: this repository on the database, or an in-memory one in its unit tests. */
export type PlaylistsStore = Pick<PlaylistsRepository, 'create' | 'find' | 'entries' | 'update' | 'delete' | 'editTracks' | 'findPublishedTrack'>;

const trackCount = sql<number>`(select count(*)::int from ${playlistTracks} where ${playlistTracks.playlistId} = ${playlists.id})`;

/**
 * The users group's read port (its module's `profiles`): whether an owner's playlists are public, as a subquery
 * this repository reads in the playlist's statement. `user_profiles` is the users group's table.
 */
export interface OwnerPlaylistPrivacy {
  playlistsPublicOf(ownerUserId: SQLWrapper): SQL<boolean | null>;
}

/**
 * The catalog's read port (its module's `displayReads`, src/platform/catalog/display-reads.ts): the entries'
 * track display fields, joined as a derived table so that a playlist's entries stay one statement ordered by
 * position (in the transaction that edits them, when given one), and whether a track may be added.
 */
export interface PlaylistCatalog {
  trackRefs(): TrackRefTable;
  trackRef(trackId: string, environment: Environment, options: { publishedOnly: boolean }): Promise<TrackRefRow | null>;
}

export class PlaylistsRepository {
  constructor(
    private readonly db: DbOrTx,
    private readonly owners: OwnerPlaylistPrivacy,
    private readonly catalog: PlaylistCatalog,
  ) {}

  async create(input: { ownerUserId: string; environment: Environment; name: string; description: string; isPublic: boolean }): Promise<PlaylistRow> {
    const [row] = await this.db.insert(playlists).values(input).returning();
    return { ...row, trackCount: 0 };
  }

  async find(id: string): Promise<PlaylistWithOwner | null> {
    const [row] = await this.db
      .select({ playlist: playlists, trackCount, ownerPlaylistsPublic: this.owners.playlistsPublicOf(playlists.ownerUserId) })
      .from(playlists)
      .where(idEq(playlists.id, id))
      .limit(1);
    if (!row) return null;
    return { ...row.playlist, trackCount: Number(row.trackCount), ownerPlaylistsPublic: row.ownerPlaylistsPublic ?? PROFILE_DEFAULTS.playlistsPublic };
  }

  async listByOwner(
    ownerUserId: string,
    environment: Environment,
    publicOnly: boolean,
    limit: number,
    offset: number,
  ): Promise<{ rows: PlaylistRow[]; total: number }> {
    const where = and(eq(playlists.ownerUserId, ownerUserId), eq(playlists.environment, environment), publicOnly ? eq(playlists.isPublic, true) : undefined);
    const [rows, [{ total }]] = await Promise.all([
      this.db
        .select({ playlist: playlists, trackCount })
        .from(playlists)
        .where(where)
        .orderBy(desc(playlists.createdAt), desc(playlists.id))
        .limit(limit)
        .offset(offset),
      this.db.select({ total: count() }).from(playlists).where(where),
    ]);
    return { rows: rows.map((r) => ({ ...r.playlist, trackCount: Number(r.trackCount) })), total };
  }

  async entries(playlistId: string, db: DbOrTx = this.db): Promise<PlaylistEntryRow[]> {
    const refs = this.catalog.trackRefs();
    return db
      .select({ ...trackRefFields(refs), position: playlistTracks.position, addedAt: playlistTracks.addedAt })
      .from(playlistTracks)
      .innerJoin(refs, eq(refs.trackId, playlistTracks.trackId))
      .where(eq(playlistTracks.playlistId, playlistId))
      .orderBy(asc(playlistTracks.position));
  }

  async update(id: string, change: { name?: string; description?: string; isPublic?: boolean }): Promise<void> {
    await this.db
      .update(playlists)
      .set({ ...change, updatedAt: sql`now()` })
      .where(eq(playlists.id, id));
  }

  async delete(id: string): Promise<void> {
    await this.db.delete(playlists).where(eq(playlists.id, id));
  }

  /**
   * Runs `change` on the current order (track ids with when each was added) under a lock on the playlist row and
   * writes the order it returns as positions 0..n-1. `change` may throw to abort without writing.
   */
  async editTracks(playlistId: string, change: (current: { trackId: string; addedAt: Date }[]) => { trackId: string; addedAt: Date }[]): Promise<void> {
    await (this.db as Db).transaction(async (tx) => {
      await tx.select({ id: playlists.id }).from(playlists).where(eq(playlists.id, playlistId)).for('update');
      const current = await tx
        .select({ trackId: playlistTracks.trackId, addedAt: playlistTracks.addedAt })
        .from(playlistTracks)
        .where(eq(playlistTracks.playlistId, playlistId))
        .orderBy(asc(playlistTracks.position));
      const next = change(current);
      await tx.delete(playlistTracks).where(eq(playlistTracks.playlistId, playlistId));
      if (next.length > 0) {
        await tx.insert(playlistTracks).values(next.map((entry, position) => ({ playlistId, position, trackId: entry.trackId, addedAt: entry.addedAt })));
      }
      await tx
        .update(playlists)
        .set({ updatedAt: sql`now()` })
        .where(eq(playlists.id, playlistId));
    });
  }

  /** A published track of the playlist's environment. */
  async findPublishedTrack(trackId: string, environment: Environment): Promise<string | null> {
    return (await this.catalog.trackRef(trackId, environment, { publishedOnly: true }))?.trackId ?? null;
  }
}
