/**
 * Playlists: a user's ordered track lists, public or private. Who sees one: its owner and admins always; anyone
 * else only when the playlist is public *and* the owner's profile has `playlists_public` (404 otherwise, so a
 * private playlist's existence is not revealed). Only the owner changes or deletes it (another user who can see
 * it gets 403, one who cannot gets 404). Rows of one environment are invisible from the other.
 */
import type { Principal } from '../../auth/principal.js';
import { Errors } from '../../errors.js';
import type { Clock } from '../../infra/clock/clock.js';
import { isAdmin, sessionUserId } from '../../auth/principal.js';
import { trackRef } from '../shared/track-ref.js';
import { MAX_PLAYLIST_TRACKS, type PlaylistRow, type PlaylistsStore, type PlaylistWithOwner } from './playlists.repository.js';

export function playlistSummary(row: PlaylistRow) {
  return {
    id: row.id,
    owner_id: row.ownerUserId,
    name: row.name,
    description: row.description,
    public: row.isPublic,
    track_count: row.trackCount,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export class PlaylistsService {
  constructor(
    private readonly repo: PlaylistsStore,
    private readonly clock: Clock,
  ) {}

  /** Whether the caller may read this playlist (see the module comment). */
  static canRead(caller: Principal, playlist: PlaylistWithOwner): boolean {
    if (playlist.environment !== caller.environment) return false;
    if (caller.userId === playlist.ownerUserId || isAdmin(caller)) return true;
    return playlist.isPublic && playlist.ownerPlaylistsPublic;
  }

  private async readable(caller: Principal, id: string): Promise<PlaylistWithOwner> {
    const playlist = await this.repo.find(id);
    if (!playlist || !PlaylistsService.canRead(caller, playlist)) throw Errors.notFound('Playlist', id);
    return playlist;
  }

  private async owned(caller: Principal, id: string): Promise<PlaylistWithOwner> {
    const userId = sessionUserId(caller);
    const playlist = await this.readable(caller, id);
    if (playlist.ownerUserId !== userId) throw Errors.forbidden('only the owner changes a playlist');
    return playlist;
  }

  async get(caller: Principal, id: string) {
    const playlist = await this.readable(caller, id);
    const entries = await this.repo.entries(playlist.id);
    return {
      ...playlistSummary({ ...playlist, trackCount: entries.length }),
      tracks: entries.map((entry) => ({ position: entry.position, added_at: entry.addedAt.toISOString(), track: trackRef(entry) })),
    };
  }

  async create(caller: Principal, body: { name: string; description?: string; public?: boolean }) {
    const userId = sessionUserId(caller);
    const name = body.name.trim();
    if (name === '') throw Errors.validation('name must not be blank');
    const row = await this.repo.create({
      ownerUserId: userId,
      environment: caller.environment,
      name,
      description: body.description ?? '',
      isPublic: body.public ?? true,
    });
    return this.get(caller, row.id);
  }

  async update(caller: Principal, id: string, patch: { name?: string; description?: string; public?: boolean }) {
    const playlist = await this.owned(caller, id);
    const change: { name?: string; description?: string; isPublic?: boolean } = {};
    if (patch.name !== undefined) {
      change.name = patch.name.trim();
      if (change.name === '') throw Errors.validation('name must not be blank');
    }
    if (patch.description !== undefined) change.description = patch.description;
    if (patch.public !== undefined) change.isPublic = patch.public;
    await this.repo.update(playlist.id, change);
    return this.get(caller, playlist.id);
  }

  async delete(caller: Principal, id: string): Promise<void> {
    const playlist = await this.owned(caller, id);
    await this.repo.delete(playlist.id);
  }

  /** Adds a track at `position` (0-based; the end when left out or past the end). A track already in it: 409. */
  async addTrack(caller: Principal, id: string, trackId: string, position?: number) {
    const playlist = await this.owned(caller, id);
    const found = await this.repo.findPublishedTrack(trackId, playlist.environment);
    if (!found) throw Errors.notFound('Track', trackId);
    const addedAt = this.clock.date();
    await this.repo.editTracks(playlist.id, (current) => {
      if (current.some((entry) => entry.trackId === found)) throw Errors.conflict('The track is already in the playlist', `track ${trackId}`);
      if (current.length >= MAX_PLAYLIST_TRACKS) throw Errors.conflict(`A playlist holds at most ${MAX_PLAYLIST_TRACKS} tracks`);
      const at = Math.min(position ?? current.length, current.length);
      return [...current.slice(0, at), { trackId: found, addedAt }, ...current.slice(at)];
    });
    return this.get(caller, playlist.id);
  }

  async removeTrack(caller: Principal, id: string, trackId: string) {
    const playlist = await this.owned(caller, id);
    await this.repo.editTracks(playlist.id, (current) => {
      const next = current.filter((entry) => entry.trackId !== trackId);
      if (next.length === current.length) throw Errors.notFound('Playlist track', trackId);
      return next;
    });
    return this.get(caller, playlist.id);
  }

  /** Sets the whole order: `trackIds` must name exactly the playlist's tracks, each once (409 otherwise). */
  async reorder(caller: Principal, id: string, trackIds: string[]) {
    const playlist = await this.owned(caller, id);
    await this.repo.editTracks(playlist.id, (current) => {
      const byId = new Map(current.map((entry) => [entry.trackId, entry]));
      const unique = new Set(trackIds);
      if (unique.size !== trackIds.length || trackIds.length !== current.length || trackIds.some((trackId) => !byId.has(trackId))) {
        throw Errors.conflict('The order must name every track of the playlist exactly once', `the playlist has ${current.length} tracks`);
      }
      return trackIds.map((trackId) => byId.get(trackId)!);
    });
    return this.get(caller, playlist.id);
  }
}
