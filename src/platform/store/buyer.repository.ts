/** The buyer's side of the store's data: a user's orders, and the purchased tracks they may download. */
import { and, asc, count, desc, eq, exists } from 'drizzle-orm';
import type { Db } from '../../infra/db/client.js';
import { idEq, isUuid } from '../../infra/db/ids.js';
import { storeOrders, storeProducts, storeProductTracks } from '../../infra/db/schema/index.js';
import type { Environment } from '../../kernel/environment.js';
import type { SaleTrackTable } from '../catalog/sales-reads.js';
import { entitlingOrders, type OrderRow } from './store.repository.js';

export interface PurchasedTrack {
  orderId: string;
  trackId: string;
  title: string;
  audioBlobKey: string | null;
  audioBitrateKbps: number | null;
}

/**
 * The catalog's read port as the buyer's side uses it (its module's `salesReads`): the tracks, as a derived table
 * joined to the orders, so that "bought one of the artist's tracks" and "the latest order holding this track,
 * with its audio" each stay one statement.
 */
export interface BuyerCatalog {
  tracks(): SaleTrackTable;
}

export class BuyerRepository {
  private readonly tracks: SaleTrackTable;

  constructor(
    private readonly db: Db,
    catalog: BuyerCatalog,
  ) {
    this.tracks = catalog.tracks();
  }

  /** A store product's artist, or null when there is no such product (a capsule's unlock product must be its artist's). */
  async productArtist(productId: string): Promise<string | null> {
    const [row] = await this.db.select({ artistId: storeProducts.artistId }).from(storeProducts).where(idEq(storeProducts.id, productId)).limit(1);
    return row?.artistId ?? null;
  }

  /**
   * Whether the user holds an order of this environment for the product named, or when none is named for any
   * product that holds one of the artist's tracks. In the live environment a sandbox payment (never real money)
   * counts only while the operator runs a demo store (`sandboxEntitles`, entitlingOrders).
   */
  async hasBought(userId: string, environment: Environment, artistId: string, productId: string | null, sandboxEntitles: boolean): Promise<boolean> {
    const holdsArtistTrack = exists(
      this.db
        .select({ one: storeProductTracks.trackId })
        .from(storeProductTracks)
        .innerJoin(this.tracks, eq(this.tracks.id, storeProductTracks.trackId))
        .where(and(eq(storeProductTracks.productId, storeOrders.productId), eq(this.tracks.artistId, artistId))),
    );
    const [row] = await this.db
      .select({ id: storeOrders.id })
      .from(storeOrders)
      .where(
        and(eq(storeOrders.userId, userId), entitlingOrders(environment, sandboxEntitles), productId ? eq(storeOrders.productId, productId) : holdsArtistTrack),
      )
      .limit(1);
    return row !== undefined;
  }

  /** The user's orders of the environment (a test key never lists live orders, nor a live caller sandbox ones). */
  async ordersOf(userId: string, environment: Environment, limit: number, offset: number): Promise<{ rows: OrderRow[]; total: number }> {
    const where = and(eq(storeOrders.userId, userId), eq(storeOrders.environment, environment));
    const [rows, [{ total }]] = await Promise.all([
      this.db.select().from(storeOrders).where(where).orderBy(desc(storeOrders.createdAt), asc(storeOrders.id)).limit(limit).offset(offset),
      this.db.select({ total: count() }).from(storeOrders).where(where),
    ]);
    return { rows, total };
  }

  /** The buyer's latest entitling order whose product holds this track, with the track's audio; null when none. */
  async purchasedTrack(userId: string, trackId: string, environment: Environment, sandboxEntitles: boolean): Promise<PurchasedTrack | null> {
    if (!isUuid(trackId)) return null;
    const [row] = await this.db
      .select({
        orderId: storeOrders.id,
        trackId: this.tracks.id,
        title: this.tracks.title,
        audioBlobKey: this.tracks.audioBlobKey,
        audioBitrateKbps: this.tracks.audioBitrateKbps,
      })
      .from(storeOrders)
      .innerJoin(storeProductTracks, eq(storeProductTracks.productId, storeOrders.productId))
      .innerJoin(this.tracks, eq(this.tracks.id, storeProductTracks.trackId))
      .where(and(eq(storeOrders.userId, userId), eq(storeProductTracks.trackId, trackId), entitlingOrders(environment, sandboxEntitles)))
      .orderBy(desc(storeOrders.createdAt))
      .limit(1);
    return row ?? null;
  }
}
