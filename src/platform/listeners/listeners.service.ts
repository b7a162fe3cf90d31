/**
 * Listener profiles, play histories and playlists as others see them, and artist follows.
 *
 * Privacy, one rule for both settings of the owner's profile (src/platform/users): when `history_public` or
 * `playlists_public` is false, anyone but the owner and admins gets 403 PLATFORM_FORBIDDEN on that listing (the
 * profile itself stays readable and says which parts are private). A single private playlist is 404 to them
 * (src/platform/playlists). The country is shown to the owner and admins only: the profile has no setting to
 * publish it. A banned user's profile is 404 to everyone but admins.
 *
 * History comes from recorded play events (play_events) with the user's id: on-demand streams and radio plays of
 * catalog tracks alike. The sandbox records no plays, so a test credential sees an empty history.
 */
import type { Principal } from '../../auth/principal.js';
import { Errors } from '../../errors.js';
import type { PlaylistsRepository } from '../playlists/playlists.repository.js';
import { playlistSummary } from '../playlists/playlists.service.js';
import type { ProfileRow } from '../users/users.repository.js';
import { publicProfile } from '../users/users.service.js';
import type { FollowsRepository } from '../artists/follows.repository.js';

/** The artists group's follows (its module's `follows`): an artist by slug or id, a follow set, follows counted. */
export type ArtistFollows = Pick<FollowsRepository, 'findArtist' | 'setFollow' | 'countFollowing'>;
import type { HistoryRow } from '../catalog/listening-history.js';
import { isAdmin, sessionUserId } from '../../auth/principal.js';
import { trackRef } from '../shared/track-ref.js';

/** The users group's read port: a user with their profile (published by its module as `profiles`). */
export interface ProfileReads {
  find(userId: string): Promise<ProfileRow | null>;
}

/**
 * The catalog's read port (its module's `listeningHistory`, src/platform/catalog/listening-history.ts): the
 * catalog records the plays (`play_events`) and owns the tracks they name.
 */
export interface ListeningHistory {
  history(userId: string, limit: number, offset: number): Promise<{ rows: HistoryRow[]; total: number }>;
  countPlays(userId: string): Promise<number>;
}

export class ListenersService {
  constructor(
    private readonly users: ProfileReads,
    private readonly listeners: ListeningHistory,
    private readonly playlists: PlaylistsRepository,
    private readonly follows: ArtistFollows,
  ) {}

  private async subject(caller: Principal, id: string) {
    const row = await this.users.find(id);
    const privileged = isAdmin(caller) || caller.userId === row?.id;
    if (!row || (row.status !== 'active' && !isAdmin(caller))) throw Errors.notFound('Listener', id);
    return { profile: publicProfile(row), privileged };
  }

  async profile(caller: Principal, id: string) {
    const { profile, privileged } = await this.subject(caller, id);
    const showHistory = privileged || profile.history_public;
    const showPlaylists = privileged || profile.playlists_public;
    const [playlists, following, plays] = await Promise.all([
      showPlaylists ? this.playlists.listByOwner(profile.id, caller.environment, !privileged, 1, 0).then((r) => r.total) : null,
      this.follows.countFollowing(profile.id, caller.environment),
      showHistory ? (caller.environment === 'live' ? this.listeners.countPlays(profile.id) : 0) : null,
    ]);
    return {
      id: profile.id,
      display_name: profile.display_name,
      avatar_url: profile.avatar_url,
      country: privileged ? profile.country : null,
      history_public: profile.history_public,
      playlists_public: profile.playlists_public,
      counts: { playlists, following, plays },
      created_at: profile.created_at,
    };
  }

  async history(caller: Principal, id: string, limit: number, offset: number) {
    const { profile, privileged } = await this.subject(caller, id);
    if (!privileged && !profile.history_public) throw Errors.forbidden("this listener's play history is private");
    if (caller.environment !== 'live') return { data: [], total: 0 };
    const { rows, total } = await this.listeners.history(profile.id, limit, offset);
    return {
      data: rows.map((row) => ({ played_at: row.playedAt.toISOString(), source: row.source, seconds_played: row.secondsPlayed, track: trackRef(row) })),
      total,
    };
  }

  async playlistsOf(caller: Principal, id: string, limit: number, offset: number) {
    const { profile, privileged } = await this.subject(caller, id);
    if (!privileged && !profile.playlists_public) throw Errors.forbidden("this listener's playlists are private");
    const { rows, total } = await this.playlists.listByOwner(profile.id, caller.environment, !privileged, limit, offset);
    return { data: rows.map(playlistSummary), total };
  }

  /** Follows or unfollows an artist (slug or id), idempotently; answers the state and the follower count. */
  async setFollow(caller: Principal, artistSlugOrId: string, follow: boolean) {
    const userId = sessionUserId(caller);
    const artist = await this.follows.findArtist(artistSlugOrId, caller.environment);
    if (!artist) throw Errors.notFound('Artist', artistSlugOrId);
    const followers = await this.follows.setFollow(userId, artist.id, caller.environment, follow);
    return { artist_id: artist.id, artist_slug: artist.slug, following: follow, followers };
  }
}
