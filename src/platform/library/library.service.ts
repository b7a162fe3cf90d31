/**
 * The caller's library: saved tracks and saved releases (albums, EPs, singles), in one list ordered by when they
 * were saved. POST and DELETE /v1/users/me/library/{id} take either: the id is looked up as a track first, then
 * as a release of the caller's environment.
 */
import type { Principal } from '../../auth/principal.js';
import { Errors } from '../../errors.js';
import { callerUserId, sessionUserId } from '../../auth/principal.js';
import { trackRef } from '../shared/track-ref.js';
import type { AlbumRefRow, LibraryRepository } from './library.repository.js';

function albumRef(row: AlbumRefRow) {
  return {
    id: row.albumId,
    slug: row.albumSlug,
    title: row.albumTitle,
    type: row.albumType,
    release_year: row.releaseYear,
    genre: row.genre,
    artist: row.artistName,
    artist_id: row.artistId,
    artist_slug: row.artistSlug,
  };
}

type TrackItem = { type: 'track'; saved_at: string; track: ReturnType<typeof trackRef> };
type AlbumItem = { type: 'album'; saved_at: string; album: ReturnType<typeof albumRef> };
export type LibraryItemView = TrackItem | AlbumItem;

export class LibraryService {
  constructor(private readonly repo: LibraryRepository) {}

  async list(caller: Principal, limit: number, offset: number) {
    const { entries, total } = await this.repo.entries(callerUserId(caller), caller.environment, limit, offset);
    const [trackRows, albumRows] = await Promise.all([
      this.repo.tracksByIds(entries.filter((e) => e.kind === 'track').map((e) => e.id)),
      this.repo.albumsByIds(entries.filter((e) => e.kind === 'album').map((e) => e.id)),
    ]);
    const tracks = new Map(trackRows.map((row) => [row.trackId, row]));
    const albums = new Map(albumRows.map((row) => [row.albumId, row]));
    const data = entries.flatMap((entry): LibraryItemView[] => {
      const saved_at = entry.savedAt.toISOString();
      if (entry.kind === 'track') {
        const row = tracks.get(entry.id);
        return row ? [{ type: 'track' as const, saved_at, track: trackRef(row) }] : [];
      }
      const row = albums.get(entry.id);
      return row ? [{ type: 'album' as const, saved_at, album: albumRef(row) }] : [];
    });
    return { data, total };
  }

  /**
   * Idempotent: saving a saved item answers the same item (created: false). A removed track, or an id that names
   * neither a track nor a release of the caller's environment, is 404.
   */
  async save(caller: Principal, id: string): Promise<{ created: boolean; item: LibraryItemView }> {
    const userId = sessionUserId(caller);
    const track = await this.repo.findTrack(id, caller.environment);
    if (track) {
      if (track.trackStatus !== 'published') throw Errors.notFound('Track', id);
      const { created, savedAt } = await this.repo.save(userId, caller.environment, track.trackId);
      return { created, item: { type: 'track' as const, saved_at: savedAt.toISOString(), track: trackRef(track) } };
    }
    const album = await this.repo.findAlbum(id, caller.environment);
    if (!album) throw Errors.notFound('Track or release', id);
    const { created, savedAt } = await this.repo.saveAlbum(userId, caller.environment, album.albumId);
    return { created, item: { type: 'album' as const, saved_at: savedAt.toISOString(), album: albumRef(album) } };
  }

  async remove(caller: Principal, id: string): Promise<void> {
    const userId = sessionUserId(caller);
    if (await this.repo.remove(userId, caller.environment, id)) return;
    if (!(await this.repo.removeAlbum(userId, caller.environment, id))) throw Errors.notFound('Library item', id);
  }
}
