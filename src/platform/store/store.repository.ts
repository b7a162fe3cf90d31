/**
 * Store data of the seller and the checkout: products and their tracks, checkout sessions, orders with their
 * payout lines, payout accounts. The buyer's side (orders, purchased tracks) is buyer.repository.ts.
 */
import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../infra/db/client.js';
import { idEq } from '../../infra/db/ids.js';
import { storeCheckoutSessions, storeOrders, storePayoutAccounts, storePayoutLines, storeProductTracks, storeProducts } from '../../infra/db/schema/index.js';
import type { ProcessorName } from '../../infra/payments/processor.js';
import { basisPoints, payoutLines, type TrackCredits } from './split.js';
import type { Environment } from '../../kernel/environment.js';
import type { ArtistRef, ReleaseTracks, SaleArtistTable, SaleSongwriterTable, SaleTrackTable, TrackCreditRow } from '../catalog/sales-reads.js';

export type ProductRow = typeof storeProducts.$inferSelect;
export type CheckoutRow = typeof storeCheckoutSessions.$inferSelect;
export type OrderRow = typeof storeOrders.$inferSelect;
export type { ArtistRef };

/** A product as a release's page offers it. */
export interface ReleaseProduct {
  id: string;
  title: string;
  type: ProductRow['type'];
  priceCents: number;
  currency: string;
}

export interface ProductTrack {
  id: string;
  title: string;
  durationSec: number;
  position: number;
  audioBlobKey: string | null;
}

export interface ProductView {
  product: ProductRow;
  artist: ArtistRef;
  tracks: ProductTrack[];
}

export interface ProductFilter {
  /** The caller's data space: a product is of its artist's environment. */
  environment: Environment;
  /** An artist's id or slug. */
  artist?: string;
  type?: ProductRow['type'];
  /** Archived products too (an owner's or admin's own listing). */
  statuses: ProductRow['status'][];
}

export interface PayoutLineView {
  trackId: string;
  trackTitle: string;
  songwriterId: string | null;
  songwriterName: string | null;
  splitBasisPoints: number;
  amountCents: number;
}

/**
 * The orders that count as money of an environment (payouts; analytics has the same rule in SQL): the
 * sandbox's own orders, or live orders a live processor was paid for. A demo store's sandbox payments for live
 * products are neither.
 */
export function moneyOf(environment: Environment): SQL {
  return environment === 'live' ? and(eq(storeOrders.environment, 'live'), eq(storeOrders.livemode, true))! : eq(storeOrders.environment, 'test');
}

/**
 * The orders that give their buyer what was bought (downloads, capsules unlocked by a purchase): those of the
 * environment, where a sandbox payment for a live product counts only while the demo store is on.
 */
export function entitlingOrders(environment: Environment, sandboxEntitles: boolean): SQL {
  return environment === 'live' && !sandboxEntitles ? moneyOf('live') : eq(storeOrders.environment, environment);
}

/**
 * The catalog's read port as the store uses it (its module's `salesReads`, src/platform/catalog/sales-reads.ts):
 * sellers, the tracks and releases products hold, credits, and the derived tables the store's own statements
 * join (products by their artist's environment, a product's tracks in the checkout's transaction, a purchased
 * track's audio, payout lines' names), so that each stays one statement filtered and paged by the database.
 */
export interface StoreCatalog {
  artists(): SaleArtistTable;
  tracks(): SaleTrackTable;
  songwriters(): SaleSongwriterTable;
  artistByIdOrSlug(value: string, environment: Environment): Promise<ArtistRef | null>;
  artistsOwnedBy(userId: string, environment: Environment): Promise<ArtistRef[]>;
  publishedTrackIdsOf(artistId: string, trackIds: string[]): Promise<string[]>;
  credits(trackIds: string[], tx?: DbOrTx): Promise<TrackCreditRow[]>;
  release(idOrSlug: string, environment: Environment): Promise<ReleaseTracks | null>;
}

/** The artists group's port (src/platform/artists/sandbox-twins.ts): a test key's owner's artists copied into the sandbox. */
export interface SandboxTwins {
  ensure(userId: string): Promise<void>;
}

/** A seller's fields, from the catalog's joined artists. */
function artistRefOf(artist: SaleArtistTable) {
  return { id: artist.id, slug: artist.slug, name: artist.name, ownerUserId: artist.ownerUserId };
}

export class StoreRepository {
  private readonly artists: SaleArtistTable;
  private readonly artistRef: ReturnType<typeof artistRefOf>;
  private readonly tracks: SaleTrackTable;

  constructor(
    private readonly db: Db,
    private readonly catalog: StoreCatalog,
    private readonly twins: SandboxTwins,
  ) {
    this.artists = catalog.artists();
    this.artistRef = artistRefOf(this.artists);
    this.tracks = catalog.tracks();
  }

  // ---- artists and tracks ----

  /** An artist of the environment (the sandbox's copy of an artist has its live original's slug). */
  artistByIdOrSlug(value: string, environment: Environment): Promise<ArtistRef | null> {
    return this.catalog.artistByIdOrSlug(value, environment);
  }

  ensureSandboxTwins = (userId: string): Promise<void> => this.twins.ensure(userId);

  artistsOwnedBy(userId: string, environment: Environment): Promise<ArtistRef[]> {
    return this.catalog.artistsOwnedBy(userId, environment);
  }

  /** The given tracks that are the artist's and published. */
  publishedTracksOf(artistId: string, trackIds: string[]): Promise<string[]> {
    return this.catalog.publishedTrackIdsOf(artistId, trackIds);
  }

  /** Each track's credits by songwriter, in basis points (a songwriter with two roles has one summed entry). */
  async creditsOf(trackIds: string[], db: DbOrTx = this.db): Promise<Map<string, { songwriterId: string; basisPoints: number }[]>> {
    const result = new Map<string, { songwriterId: string; basisPoints: number }[]>(trackIds.map((id) => [id, []]));
    if (trackIds.length === 0) return result;
    const rows = await this.catalog.credits(trackIds, db);
    for (const row of rows) {
      const list = result.get(row.trackId)!;
      const last = list[list.length - 1];
      if (last?.songwriterId === row.songwriterId) last.basisPoints += basisPoints(row.splitPct);
      else list.push({ songwriterId: row.songwriterId, basisPoints: basisPoints(row.splitPct) });
    }
    return result;
  }

  /** A release (by id or slug) and its published tracks in order: what a product selling it holds by default. */
  release(idOrSlug: string, environment: Environment): Promise<ReleaseTracks | null> {
    return this.catalog.release(idOrSlug, environment);
  }

  // ---- products ----

  private productWhere(filter: ProductFilter, artistId: string | null): SQL | undefined {
    const conditions: SQL[] = [eq(this.artists.environment, filter.environment), inArray(storeProducts.status, filter.statuses)];
    if (filter.type) conditions.push(eq(storeProducts.type, filter.type));
    if (artistId) conditions.push(eq(storeProducts.artistId, artistId));
    return and(...conditions);
  }

  async listProducts(filter: ProductFilter, limit: number, offset: number): Promise<{ rows: ProductView[]; total: number }> {
    let artistId: string | null = null;
    if (filter.artist) {
      const artist = await this.artistByIdOrSlug(filter.artist, filter.environment);
      if (!artist) return { rows: [], total: 0 };
      artistId = artist.id;
    }
    const where = this.productWhere(filter, artistId);
    const [rows, [{ total }]] = await Promise.all([
      this.db
        .select({ product: storeProducts, artist: this.artistRef })
        .from(storeProducts)
        .innerJoin(this.artists, eq(this.artists.id, storeProducts.artistId))
        .where(where)
        .orderBy(desc(storeProducts.createdAt), asc(storeProducts.id))
        .limit(limit)
        .offset(offset),
      this.db.select({ total: count() }).from(storeProducts).innerJoin(this.artists, eq(this.artists.id, storeProducts.artistId)).where(where),
    ]);
    const trackMap = await this.tracksOfProducts(rows.map((r) => r.product.id));
    return { rows: rows.map((r) => ({ ...r, tracks: trackMap.get(r.product.id) ?? [] })), total };
  }

  /** A product with artist and tracks, of the caller's environment (none: a checkout session's own product). */
  async product(id: string, environment: Environment | null = null, db: DbOrTx = this.db): Promise<ProductView | null> {
    const [row] = await db
      .select({ product: storeProducts, artist: this.artistRef })
      .from(storeProducts)
      .innerJoin(this.artists, eq(this.artists.id, storeProducts.artistId))
      .where(and(idEq(storeProducts.id, id), environment ? eq(this.artists.environment, environment) : undefined))
      .limit(1);
    if (!row) return null;
    const trackMap = await this.tracksOfProducts([row.product.id], db);
    return { ...row, tracks: trackMap.get(row.product.id) ?? [] };
  }

  private async tracksOfProducts(ids: string[], db: DbOrTx = this.db): Promise<Map<string, ProductTrack[]>> {
    const map = new Map<string, ProductTrack[]>();
    if (ids.length === 0) return map;
    const rows = await db
      .select({
        productId: storeProductTracks.productId,
        id: this.tracks.id,
        title: this.tracks.title,
        durationSec: this.tracks.durationSec,
        position: storeProductTracks.position,
        audioBlobKey: this.tracks.audioBlobKey,
      })
      .from(storeProductTracks)
      .innerJoin(this.tracks, eq(this.tracks.id, storeProductTracks.trackId))
      .where(inArray(storeProductTracks.productId, ids))
      .orderBy(asc(storeProductTracks.productId), asc(storeProductTracks.position));
    for (const { productId, ...track } of rows) {
      let list = map.get(productId);
      if (!list) map.set(productId, (list = []));
      list.push(track);
    }
    return map;
  }

  /** The active products that sell these releases, cheapest first (a release's page offers them). */
  async productsOfAlbums(albumIds: string[]): Promise<Map<string, ReleaseProduct[]>> {
    const byAlbum = new Map<string, ReleaseProduct[]>();
    if (albumIds.length === 0) return byAlbum;
    const rows = await this.db
      .select({
        albumId: storeProducts.albumId,
        id: storeProducts.id,
        title: storeProducts.title,
        type: storeProducts.type,
        priceCents: storeProducts.priceCents,
        currency: storeProducts.currency,
      })
      .from(storeProducts)
      .where(and(inArray(storeProducts.albumId, albumIds), eq(storeProducts.status, 'active')))
      .orderBy(asc(storeProducts.priceCents), desc(storeProducts.createdAt), asc(storeProducts.id));
    for (const { albumId, ...product } of rows) {
      let list = byAlbum.get(albumId!);
      if (!list) byAlbum.set(albumId!, (list = []));
      list.push(product);
    }
    return byAlbum;
  }

  async insertProduct(values: typeof storeProducts.$inferInsert, trackIds: string[]): Promise<string> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.insert(storeProducts).values(values).returning({ id: storeProducts.id });
      await tx.insert(storeProductTracks).values(trackIds.map((trackId, position) => ({ productId: row.id, trackId, position })));
      return row.id;
    });
  }

  async updateProduct(id: string, values: Partial<typeof storeProducts.$inferInsert>, trackIds: string[] | undefined, now: Date): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx
        .update(storeProducts)
        .set({ ...values, updatedAt: now })
        .where(eq(storeProducts.id, id));
      if (trackIds) {
        await tx.delete(storeProductTracks).where(eq(storeProductTracks.productId, id));
        await tx.insert(storeProductTracks).values(trackIds.map((trackId, position) => ({ productId: id, trackId, position })));
      }
    });
  }

  // ---- payout accounts ----

  async payoutAccount(artistId: string, processor: ProcessorName): Promise<string | null> {
    const [row] = await this.db
      .select({ accountId: storePayoutAccounts.accountId })
      .from(storePayoutAccounts)
      .where(and(eq(storePayoutAccounts.artistId, artistId), eq(storePayoutAccounts.processor, processor)));
    return row?.accountId ?? null;
  }

  async savePayoutAccount(artistId: string, processor: ProcessorName, accountId: string): Promise<void> {
    await this.db.insert(storePayoutAccounts).values({ artistId, processor, accountId }).onConflictDoNothing();
  }

  // ---- checkout sessions ----

  /** Inserts a session; with an idempotency key already used by this user, inserts nothing and answers null. */
  async insertCheckout(values: typeof storeCheckoutSessions.$inferInsert): Promise<CheckoutRow | null> {
    const rows = await this.db.insert(storeCheckoutSessions).values(values).onConflictDoNothing().returning();
    return rows[0] ?? null;
  }

  async checkoutByKey(userId: string, idempotencyKey: string): Promise<CheckoutRow | null> {
    const [row] = await this.db
      .select()
      .from(storeCheckoutSessions)
      .where(and(eq(storeCheckoutSessions.userId, userId), eq(storeCheckoutSessions.idempotencyKey, idempotencyKey)));
    return row ?? null;
  }

  async checkout(id: string): Promise<CheckoutRow | null> {
    const [row] = await this.db.select().from(storeCheckoutSessions).where(idEq(storeCheckoutSessions.id, id));
    return row ?? null;
  }

  async checkoutByProcessorId(processorSessionId: string): Promise<CheckoutRow | null> {
    const [row] = await this.db.select().from(storeCheckoutSessions).where(eq(storeCheckoutSessions.processorSessionId, processorSessionId));
    return row ?? null;
  }

  async setProcessorSession(id: string, processorSessionId: string, checkoutUrl: string): Promise<CheckoutRow> {
    const [row] = await this.db.update(storeCheckoutSessions).set({ processorSessionId, checkoutUrl }).where(eq(storeCheckoutSessions.id, id)).returning();
    return row;
  }

  // ---- orders ----

  /**
   * Turns a paid session into its order, once: the order's unique checkout_session_id makes a second
   * completion (a webhook delivered twice, a page posted twice, two instances at once) insert nothing.
   * The payout lines are computed from the credits as they are now and kept with the order. `inTransaction`
   * runs in the same transaction with the order (new or found), so that what it records (payment.success in
   * the webhooks' outbox) commits with the order; its answer is handed back.
   */
  async completeCheckout<T>(
    session: CheckoutRow,
    reference: string,
    now: Date,
    inTransaction: (tx: DbOrTx, order: OrderRow) => Promise<T>,
  ): Promise<{ order: OrderRow; created: boolean; raised: T }> {
    return this.db.transaction(async (tx) => {
      const inserted = await tx
        .insert(storeOrders)
        .values({
          checkoutSessionId: session.id,
          userId: session.userId,
          productId: session.productId,
          artistId: session.artistId,
          amountCents: session.amountCents,
          platformFeeCents: session.platformFeeCents,
          artistShareCents: session.amountCents - session.platformFeeCents,
          currency: session.currency,
          processor: session.processor,
          livemode: session.livemode,
          environment: session.environment,
          processorReference: reference,
          createdAt: now,
        })
        .onConflictDoNothing({ target: storeOrders.checkoutSessionId })
        .returning();
      if (inserted.length === 0) {
        const [existing] = await tx.select().from(storeOrders).where(eq(storeOrders.checkoutSessionId, session.id));
        return { order: existing, created: false, raised: await inTransaction(tx, existing) };
      }
      const order = inserted[0];
      const productTracks = await tx
        .select({ trackId: storeProductTracks.trackId })
        .from(storeProductTracks)
        .where(eq(storeProductTracks.productId, session.productId))
        .orderBy(asc(storeProductTracks.position));
      const credits = await this.creditsOf(
        productTracks.map((t) => t.trackId),
        tx,
      );
      const input: TrackCredits[] = productTracks.map((t) => ({ trackId: t.trackId, credits: credits.get(t.trackId) ?? [] }));
      const lines = payoutLines(order.artistShareCents, input);
      await tx.insert(storePayoutLines).values(lines.map((line) => ({ orderId: order.id, ...line })));
      await tx.update(storeCheckoutSessions).set({ status: 'completed', completedAt: now }).where(eq(storeCheckoutSessions.id, session.id));
      return { order, created: true, raised: await inTransaction(tx, order) };
    });
  }

  /** Sales of these artists (all artists when null) in the environment's money, newest first, each with its payout lines. */
  async payouts(
    artistIds: string[] | null,
    environment: Environment,
    limit: number,
    offset: number,
  ): Promise<{ rows: (OrderRow & { lines: PayoutLineView[] })[]; total: number }> {
    const conditions: SQL[] = [moneyOf(environment)];
    if (artistIds) conditions.push(artistIds.length > 0 ? inArray(storeOrders.artistId, artistIds) : sql`false`);
    const where = and(...conditions);
    const [orders, [{ total }]] = await Promise.all([
      this.db.select().from(storeOrders).where(where).orderBy(desc(storeOrders.createdAt), asc(storeOrders.id)).limit(limit).offset(offset),
      this.db.select({ total: count() }).from(storeOrders).where(where),
    ]);
    if (orders.length === 0) return { rows: [], total };
    const songwriters = this.catalog.songwriters();
    const lines = await this.db
      .select({
        orderId: storePayoutLines.orderId,
        trackId: storePayoutLines.trackId,
        trackTitle: this.tracks.title,
        songwriterId: storePayoutLines.songwriterId,
        songwriterName: songwriters.name,
        splitBasisPoints: storePayoutLines.splitBasisPoints,
        amountCents: storePayoutLines.amountCents,
      })
      .from(storePayoutLines)
      .innerJoin(this.tracks, eq(this.tracks.id, storePayoutLines.trackId))
      .leftJoin(songwriters, eq(songwriters.id, storePayoutLines.songwriterId))
      .where(
        inArray(
          storePayoutLines.orderId,
          orders.map((o) => o.id),
        ),
      )
      .orderBy(asc(storePayoutLines.orderId), asc(storePayoutLines.trackId), desc(storePayoutLines.amountCents), asc(storePayoutLines.songwriterId));
    const byOrder = new Map<string, PayoutLineView[]>();
    for (const { orderId, ...line } of lines) {
      let list = byOrder.get(orderId);
      if (!list) byOrder.set(orderId, (list = []));
      list.push(line);
    }
    return { rows: orders.map((o) => ({ ...o, lines: byOrder.get(o.id) ?? [] })), total };
  }
}
