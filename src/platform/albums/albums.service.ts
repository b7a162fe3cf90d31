/** Releases shaped for the API: summaries, tracks in release order, the store products that sell them. */
import type { UrlSigner } from '../../infra/blobs/url-signer.js';
import { Errors } from '../../errors.js';
import type { CatalogRepository } from '../catalog/catalog.repository.js';
import type { CatalogService } from '../catalog/catalog.service.js';
import type { AlbumFilter, AlbumProductRow, AlbumRow, AlbumsRepository } from './albums.repository.js';
import type { Environment } from '../../kernel/environment.js';

/** Cover links in answers live a day, as the catalog's. */
const LINK_TTL_SEC = 24 * 3600;

/** The store's read port: the active products that sell these releases (src/platform/store/module.ts publishes it). */
export interface ReleaseProducts {
  productsOfAlbums(albumIds: string[]): Promise<Map<string, AlbumProductRow[]>>;
}

export class AlbumsService {
  constructor(
    private readonly repo: AlbumsRepository,
    private readonly tracks: CatalogRepository,
    private readonly catalog: CatalogService,
    private readonly signer: UrlSigner,
    /** The store's read port: the products that sell a release. */
    private readonly products: ReleaseProducts,
  ) {}

  summary(row: AlbumRow) {
    return {
      id: row.id,
      slug: row.slug,
      title: row.title,
      type: row.type,
      artist_id: row.artistId,
      artist_slug: row.artistSlug,
      artist: row.artistName,
      artist_verified: row.artistVerified,
      genre: row.genre,
      release_year: row.releaseYear,
      track_count: row.trackCount,
      duration: Math.round(row.durationSec),
      cover_art_url: row.coverBlobKey ? this.signer.sign(row.coverBlobKey, LINK_TTL_SEC).url : null,
    };
  }

  async list(filter: AlbumFilter, limit: number, offset: number) {
    const { rows, total } = await this.repo.list(filter, limit, offset);
    return { data: rows.map((row) => this.summary(row)), total };
  }

  /** Releases with their published tracks in order. */
  async withTracks(rows: AlbumRow[]) {
    const tracks = await this.tracks.releaseTracks(rows.map((row) => row.id));
    return rows.map((row) => ({
      ...this.summary(row),
      tracks: tracks.filter((track) => track.albumId === row.id).map((track) => this.catalog.trackSummary(track)),
    }));
  }

  /** An artist's releases, newest first, with their tracks. */
  async ofArtist(artistId: string, limit: number) {
    return this.withTracks(await this.repo.ofArtist(artistId, limit));
  }

  /** A release (by id or slug) with its tracks and the store products that sell it. */
  async get(idOrSlug: string, environment: Environment) {
    const row = await this.repo.find(idOrSlug, environment);
    if (!row) throw Errors.notFound('Album', idOrSlug);
    const [[release], products] = await Promise.all([this.withTracks([row]), this.products.productsOfAlbums([row.id])]);
    return {
      ...release,
      products: (products.get(row.id) ?? []).map((p) => ({
        id: p.id,
        title: p.title,
        type: p.type,
        price: p.priceCents / 100,
        price_cents: p.priceCents,
        currency: p.currency,
      })),
    };
  }
}
