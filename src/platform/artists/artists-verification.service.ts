/**
 * Verifying artists (POST/DELETE /v1/admin/artists/{id}/verify). Verifying sets `verified` with who and when,
 * and emits `artist.verified` {artist_id, verified_by} once, when the flag turns on (a repeat changes nothing
 * and sends nothing). Unverifying clears it; the spec has no event for that.
 */
import type { Principal } from '../../auth/principal.js';
import type { Clock } from '../../infra/clock/clock.js';
import { Errors } from '../../errors.js';
import type { ArtistsRepository, ArtistRow } from './artists.repository.js';
import type { PlatformEvents } from '../webhooks/platform-events.js';

export function verificationJson(row: ArtistRow) {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    verified: row.verified,
    verified_at: row.verifiedAt?.toISOString() ?? null,
    verified_by: row.verifiedBy,
  };
}

export class ArtistVerificationService {
  constructor(
    private readonly artists: ArtistsRepository,
    private readonly events: PlatformEvents,
    private readonly clock: Clock,
  ) {}

  async setVerified(caller: Principal, slugOrId: string, verified: boolean) {
    const artist = await this.artists.find(slugOrId, caller.environment);
    if (!artist) throw Errors.notFound('Artist', slugOrId);
    const { row, changed } = await this.artists.setVerified(artist.id, verified, caller.userId, this.clock.date());
    if (changed && verified) await this.events.emit('artist.verified', { artist_id: row.id, verified_by: caller.userId }, caller.environment);
    return verificationJson(row);
  }
}
