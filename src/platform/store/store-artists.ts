/**
 * Which artist a store caller acts for, and whether it owns one: the rule products and payouts share
 * (split out of store.service.ts when it was divided into products, checkout and payouts).
 */
import { Errors } from '../../errors.js';
import type { ArtistRef, StoreRepository } from './store.repository.js';
import type { StoreCaller } from './store.types.js';

/** The artist reads the rule needs. */
export type StoreArtistReads = Pick<StoreRepository, 'artistByIdOrSlug' | 'artistsOwnedBy' | 'ensureSandboxTwins'>;

export class StoreArtists {
  constructor(private readonly repo: StoreArtistReads) {}

  owns(artist: ArtistRef, caller: StoreCaller): boolean {
    return caller.isAdmin || (caller.userId !== null && artist.ownerUserId === caller.userId);
  }

  /** The artist the caller acts for: the one named (theirs, or any for an admin), or their only one. */
  async artistFor(caller: StoreCaller, artistId: string | undefined): Promise<ArtistRef> {
    // A test key sells in the sandbox, as the sandbox twins of its owner's artists.
    if (caller.environment === 'test' && caller.userId !== null) await this.repo.ensureSandboxTwins(caller.userId);
    if (artistId !== undefined) {
      const artist = await this.repo.artistByIdOrSlug(artistId, caller.environment);
      if (!artist || !this.owns(artist, caller)) throw Errors.notFound('Artist', artistId);
      return artist;
    }
    if (caller.userId === null) throw Errors.forbidden('products belong to an artist account: use a user token or name artist_id');
    const owned = await this.repo.artistsOwnedBy(caller.userId, caller.environment);
    if (owned.length === 1) return owned[0];
    if (owned.length === 0) throw Errors.forbidden('this account manages no artist');
    throw Errors.validation('this account manages several artists: name one with artist_id', 'artist_id is required');
  }

  /** The artists whose payouts the caller sees: the one named (owned, or any for an admin), all for an admin (null), else its own. */
  async payoutArtists(caller: StoreCaller, artist: string | undefined): Promise<string[] | null> {
    if (artist !== undefined) {
      const found = await this.repo.artistByIdOrSlug(artist, caller.environment);
      if (!found || !this.owns(found, caller)) throw Errors.notFound('Artist', artist);
      return [found.id];
    }
    if (caller.isAdmin) return null;
    if (caller.userId === null) throw Errors.forbidden('payouts belong to an artist account');
    return (await this.repo.artistsOwnedBy(caller.userId, caller.environment)).map((a) => a.id);
  }
}
