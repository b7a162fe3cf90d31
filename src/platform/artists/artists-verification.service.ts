/**
 * Verifying artists (POST/DELETE /v1/admin/artists/{id}/verify). Verifying sets `verified` with who and when,
 * and raises `artist.verified` {artist_id, verified_by} once, when the flag turns on (a repeat changes nothing
 * and sends nothing), recorded in the webhooks' outbox in the transaction that sets the flag. Unverifying
 * clears it; the spec has no event for that.
 */
import type { Principal } from '../../auth/principal.js';
import type { Clock } from '../../infra/clock/clock.js';
import { Errors } from '../../errors.js';
import type { ArtistsRepository, ArtistRow } from './artists.repository.js';
import type { TransactionalPlatformEvents } from '../webhooks/platform-events.js';

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
    private readonly events: TransactionalPlatformEvents,
    private readonly clock: Clock,
  ) {}

  async setVerified(caller: Principal, slugOrId: string, verified: boolean) {
    const artist = await this.artists.find(slugOrId, caller.environment);
    if (!artist) throw Errors.notFound('Artist', slugOrId);
    const { row, raised } = await this.artists.setVerified(artist.id, verified, caller.userId, this.clock.date(), async (tx, changed) =>
      verified
        ? this.events.recordIn(tx, { event: 'artist.verified', data: { artist_id: changed.id, verified_by: caller.userId }, environment: caller.environment })
        : null,
    );
    await raised?.();
    return verificationJson(row);
  }
}
