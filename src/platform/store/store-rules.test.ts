/**
 * The store's domain rules, tested beside its services on an in-memory store: no database, milliseconds.
 * Products (the server's prices, the artist's own published tracks, songwriter splits summing to 100%, who sees
 * and changes what), checkout (the caller, the server's price, idempotency keys, one order and one
 * payment.success per paid session) and payouts (who sees whose sales, the onboarding link). The SQL behind the
 * repository, Stripe and the sandbox pages are covered through HTTP by test/platform/store-*.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { domainFailure as failure } from '../../../test/helpers/domain-failure.js';
import { DomainError } from '../../errors.js';
import { ManualClock } from '../../infra/clock/clock.js';
import type { ProcessorName } from '../../infra/payments/processor.js';
import type { PaymentProcessors } from '../../infra/payments/processors.js';
import { SandboxProcessor } from '../../infra/payments/sandbox-processor.js';
import { InProcessEventBus } from '../../infra/pubsub/in-process-bus.js';
import type { Environment } from '../../kernel/environment.js';
import { PLATFORM_EVENTS_CHANNEL, PlatformEvents } from '../webhooks/platform-events.js';
import type { DbOrTx } from '../../infra/db/client.js';
import { CheckoutService, type CheckoutRepository } from './checkout.service.js';
import { PayoutsService, type PayoutsRepository } from './payouts.service.js';
import { ProductsService, type ProductsRepository } from './products.service.js';
import { payoutLines, type PayoutLine } from './split.js';
import { StoreArtists, type StoreArtistReads } from './store-artists.js';
import type { ArtistRef, CheckoutRow, OrderRow, ProductRow, ProductView } from './store.repository.js';
import type { StoreCaller } from './store.types.js';

type Artist = ArtistRef & { environment: Environment };
type Track = { id: string; artistId: string; title: string; durationSec: number; published: boolean };
type Release = { id: string; slug: string; artistId: string; title: string; type: ProductRow['type']; trackIds: string[] };

/** The store repository's contract over maps: what each service reads and writes, and nothing of its SQL. */
/**
 * The in-memory store has no transaction to hand: PlatformEvents without an outbox records nothing in it (its
 * answer is the bus publish), so no handle is ever used.
 */
const NO_TRANSACTION = {} as DbOrTx;

class InMemoryStore implements StoreArtistReads, ProductsRepository, CheckoutRepository, PayoutsRepository {
  readonly artists: Artist[] = [];
  readonly tracks = new Map<string, Track>();
  readonly credits = new Map<string, { songwriterId: string; basisPoints: number }[]>();
  readonly releases: Release[] = [];
  readonly products = new Map<string, { row: ProductRow; trackIds: string[] }>();
  readonly checkouts: CheckoutRow[] = [];
  readonly orders: (OrderRow & { lines: PayoutLine[] })[] = [];
  readonly payoutAccounts = new Map<string, string>();
  readonly twinsEnsuredFor: string[] = [];

  async artistByIdOrSlug(value: string, environment: Environment) {
    return this.artists.find((a) => a.environment === environment && (a.id === value || a.slug === value)) ?? null;
  }

  async artistsOwnedBy(userId: string, environment: Environment) {
    return this.artists.filter((a) => a.ownerUserId === userId && a.environment === environment).sort((a, b) => a.slug.localeCompare(b.slug));
  }

  async ensureSandboxTwins(userId: string) {
    this.twinsEnsuredFor.push(userId);
  }

  async publishedTracksOf(artistId: string, trackIds: string[]) {
    return trackIds.filter((id) => this.tracks.get(id)?.artistId === artistId && this.tracks.get(id)?.published);
  }

  async creditsOf(trackIds: string[]) {
    return new Map(trackIds.map((id) => [id, this.credits.get(id) ?? []]));
  }

  async release(idOrSlug: string, environment: Environment) {
    const release = this.releases.find((r) => r.id === idOrSlug || r.slug === idOrSlug);
    if (!release || this.artists.find((a) => a.id === release.artistId)?.environment !== environment) return null;
    return { id: release.id, artistId: release.artistId, title: release.title, type: release.type, trackIds: release.trackIds };
  }

  private view(id: string, environment: Environment | null): ProductView | null {
    const stored = this.products.get(id);
    const artist = stored && this.artists.find((a) => a.id === stored.row.artistId);
    if (!stored || !artist || (environment !== null && artist.environment !== environment)) return null;
    const { environment: _environment, ...ref } = artist;
    const tracks = stored.trackIds.map((trackId, position) => {
      const track = this.tracks.get(trackId)!;
      return { id: track.id, title: track.title, durationSec: track.durationSec, position, audioBlobKey: null };
    });
    return { product: stored.row, artist: ref, tracks };
  }

  async product(id: string, environment: Environment | null = null) {
    return this.view(id, environment);
  }

  async listProducts(filter: Parameters<ProductsRepository['listProducts']>[0], limit: number, offset: number) {
    const artist = filter.artist === undefined ? null : await this.artistByIdOrSlug(filter.artist, filter.environment);
    if (filter.artist !== undefined && !artist) return { rows: [], total: 0 };
    const rows = [...this.products.keys()]
      .map((id) => this.view(id, filter.environment))
      .filter((v): v is ProductView => v !== null)
      .filter((v) => filter.statuses.includes(v.product.status) && (!artist || v.artist.id === artist.id) && (!filter.type || v.product.type === filter.type));
    return { rows: rows.slice(offset, offset + limit), total: rows.length };
  }

  async insertProduct(values: Parameters<ProductsRepository['insertProduct']>[0], trackIds: string[]) {
    const id = randomUUID();
    const at = new Date('2026-01-15T12:00:00Z');
    const row: ProductRow = {
      id,
      artistId: values.artistId,
      type: values.type,
      title: values.title,
      albumId: values.albumId ?? null,
      priceCents: values.priceCents,
      currency: values.currency ?? 'usd',
      status: values.status ?? 'active',
      createdAt: at,
      updatedAt: at,
    };
    this.products.set(id, { row, trackIds });
    return id;
  }

  async updateProduct(id: string, values: Partial<ProductRow>, trackIds: string[] | undefined, now: Date) {
    const stored = this.products.get(id)!;
    stored.row = { ...stored.row, ...values, updatedAt: now };
    if (trackIds) stored.trackIds = trackIds;
  }

  async payoutAccount(artistId: string, processor: ProcessorName) {
    return this.payoutAccounts.get(`${artistId}/${processor}`) ?? null;
  }

  async savePayoutAccount(artistId: string, processor: ProcessorName, accountId: string) {
    if (!this.payoutAccounts.has(`${artistId}/${processor}`)) this.payoutAccounts.set(`${artistId}/${processor}`, accountId);
  }

  /** As the unique (user, idempotency key) index: a second insert with a used key inserts nothing. */
  async insertCheckout(values: Parameters<CheckoutRepository['insertCheckout']>[0]) {
    if (values.idempotencyKey && (await this.checkoutByKey(values.userId, values.idempotencyKey))) return null;
    const row: CheckoutRow = {
      id: randomUUID(),
      userId: values.userId,
      productId: values.productId,
      artistId: values.artistId,
      amountCents: values.amountCents,
      platformFeeCents: values.platformFeeCents,
      currency: values.currency,
      processor: values.processor,
      livemode: values.livemode,
      environment: values.environment,
      processorSessionId: null,
      checkoutUrl: null,
      idempotencyKey: values.idempotencyKey ?? null,
      requestHash: values.requestHash ?? null,
      status: 'open',
      createdAt: values.createdAt ?? new Date(0),
      completedAt: null,
    };
    this.checkouts.push(row);
    return row;
  }

  async checkoutByKey(userId: string, idempotencyKey: string) {
    return this.checkouts.find((c) => c.userId === userId && c.idempotencyKey === idempotencyKey) ?? null;
  }

  async checkoutByProcessorId(processorSessionId: string) {
    return this.checkouts.find((c) => c.processorSessionId === processorSessionId) ?? null;
  }

  async setProcessorSession(id: string, processorSessionId: string, checkoutUrl: string) {
    const row = this.checkouts.find((c) => c.id === id)!;
    Object.assign(row, { processorSessionId, checkoutUrl });
    return row;
  }

  /** One order per session (its unique checkout_session_id), split into payout lines by the credits as they are now. */
  async completeCheckout<T>(session: CheckoutRow, reference: string, now: Date, inTransaction: (tx: DbOrTx, order: OrderRow) => Promise<T>) {
    const existing = this.orders.find((o) => o.checkoutSessionId === session.id);
    if (existing) return { order: existing, created: false, raised: await inTransaction(NO_TRANSACTION, existing) };
    const artistShareCents = session.amountCents - session.platformFeeCents;
    const trackIds = this.products.get(session.productId)!.trackIds;
    const order = {
      id: randomUUID(),
      checkoutSessionId: session.id,
      userId: session.userId,
      productId: session.productId,
      artistId: session.artistId,
      amountCents: session.amountCents,
      platformFeeCents: session.platformFeeCents,
      artistShareCents,
      currency: session.currency,
      processor: session.processor,
      livemode: session.livemode,
      environment: session.environment,
      processorReference: reference,
      createdAt: now,
      lines: payoutLines(
        artistShareCents,
        trackIds.map((trackId) => ({ trackId, credits: this.credits.get(trackId) ?? [] })),
      ),
    };
    this.orders.push(order);
    Object.assign(session, { status: 'completed', completedAt: now });
    return { order, created: true, raised: await inTransaction(NO_TRANSACTION, order) };
  }

  /** The environment's money: the sandbox's own orders, or live orders a live processor was paid for. */
  async payouts(artistIds: string[] | null, environment: Environment, limit: number, offset: number) {
    const rows = this.orders
      .filter((o) => (environment === 'live' ? o.environment === 'live' && o.livemode : o.environment === 'test'))
      .filter((o) => artistIds === null || artistIds.includes(o.artistId))
      .map(({ lines, ...order }) => ({
        ...order,
        lines: lines.map((line) => ({
          ...line,
          trackTitle: this.tracks.get(line.trackId)!.title,
          songwriterName: line.songwriterId && `name of ${line.songwriterId}`,
        })),
      }));
    return { rows: rows.slice(offset, offset + limit), total: rows.length };
  }
}

/** A 404's message, which names what was not found (the HTTP layer answers one NOT_FOUND code for all). */
async function missing(work: Promise<unknown>): Promise<string> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  expect((error as DomainError).kind).toBe('not_found');
  return (error as DomainError).message;
}

const caller = (userId: string | null, options: Partial<StoreCaller> = {}): StoreCaller => ({
  userId,
  isAdmin: false,
  apiKeyId: null,
  environment: 'live',
  ...options,
});

describe('the store (in-memory repository)', () => {
  let store: InMemoryStore;
  let clock: ManualClock;
  let artists: StoreArtists;
  let products: ProductsService;
  const owner = caller('owner-1');
  const admin = caller('admin-1', { isAdmin: true });
  const stranger = caller('stranger-1');
  let artist: Artist;
  let trackA: Track;
  let trackB: Track;

  function addArtist(slug: string, ownerUserId: string | null, environment: Environment = 'live'): Artist {
    const added = { id: randomUUID(), slug, name: `Name of ${slug}`, ownerUserId, environment };
    store.artists.push(added);
    return added;
  }

  function addTrack(artistId: string, title: string, published = true): Track {
    const track = { id: randomUUID(), artistId, title, durationSec: 180.4, published };
    store.tracks.set(track.id, track);
    return track;
  }

  beforeEach(() => {
    store = new InMemoryStore();
    clock = new ManualClock();
    artists = new StoreArtists(store);
    products = new ProductsService(store, artists, clock);
    artist = addArtist('the-band', 'owner-1');
    trackA = addTrack(artist.id, 'First');
    trackB = addTrack(artist.id, 'Second');
  });

  describe('which artist a caller acts for', () => {
    it('is the one named when the caller owns it (or is an admin), else 404 as for an unknown one', async () => {
      expect((await artists.artistFor(owner, 'the-band')).id).toBe(artist.id);
      expect((await artists.artistFor(admin, artist.id)).id).toBe(artist.id);
      expect(await missing(artists.artistFor(stranger, 'the-band'))).toBe('Artist not found');
      expect(await missing(artists.artistFor(owner, 'nobody'))).toBe('Artist not found');
    });

    it("is the caller's only artist when none is named; none or several, or no user, is refused", async () => {
      expect((await artists.artistFor(owner, undefined)).id).toBe(artist.id);
      expect((await failure(artists.artistFor(stranger, undefined))).kind).toBe('forbidden');
      expect((await failure(artists.artistFor(caller(null, { apiKeyId: 'key-1' }), undefined))).kind).toBe('forbidden');
      addArtist('side-project', 'owner-1');
      expect((await failure(artists.artistFor(owner, undefined))).kind).toBe('invalid');
    });

    it("acts for a test key's sandbox twins, made before they are looked up", async () => {
      const twin = addArtist('the-band', 'owner-1', 'test');
      expect((await artists.artistFor(caller('owner-1', { environment: 'test' }), undefined)).id).toBe(twin.id);
      expect(store.twinsEnsuredFor).toEqual(['owner-1']);
      await artists.artistFor(owner, undefined);
      expect(store.twinsEnsuredFor).toEqual(['owner-1']);
    });

    it("shows payouts of every artist to an admin (null), of the caller's own otherwise", async () => {
      addArtist('someone-else', 'owner-2');
      expect(await artists.payoutArtists(admin, undefined)).toBeNull();
      expect(await artists.payoutArtists(owner, undefined)).toEqual([artist.id]);
      expect(await artists.payoutArtists(stranger, undefined)).toEqual([]);
      expect(await missing(artists.payoutArtists(stranger, 'the-band'))).toBe('Artist not found');
      expect((await failure(artists.payoutArtists(caller(null), undefined))).kind).toBe('forbidden');
    });
  });

  describe('products', () => {
    it("sells the artist's published tracks at the server's price in cents, deduplicated in order, title trimmed", async () => {
      const product = await products.createProduct(owner, { title: '  Debut  ', type: 'ep', price: 9.99, track_ids: [trackB.id, trackA.id, trackB.id] });
      expect(product).toMatchObject({ title: 'Debut', type: 'ep', price: 9.99, price_cents: 999, currency: 'usd', status: 'active', artist_id: artist.id });
      expect(product.tracks.map((t) => [t.id, t.position, t.duration])).toEqual([
        [trackB.id, 1, 180],
        [trackA.id, 2, 180],
      ]);
    });

    it('refuses a price that is not whole cents or is outside 0.50 to 1,000,000.00', async () => {
      for (const price of [0.49, 9.999, 1_000_000.01, -1]) {
        expect(await failure(products.createProduct(owner, { title: 'X', type: 'single', price, track_ids: [trackA.id] }))).toEqual({
          kind: 'invalid',
          code: 'VALIDATION_FAILED',
        });
      }
      expect((await products.createProduct(owner, { title: 'X', type: 'single', price: 0.5, track_ids: [trackA.id] })).price_cents).toBe(50);
      expect((await products.createProduct(owner, { title: 'X', type: 'single', price: 1_000_000, track_ids: [trackA.id] })).price_cents).toBe(100_000_000);
      expect(store.products.size).toBe(2);
    });

    it("refuses another artist's track and an unpublished one as unknown tracks", async () => {
      const other = addTrack(addArtist('other', 'owner-2').id, 'Theirs');
      const draft = addTrack(artist.id, 'Draft', false);
      for (const track of [other, draft]) {
        expect(await missing(products.createProduct(owner, { title: 'X', type: 'single', price: 1, track_ids: [trackA.id, track.id] }))).toBe(
          'Track not found',
        );
      }
      expect(store.products.size).toBe(0);
    });

    it('refuses a track whose songwriter splits do not sum to 100%; none at all is fine', async () => {
      store.credits.set(trackA.id, [
        { songwriterId: 'sw-1', basisPoints: 6_000 },
        { songwriterId: 'sw-2', basisPoints: 3_000 },
      ]);
      expect(await failure(products.createProduct(owner, { title: 'X', type: 'ep', price: 5, track_ids: [trackA.id, trackB.id] }))).toEqual({
        kind: 'conflict',
        code: 'SPLITS_INVALID',
      });
      store.credits.get(trackA.id)![1].basisPoints = 4_000;
      expect((await products.createProduct(owner, { title: 'X', type: 'ep', price: 5, track_ids: [trackA.id, trackB.id] })).tracks).toHaveLength(2);
    });

    it("takes a release's title, type and tracks by default; a release of another artist is unknown", async () => {
      store.releases.push({ id: randomUUID(), slug: 'debut-lp', artistId: artist.id, title: 'Debut LP', type: 'album', trackIds: [trackA.id, trackB.id] });
      const product = await products.createProduct(owner, { price: 12, album_id: 'debut-lp' });
      expect(product).toMatchObject({ title: 'Debut LP', type: 'album', album_id: store.releases[0].id });
      expect(product.tracks.map((t) => t.id)).toEqual([trackA.id, trackB.id]);

      const theirs = addArtist('theirs', 'owner-2');
      store.releases.push({ id: randomUUID(), slug: 'their-lp', artistId: theirs.id, title: 'Theirs', type: 'album', trackIds: [] });
      expect(await missing(products.createProduct(owner, { price: 12, album_id: 'their-lp' }))).toBe('Album not found');
      expect((await failure(products.createProduct(owner, { price: 12 }))).kind).toBe('invalid');
      store.releases.push({ id: randomUUID(), slug: 'empty', artistId: artist.id, title: 'Empty', type: 'ep', trackIds: [] });
      expect((await failure(products.createProduct(owner, { price: 12, album_id: 'empty' }))).kind).toBe('invalid');
    });

    it('shows an archived product to its owner and admins only; only they may change a product', async () => {
      const { id } = await products.createProduct(owner, { title: 'X', type: 'single', price: 1, track_ids: [trackA.id] });
      expect(await failure(products.updateProduct(stranger, id, { price: 2 }))).toEqual({ kind: 'forbidden', code: 'FORBIDDEN' });
      clock.advance(60_000);
      const archived = await products.updateProduct(owner, id, { status: 'archived', price: 2.5, title: ' Renamed ' });
      expect(archived).toMatchObject({ status: 'archived', price_cents: 250, title: 'Renamed', updated_at: clock.date().toISOString() });

      expect(await missing(products.getProduct(id, stranger))).toBe('Product not found');
      expect(await missing(products.updateProduct(stranger, id, { status: 'active' }))).toBe('Product not found');
      expect((await products.getProduct(id, owner)).status).toBe('archived');
      expect((await products.getProduct(id, admin)).status).toBe('archived');
      expect((await products.listProducts({ environment: 'live' }, 10, 0)).total).toBe(0);
    });

    it("keeps each environment's products to itself", async () => {
      const { id } = await products.createProduct(owner, { title: 'X', type: 'single', price: 1, track_ids: [trackA.id] });
      expect(await missing(products.getProduct(id, caller('owner-1', { environment: 'test' })))).toBe('Product not found');
      expect((await products.listProducts({ environment: 'test' }, 10, 0)).total).toBe(0);
      expect((await products.listProducts({ environment: 'live', artist: 'the-band' }, 10, 0)).data.map((p) => p.id)).toEqual([id]);
    });
  });

  describe('checkout and payouts', () => {
    let bus: InProcessEventBus;
    let processors: PaymentProcessors;
    let checkout: CheckoutService;
    let payouts: PayoutsService;
    let productId: string;
    const buyer = caller('buyer-1');
    const events: unknown[] = [];

    beforeEach(async () => {
      bus = new InProcessEventBus();
      events.length = 0;
      await bus.subscribe(PLATFORM_EVENTS_CHANNEL, (event) => events.push(event));
      // The sandbox takes live payments here (a demo store), never live money.
      processors = { sandbox: new SandboxProcessor(Buffer.alloc(32, 7), 'https://station.test', clock), stripe: null, sandboxLive: true };
      checkout = new CheckoutService(store, processors, new PlatformEvents(bus, clock), clock, 'https://station.test');
      payouts = new PayoutsService(store, artists, processors, 'https://station.test');
      store.credits.set(trackA.id, [
        { songwriterId: 'sw-1', basisPoints: 7_500 },
        { songwriterId: 'sw-2', basisPoints: 2_500 },
      ]);
      productId = (await products.createProduct(owner, { title: 'Debut', type: 'ep', price: 10, track_ids: [trackA.id, trackB.id] })).id;
    });

    const delivered = () => new Promise((resolve) => setImmediate(resolve));

    it("opens a session for the calling user at the server's price only", async () => {
      expect((await failure(checkout.checkout(caller(null, { apiKeyId: 'key-1' }), { product_id: productId, price: 10, user_id: 'buyer-1' }, null))).kind).toBe(
        'forbidden',
      );
      expect((await failure(checkout.checkout(buyer, { product_id: productId, price: 10, user_id: 'someone-else' }, null))).kind).toBe('forbidden');
      expect(await failure(checkout.checkout(buyer, { product_id: productId, price: 9.99, user_id: 'buyer-1' }, null))).toEqual({
        kind: 'conflict',
        code: 'PRICE_MISMATCH',
      });
      const session = await checkout.checkout(buyer, { product_id: productId, price: 10, user_id: 'buyer-1' }, null);
      expect(session).toMatchObject({ processor: 'sandbox', product_id: productId, amount: 10, amount_cents: 1000, currency: 'usd', status: 'open' });
      expect(session.checkout_url).toMatch(/^https:\/\/station\.test\/.+token=/);
      expect(store.checkouts[0]).toMatchObject({ platformFeeCents: 150, livemode: false, environment: 'live' });
    });

    it('refuses an archived product, and live payments with no live processor (503)', async () => {
      await products.updateProduct(owner, productId, { status: 'archived' });
      expect(await missing(checkout.checkout(buyer, { product_id: productId, price: 10, user_id: 'buyer-1' }, null))).toBe('Product not found');
      await products.updateProduct(owner, productId, { status: 'active' });
      const noDemo = new CheckoutService(store, { ...processors, sandboxLive: false }, new PlatformEvents(bus, clock), clock, 'https://station.test');
      expect(await failure(noDemo.checkout(buyer, { product_id: productId, price: 10, user_id: 'buyer-1' }, null))).toEqual({
        kind: 'unavailable',
        code: 'PAYMENTS_UNAVAILABLE',
      });
      expect(store.checkouts).toHaveLength(0);
    });

    it('answers the same session for a repeated Idempotency-Key, and refuses the key with another body', async () => {
      const first = await checkout.checkout(buyer, { product_id: productId, price: 10, user_id: 'buyer-1' }, 'key-1');
      const again = await checkout.checkout(buyer, { product_id: productId, price: 10, user_id: 'buyer-1' }, 'key-1');
      expect(again).toEqual(first);
      const other = (await products.createProduct(owner, { title: 'Single', type: 'single', price: 10, track_ids: [trackB.id] })).id;
      expect(await failure(checkout.checkout(buyer, { product_id: other, price: 10, user_id: 'buyer-1' }, 'key-1'))).toEqual({
        kind: 'conflict',
        code: 'IDEMPOTENCY_KEY_REUSED',
      });
      expect(store.checkouts).toHaveLength(1);
    });

    it('turns a paid session into one order split by the credits, and announces it on every notice with one event', async () => {
      const session = await checkout.checkout(buyer, { product_id: productId, price: 10, user_id: 'buyer-1' }, null);
      const token = new URL(session.checkout_url).searchParams.get('token')!;
      expect(await missing(checkout.payInSandbox(session.session_id, 'forged.token'))).toBe('Checkout session not found');

      const order = await checkout.payInSandbox(session.session_id, token);
      clock.advance(5_000);
      const notAgain = await checkout.payInSandbox(session.session_id, token);
      expect(notAgain.id).toBe(order.id);
      expect(store.orders).toHaveLength(1);
      expect(order).toMatchObject({ amountCents: 1000, platformFeeCents: 150, artistShareCents: 850, livemode: false });
      expect(store.orders[0].lines.map((l) => [l.trackId, l.songwriterId, l.amountCents])).toEqual([
        [trackA.id, 'sw-1', 319],
        [trackA.id, 'sw-2', 106],
        [trackB.id, null, 425],
      ]);

      await delivered();
      expect(events).toHaveLength(2);
      expect(events[0]).toEqual(events[1]);
      expect(events[0]).toMatchObject({
        event: 'payment.success',
        environment: 'live',
        audience: { ownerUserId: 'owner-1' },
        data: { order_id: order.id, user_id: 'buyer-1', product_id: productId, amount: 10, amount_cents: 1000, livemode: false },
      });
    });

    it("counts a demo store's sandbox payments as nobody's money; the sandbox's own orders are the sandbox's", async () => {
      const session = await checkout.checkout(buyer, { product_id: productId, price: 10, user_id: 'buyer-1' }, null);
      await checkout.payInSandbox(session.session_id, new URL(session.checkout_url).searchParams.get('token')!);
      expect(await payouts.payouts(owner, undefined, 10, 0)).toEqual({ data: [], total: 0 });

      const twin = addArtist('the-band', 'owner-1', 'test');
      const twinTrack = addTrack(twin.id, 'Sandbox song');
      const sandboxOwner = caller('owner-1', { environment: 'test' });
      const sandboxProduct = await products.createProduct(sandboxOwner, { title: 'Test EP', type: 'ep', price: 4, track_ids: [twinTrack.id] });
      const testBuyer = caller('buyer-1', { environment: 'test' });
      const testSession = await checkout.checkout(testBuyer, { product_id: sandboxProduct.id, price: 4, user_id: 'buyer-1' }, null);
      await checkout.payInSandbox(testSession.session_id, new URL(testSession.checkout_url).searchParams.get('token')!);

      const seen = await payouts.payouts(sandboxOwner, undefined, 10, 0);
      expect(seen.total).toBe(1);
      expect(seen.data[0]).toMatchObject({ artist_id: twin.id, amount_cents: 400, platform_fee_cents: 60, artist_share_cents: 340 });
      expect(seen.data[0].splits).toEqual([
        { track_id: twinTrack.id, track_title: 'Sandbox song', songwriter_id: null, songwriter_name: null, split_pct: 100, amount_cents: 340 },
      ]);
      expect((await payouts.payouts(caller('stranger-1', { environment: 'test' }), undefined, 10, 0)).total).toBe(0);
      expect((await payouts.payouts(caller('admin-1', { isAdmin: true, environment: 'test' }), undefined, 10, 0)).total).toBe(1);
    });

    it('gives the artist an onboarding link, keeping the payout account made the first time', async () => {
      const first = await payouts.onboard(owner, undefined);
      expect(first).toMatchObject({ artist_id: artist.id, processor: 'sandbox' });
      expect(first.url).toMatch(/^https:\/\/station\.test\/.+\/onboarding\//);
      const account = store.payoutAccounts.get(`${artist.id}/sandbox`);
      expect(account).toBeDefined();
      await payouts.onboard(owner, 'the-band');
      expect([...store.payoutAccounts.values()]).toEqual([account]);
      expect(await missing(payouts.onboard(stranger, 'the-band'))).toBe('Artist not found');
    });
  });
});
