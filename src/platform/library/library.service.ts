/**
 * The caller's library: saved tracks. The platform has no albums or store releases yet, so the library holds
 * tracks only; every item carries `type: "track"` so albums can join the same list later.
 */
import type { Principal } from '../../auth/principal.js';
import { Errors } from '../../errors.js';
import { callerUserId, sessionUserId } from '../../auth/principal.js';
import { trackRef } from '../shared/track-ref.js';
import type { LibraryRepository } from './library.repository.js';

export class LibraryService {
  constructor(private readonly repo: LibraryRepository) {}

  async list(caller: Principal, limit: number, offset: number) {
    const { rows, total } = await this.repo.list(callerUserId(caller), caller.environment, limit, offset);
    return { data: rows.map((row) => ({ type: 'track' as const, saved_at: row.savedAt.toISOString(), track: trackRef(row) })), total };
  }

  /** Idempotent: saving a saved track answers the same item (created: false). A removed or unknown track is 404. */
  async save(caller: Principal, trackId: string) {
    const userId = sessionUserId(caller);
    const track = await this.repo.findTrack(trackId, caller.environment);
    if (!track || track.trackStatus !== 'published') throw Errors.notFound('Track', trackId);
    const { created, savedAt } = await this.repo.save(userId, caller.environment, track.trackId);
    return { created, item: { type: 'track' as const, saved_at: savedAt.toISOString(), track: trackRef(track) } };
  }

  async remove(caller: Principal, trackId: string): Promise<void> {
    const userId = sessionUserId(caller);
    if (!(await this.repo.remove(userId, caller.environment, trackId))) throw Errors.notFound('Library item', trackId);
  }
}
