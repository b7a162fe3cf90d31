/** Artists shaped for the API: summaries, the profile with its discography, the artist's tracks. */
import type { Principal } from '../../auth/principal.js';
import { Errors } from '../../errors.js';
import type { AlbumsService } from '../albums/albums.service.js';
import type { CatalogService } from '../catalog/catalog.service.js';
import type { ArtistFilter, ArtistRow, ArtistsRepository } from './artists.repository.js';

/** Module B's read port (the station's dataset manager, its `artistStatus`): whether training takes an artist's masters. */
export interface ArtistDatasetStatus {
  datasetStatus(artistId: string): Promise<'included' | 'excluded'>;
}

/** How many releases, and how many tracks on no release, a profile shows. */
const PROFILE_LIMIT = 100;

export class ArtistsService {
  constructor(
    private readonly repo: ArtistsRepository,
    private readonly catalog: CatalogService,
    private readonly albums: AlbumsService,
    /** The station's training dataset status of a platform-owned artist (a virtual artist's profile shows it). */
    private readonly dataset: ArtistDatasetStatus,
  ) {}

  summary(row: ArtistRow, followers = row.followers) {
    return { id: row.id, slug: row.slug, name: row.name, genre: row.genre, verified: row.verified, platform_owned: row.platformOwned, followers };
  }

  async list(filter: ArtistFilter, limit: number, offset: number) {
    const { rows, total } = await this.repo.list(filter, limit, offset);
    return { data: rows.map((row) => this.summary(row)), total };
  }

  private async find(slugOrId: string, environment: Principal['environment']): Promise<ArtistRow> {
    const row = await this.repo.find(slugOrId, environment);
    if (!row) throw Errors.notFound('Artist', slugOrId);
    return row;
  }

  /** The profile: the artist, its releases with their tracks, its other tracks, followers as the caller's environment counts them. */
  async profile(caller: Principal, slugOrId: string) {
    const row = await this.find(slugOrId, caller.environment);
    const [followers, following, songwriters, datasetStatus, discography, others] = await Promise.all([
      this.repo.followers(row, caller.environment),
      caller.userId ? this.repo.isFollowing(caller.userId, row.id, caller.environment) : null,
      this.repo.songwritersOf(row.id),
      row.platformOwned ? this.dataset.datasetStatus(row.id) : null,
      this.albums.ofArtist(row.id, PROFILE_LIMIT),
      this.catalog.listTracks({ environment: caller.environment, artistId: row.id, onRelease: false }, PROFILE_LIMIT, 0),
    ]);
    return {
      ...this.summary(row, followers),
      bio: row.bio,
      formed_year: row.formedYear,
      country: row.country,
      verified_at: row.verifiedAt?.toISOString() ?? null,
      following,
      virtual_artist: datasetStatus ? { operated_by: 'platform' as const, training_dataset: datasetStatus } : null,
      songwriters,
      discography,
      other_tracks: others.data,
    };
  }

  /** The artist's published tracks, most streamed first. */
  async tracks(caller: Principal, slugOrId: string, limit: number, offset: number) {
    const row = await this.find(slugOrId, caller.environment);
    return this.catalog.listTracks({ environment: caller.environment, artistId: row.id }, limit, offset);
  }
}
