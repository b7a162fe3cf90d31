/**
 * Store products: albums, EPs and singles priced by their artist. The server decides every amount: a
 * client's price is only compared at checkout (checkout.service.ts), never used.
 */
import type { Clock } from '../../infra/clock/clock.js';
import { DomainError, Errors } from '../../errors.js';
import type { Environment } from '../../kernel/environment.js';
import type { StoreArtists } from './store-artists.js';
import type { ProductRow, ProductView, StoreRepository } from './store.repository.js';
import type { ProductInput, ProductPatch, StoreCaller } from './store.types.js';
import { priceToCents, productJson } from './store.views.js';

/** The store repository's part that products use. */
export type ProductsRepository = Pick<
  StoreRepository,
  'listProducts' | 'product' | 'release' | 'insertProduct' | 'updateProduct' | 'publishedTracksOf' | 'creditsOf'
>;

export class ProductsService {
  constructor(
    private readonly repo: ProductsRepository,
    private readonly artists: StoreArtists,
    private readonly clock: Clock,
  ) {}

  async listProducts(filter: { environment: Environment; artist?: string; type?: ProductRow['type'] }, limit: number, offset: number) {
    const { rows, total } = await this.repo.listProducts({ ...filter, statuses: ['active'] }, limit, offset);
    return { data: rows.map(productJson), total };
  }

  /** Active products for everyone; an archived one only for its artist's owner and admins. */
  async getProduct(id: string, caller: StoreCaller) {
    const view = await this.repo.product(id, caller.environment);
    if (!view || !this.canSee(view, caller)) throw Errors.notFound('Product', id);
    return productJson(view);
  }

  async createProduct(caller: StoreCaller, input: ProductInput) {
    const artist = await this.artists.artistFor(caller, input.artist_id);
    const priceCents = this.centsOf(input.price);
    const release = input.album_id === undefined ? null : await this.repo.release(input.album_id, caller.environment);
    if (input.album_id !== undefined && (!release || release.artistId !== artist.id)) throw Errors.notFound('Album', input.album_id);
    const title = input.title ?? release?.title;
    const type = input.type ?? release?.type;
    const given = input.track_ids ?? release?.trackIds;
    if (!title || !type || !given) throw Errors.validation('title, type and track_ids are required unless album_id names the release sold');
    if (given.length === 0) throw Errors.validation('the release has no published track to sell');
    const trackIds = await this.checkTracks(artist.id, given);
    const id = await this.repo.insertProduct(
      { artistId: artist.id, albumId: release?.id ?? null, type, title: title.trim(), priceCents, currency: input.currency ?? 'usd' },
      trackIds,
    );
    return productJson((await this.repo.product(id, caller.environment))!);
  }

  async updateProduct(caller: StoreCaller, id: string, patch: ProductPatch) {
    const view = await this.repo.product(id, caller.environment);
    if (!view || !this.canSee(view, caller)) throw Errors.notFound('Product', id);
    if (!this.artists.owns(view.artist, caller)) throw Errors.forbidden('only the artist who sells this product, or an admin, may change it');
    const values: Partial<ProductRow> = {};
    if (patch.title !== undefined) values.title = patch.title.trim();
    if (patch.price !== undefined) values.priceCents = this.centsOf(patch.price);
    if (patch.status !== undefined) values.status = patch.status;
    const trackIds = patch.track_ids === undefined ? undefined : await this.checkTracks(view.artist.id, patch.track_ids);
    await this.repo.updateProduct(view.product.id, values, trackIds, this.clock.date());
    return productJson((await this.repo.product(view.product.id, caller.environment))!);
  }

  private canSee(view: ProductView, caller: StoreCaller): boolean {
    return view.product.status === 'active' || this.artists.owns(view.artist, caller);
  }

  private centsOf(price: number): number {
    const cents = priceToCents(price);
    if (cents === null || cents < 50 || cents > 100_000_000) {
      throw Errors.validation('price must be a whole number of cents from 0.50 to 1,000,000.00', 'Invalid price');
    }
    return cents;
  }

  /** The tracks, deduplicated in order; each must be the artist's, published, with credits summing to 100% or none. */
  private async checkTracks(artistId: string, given: string[]): Promise<string[]> {
    const trackIds = [...new Set(given)];
    const found = new Set(await this.repo.publishedTracksOf(artistId, trackIds));
    const missing = trackIds.filter((id) => !found.has(id));
    if (missing.length > 0) throw Errors.notFound('Track', missing[0]);
    const credits = await this.repo.creditsOf(trackIds);
    for (const [trackId, list] of credits) {
      const sum = list.reduce((a, c) => a + c.basisPoints, 0);
      if (list.length > 0 && sum !== 10_000) {
        throw new DomainError(
          'conflict',
          'SPLITS_INVALID',
          'The songwriter splits of a track must sum to 100%',
          `track ${trackId}: credits sum to ${(sum / 100).toFixed(2)}%`,
        );
      }
    }
    return trackIds;
  }
}
