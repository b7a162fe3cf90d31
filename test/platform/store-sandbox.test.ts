/**
 * The store end to end with the built-in sandbox processor of a demo store (STATION_STORE_SANDBOX_LIVE: its orders
 * are never live money, store-livemode.test.ts): products priced by their artist (and only by
 * them), checkout refusing a client's price and another user's id, Idempotency-Key, the sandbox page's Pay
 * button creating one order, payment.success through the webhook engine, downloads for the buyer only, and
 * the payout lines' 85/15 split divided by songwriter credits without losing a cent (kept out of live payouts).
 */
import { createHmac, randomUUID } from 'node:crypto';
import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/infra/clock/clock.js';
import { artists, storeOrders, storePayoutLines, tracks, webhookDeliveries } from '../../src/infra/db/schema/index.js';
import { buildTestStation, staffLogin, type TestStation } from '../helpers/station.js';
import { expectEnvelope } from '../foundation/support.js';
import { registerWebhook, startReceiver, type Receiver } from '../webhooks/support.js';
import { createProduct, headers, seedArtist, userWithRole, type SeededArtist, type User } from './store-support.js';

const clock = new ManualClock(Date.UTC(2026, 2, 1, 12, 0, 0));
let station: TestStation;
let artist: SeededArtist;
let otherArtist: SeededArtist;
let buyer: User;
let stranger: User;
let admin: User;
let adminHookId: string;
let developerHookId: string;
let receiver: Receiver;
let sandboxReceiver: Receiver;
let hookSecret: string;

beforeAll(async () => {
  station = await buildTestStation(
    { STATION_WEBHOOK_ALLOWED_HOSTS: 'loopback', STATION_STORE_SANDBOX_LIVE: 'true' },
    { clock, webhooks: { retry: { baseMs: 10, maxAttempts: 2 } } },
  );
  artist = await seedArtist(station, 'Neon Tidewater');
  otherArtist = await seedArtist(station, 'Quiet Radiator');
  buyer = await userWithRole(station, 'listener');
  stranger = await userWithRole(station, 'listener');
  admin = await staffLogin(station);
  receiver = await startReceiver();
  sandboxReceiver = await startReceiver();
  const adminHook = await registerWebhook(station, admin, receiver.url, ['payment.success']);
  [hookSecret, adminHookId] = [adminHook.secret, adminHook.id];
  // payment.success reaches the selling artist's owner and admins: a developer may ask for it and hears nothing of others' sales.
  developerHookId = (await registerWebhook(station, await userWithRole(station, 'developer'), `${receiver.url}?developer`, ['payment.success'])).id;
});
afterAll(async () => {
  await station?.destroy();
  await receiver?.close();
  await sandboxReceiver?.close();
});

const inject = (method: 'GET' | 'POST' | 'PATCH', url: string, who: User | null, payload?: unknown, extra: Record<string, string> = {}) =>
  station.http.inject({ method, url, headers: { ...(who ? headers(who) : {}), ...extra }, ...(payload === undefined ? {} : { payload: payload as object }) });

/** Opens the checkout page and presses Pay, as a browser would. */
async function payInBrowser(checkoutUrl: string) {
  const url = new URL(checkoutUrl);
  const pageResponse = await station.http.inject({ method: 'GET', url: url.pathname + url.search });
  expect(pageResponse.statusCode).toBe(200);
  expect(pageResponse.headers['content-type']).toMatch(/^text\/html/);
  const form = /<form method="post" action="([^"]+)"><input type="hidden" name="token" value="([^"]+)">/.exec(pageResponse.body);
  expect(form).not.toBeNull();
  return station.http.inject({
    method: 'POST',
    url: form![1],
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ token: form![2] }).toString(),
  });
}

describe('products', () => {
  it('are created by their artist at the artist’s price, listed with filters and paginated', async () => {
    const album = await createProduct(station, artist, { title: 'Harbour Nights', price: 12.5 });
    expect(album).toMatchObject({ price: 12.5, price_cents: 1250, currency: 'usd', status: 'active', artist_id: artist.id });
    expect(album.tracks.map((t) => t.id)).toEqual(artist.trackIds);
    await createProduct(station, artist, { title: 'Single One', type: 'single', price: 1.29, track_ids: [artist.trackIds[2]] });

    const singles = await inject('GET', `/v1/store/products?artist=${artist.slug}&type=single`, buyer);
    expect(singles.statusCode).toBe(200);
    expect(singles.json()).toMatchObject({ total: 1, page: 1, limit: 20 });
    expect(singles.json().data[0]).toMatchObject({ title: 'Single One', type: 'single', price: 1.29 });

    const paged = await inject('GET', `/v1/store/products?artist=${artist.id}&limit=1&page=2`, buyer);
    expect(paged.json()).toMatchObject({ total: 2, page: 2, limit: 1 });
    expect(paged.json().data).toHaveLength(1);
    expect((await inject('GET', '/v1/store/products?artist=nobody-at-all', buyer)).json()).toMatchObject({ data: [], total: 0 });
  });

  it('are changed only by their artist or an admin; others get 403, listeners lack the artist scope', async () => {
    const product = await createProduct(station, artist, { title: 'Draft' });
    const byOther = await inject('PATCH', `/v1/store/products/${product.id}`, otherArtist.owner, { price: 0.99 });
    expectEnvelope(byOther, 403, 'PLATFORM_FORBIDDEN');
    expectEnvelope(await inject('PATCH', `/v1/store/products/${product.id}`, buyer, { price: 0.99 }), 403, 'PLATFORM_INSUFFICIENT_SCOPE');
    expectEnvelope(
      await inject('POST', '/v1/store/products', buyer, { title: 'x', type: 'single', price: 1, track_ids: [artist.trackIds[0]] }),
      403,
      'PLATFORM_INSUFFICIENT_SCOPE',
    );

    const changed = await inject('PATCH', `/v1/store/products/${product.id}`, artist.owner, { price: 7, title: 'Final' });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ price: 7, price_cents: 700, title: 'Final' });

    // Archived: gone for others (404), still there for its artist.
    await inject('PATCH', `/v1/store/products/${product.id}`, artist.owner, { status: 'archived' });
    expectEnvelope(await inject('GET', `/v1/store/products/${product.id}`, buyer), 404, 'PLATFORM_NOT_FOUND');
    expect((await inject('GET', `/v1/store/products/${product.id}`, artist.owner)).statusCode).toBe(200);
  });

  it('refuse another artist’s tracks, splits not summing to 100%, and sub-cent prices', async () => {
    expectEnvelope(
      await inject('POST', '/v1/store/products', artist.owner, { title: 'Theft', type: 'single', price: 1, track_ids: [otherArtist.trackIds[0]] }),
      404,
      'PLATFORM_NOT_FOUND',
    );
    expectEnvelope(
      await inject('POST', '/v1/store/products', artist.owner, { title: 'x', type: 'single', price: 1.001, track_ids: [artist.trackIds[0]] }),
      400,
      'PLATFORM_VALIDATION_FAILED',
    );
    const { trackCredits } = await import('../../src/infra/db/schema/index.js');
    const { and, sql } = await import('drizzle-orm');
    const { db } = station.database;
    const lastCredit = and(eq(trackCredits.trackId, artist.trackIds[0]), eq(trackCredits.songwriterId, artist.writers[2]));
    // The database refuses splits that do not sum to 100% (drizzle/0022); rows written before that rule could still
    // be off, which this simulates by writing around the rule.
    await expect(db.update(trackCredits).set({ splitPct: 10 }).where(lastCredit)).rejects.toThrow();
    await db.transaction(async (tx) => {
      await tx.execute(sql`alter table track_credits disable trigger track_credits_splits_total`);
      await tx.update(trackCredits).set({ splitPct: 10 }).where(lastCredit);
      await tx.execute(sql`alter table track_credits enable trigger track_credits_splits_total`);
    });
    try {
      const refused = await inject('POST', '/v1/store/products', artist.owner, {
        title: 'Bad splits',
        type: 'single',
        price: 1,
        track_ids: [artist.trackIds[0]],
      });
      expect(expectEnvelope(refused, 409, 'PLATFORM_SPLITS_INVALID').detail).toContain('90.00%');
    } finally {
      await db
        .update(trackCredits)
        .set({ splitPct: 20 })
        .where(and(eq(trackCredits.trackId, artist.trackIds[0]), eq(trackCredits.songwriterId, artist.writers[2])));
    }
  });

  it('answer 404 for an id of any shape', async () => {
    for (const id of ['nope', '00000000-0000-0000-0000-000000000000', 'x'.repeat(300)]) {
      expectEnvelope(await inject('GET', `/v1/store/products/${id}`, buyer), 404, 'PLATFORM_NOT_FOUND');
    }
  });
});

describe('checkout with the sandbox processor', () => {
  it('refuses a price other than the product’s and a user_id that is not the caller', async () => {
    const product = await createProduct(station, artist, { price: 9.99 });
    const cheap = await inject('POST', '/v1/checkout', buyer, { product_id: product.id, price: 0.01, user_id: buyer.userId });
    expect(expectEnvelope(cheap, 409, 'PLATFORM_PRICE_MISMATCH').detail).toContain('9.99 usd');
    expectEnvelope(await inject('POST', '/v1/checkout', buyer, { product_id: product.id, price: 9.99, user_id: stranger.userId }), 403, 'PLATFORM_FORBIDDEN');
    expectEnvelope(await inject('POST', '/v1/checkout', buyer, { product_id: 'missing', price: 9.99, user_id: buyer.userId }), 404, 'PLATFORM_NOT_FOUND');
    expectEnvelope(await inject('POST', '/v1/checkout', null, { product_id: product.id, price: 9.99, user_id: buyer.userId }), 401, 'PLATFORM_AUTH_REQUIRED');
    const noCsrf = await station.http.inject({
      method: 'POST',
      url: '/v1/checkout',
      headers: { authorization: `Bearer ${buyer.token}` },
      payload: { product_id: product.id, price: 9.99, user_id: buyer.userId },
    });
    expectEnvelope(noCsrf, 403, 'PLATFORM_CSRF_INVALID');
  });

  it('with one Idempotency-Key answers one session and makes one order, however often it is retried or paid', async () => {
    const product = await createProduct(station, artist, { title: 'Retry Me', price: 9.99 });
    const body = { product_id: product.id, price: 9.99, user_id: buyer.userId };
    const key = { 'idempotency-key': `order-${product.id}` };
    const answers = await Promise.all([
      inject('POST', '/v1/checkout', buyer, body, key),
      inject('POST', '/api/checkout', buyer, body, key),
      inject('POST', '/v1/checkout', buyer, body, key),
    ]);
    for (const answer of answers) expect(answer.statusCode).toBe(200);
    const sessions = new Set(answers.map((a) => a.json().session_id));
    expect(sessions.size).toBe(1);
    const session = answers[0].json();
    expect(session).toMatchObject({ processor: 'sandbox', amount: 9.99, amount_cents: 999, currency: 'usd', status: 'open' });
    expect(session.checkout_url).toMatch(/^http:\/\/station\.test\/v1\/store\/sandbox\/checkout\//);

    // The same key with another body is refused.
    expectEnvelope(
      await inject('POST', '/v1/checkout', buyer, { ...body, product_id: (await createProduct(station, artist)).id }, key),
      409,
      'PLATFORM_IDEMPOTENCY_KEY_REUSED',
    );

    const paid = await Promise.all([payInBrowser(session.checkout_url), payInBrowser(session.checkout_url)]);
    for (const answer of paid) {
      expect(answer.statusCode).toBe(200);
      expect(answer.body).toContain('Payment complete');
    }
    const after = await inject('POST', '/v1/checkout', buyer, body, key);
    expect(after.json()).toMatchObject({ session_id: session.session_id, status: 'completed' });

    const orders = await station.database.db.select().from(storeOrders).where(eq(storeOrders.productId, product.id));
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ userId: buyer.userId, amountCents: 999, platformFeeCents: 149, artistShareCents: 850 });

    // payment.success, delivered once, signed by the webhook engine.
    const [delivery] = await receiver.waitFor(orders[0].id, 1);
    const envelope = JSON.parse(delivery.body);
    expect(envelope.event).toBe('payment.success');
    expect(envelope.data).toMatchObject({ order_id: orders[0].id, user_id: buyer.userId, product_id: product.id, amount: 9.99 });
    expect(delivery.headers['x-platform-signature']).toBe(`sha256=${createHmac('sha256', hookSecret).update(delivery.body).digest('hex')}`);
    // Both Pay presses sent the event with one event id: the engine keeps one delivery of it.
    const { webhookDeliveries } = await import('../../src/infra/db/schema/index.js');
    const { like } = await import('drizzle-orm');
    const rows = await station.database.db
      .select()
      .from(webhookDeliveries)
      .where(like(webhookDeliveries.payload, `%${orders[0].id}%`));
    expect(new Set(rows.map((r) => r.eventId)).size).toBe(1);
    expect(rows.filter((r) => r.attempt === 1)).toHaveLength(1);
    expect(rows.map((r) => r.webhookId)).toContain(adminHookId);
    expect(rows.map((r) => r.webhookId)).not.toContain(developerHookId);

    const listed = await inject('GET', '/v1/store/orders', buyer);
    expect(listed.json().data.map((o: { id: string }) => o.id)).toContain(orders[0].id);
    expect((await inject('GET', '/v1/store/orders', stranger)).json()).toMatchObject({ data: [], total: 0 });
  });

  it('pages answer 404 for an altered or missing token and change nothing', async () => {
    const product = await createProduct(station, artist, { price: 3 });
    const session = (await inject('POST', '/v1/checkout', buyer, { product_id: product.id, price: 3, user_id: buyer.userId })).json();
    const url = new URL(session.checkout_url);
    const forged = url.searchParams.get('token')!.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    expectEnvelope(await station.http.inject({ method: 'GET', url: `${url.pathname}?token=${forged}` }), 404, 'PLATFORM_NOT_FOUND');
    expectEnvelope(await station.http.inject({ method: 'GET', url: url.pathname }), 404, 'PLATFORM_NOT_FOUND');
    const pay = await station.http.inject({
      method: 'POST',
      url: `${url.pathname}/pay`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `token=${encodeURIComponent(forged)}`,
    });
    expectEnvelope(pay, 404, 'PLATFORM_NOT_FOUND');
    expect(await station.database.db.select().from(storeOrders).where(eq(storeOrders.productId, product.id))).toHaveLength(0);
  });
});

describe('downloads and payouts', () => {
  let product: { id: string };
  let orderId: string;

  beforeAll(async () => {
    product = await createProduct(station, otherArtist, { title: 'Lantern Songs', price: 10.01 });
    const session = (await inject('POST', '/api/checkout', buyer, { product_id: product.id, price: 10.01, user_id: buyer.userId })).json();
    expect((await payInBrowser(session.checkout_url)).statusCode).toBe(200);
    [{ id: orderId }] = await station.database.db.select({ id: storeOrders.id }).from(storeOrders).where(eq(storeOrders.productId, product.id));
  });

  it('gives the buyer a signed, expiring link that serves the audio; anyone else gets 404', async () => {
    const trackId = otherArtist.trackIds[0];
    const answer = await inject('GET', `/v1/store/downloads/${trackId}`, buyer);
    expect(answer.statusCode).toBe(200);
    const { url, expires_at, order_id } = answer.json();
    expect(order_id).toBe(orderId);
    expect(new Date(expires_at).getTime()).toBeGreaterThan(clock.now());
    const media = await station.http.inject({ method: 'GET', url: url.replace('http://station.test', '') });
    expect(media.statusCode).toBe(200);
    expect(media.body).toBe(`audio of ${trackId}`);

    expectEnvelope(await inject('GET', `/v1/store/downloads/${trackId}`, stranger), 404, 'PLATFORM_NOT_FOUND');
    expectEnvelope(await inject('GET', `/v1/store/downloads/${artist.trackIds[0]}`, stranger), 404, 'PLATFORM_NOT_FOUND');
    expectEnvelope(await inject('GET', `/v1/store/downloads/not-an-id`, buyer), 404, 'PLATFORM_NOT_FOUND');

    const now = clock.now();
    clock.set(new Date(expires_at).getTime() + 1000);
    try {
      const expired = await station.http.inject({ method: 'GET', url: url.replace('http://station.test', '') });
      expect(expired.statusCode).toBe(403);
    } finally {
      clock.set(now);
    }
  });

  it('split 85/15, then by track and songwriter credits, in cents that sum to the whole; a sandbox sale is no live payout', async () => {
    const answer = await inject('GET', '/v1/payouts', otherArtist.owner);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({ data: [], total: 0, page: 1, limit: 20 });
    const [order] = await station.database.db.select().from(storeOrders).where(eq(storeOrders.id, orderId));
    // 1001 cents: fee floor(150.15) = 150, artist 851; per track 284, 284, 283.
    expect(order).toMatchObject({ amountCents: 1001, platformFeeCents: 150, artistShareCents: 851, livemode: false, environment: 'live' });
    const { songwriters } = await import('../../src/infra/db/schema/index.js');
    const rows = await station.database.db
      .select({
        track_id: storePayoutLines.trackId,
        track_title: tracks.title,
        songwriter_id: storePayoutLines.songwriterId,
        songwriter_name: songwriters.name,
        bp: storePayoutLines.splitBasisPoints,
        amount_cents: storePayoutLines.amountCents,
      })
      .from(storePayoutLines)
      .innerJoin(tracks, eq(tracks.id, storePayoutLines.trackId))
      .leftJoin(songwriters, eq(songwriters.id, storePayoutLines.songwriterId))
      .where(eq(storePayoutLines.orderId, orderId));
    const sale = { splits: rows.map(({ bp, ...line }) => ({ ...line, split_pct: bp / 100 })) };
    const byTrack = (id: string) => sale.splits.filter((s: { track_id: string }) => s.track_id === id);
    const [t0, t1, t2] = otherArtist.trackIds;
    // 284 x 50/30/20 = 142, 85.2, 56.8 -> 142, 85, 57 (the 0.8 remainder wins the cent).
    expect(
      Object.fromEntries(byTrack(t0).map((s: { songwriter_id: string | null; amount_cents: number }) => [String(s.songwriter_id), s.amount_cents])),
    ).toEqual({
      [otherArtist.writers[0]]: 142,
      [otherArtist.writers[1]]: 85,
      [otherArtist.writers[2]]: 57,
    });
    // 284 x 33.33/33.33/33.34 = 94.66, 94.66, 94.69 -> 94, 95, 95? floors 94+94+94 = 282, 2 cents to the largest remainders.
    const t1Amounts = byTrack(t1).map((s: { amount_cents: number }) => s.amount_cents);
    expect(t1Amounts.reduce((a: number, b: number) => a + b, 0)).toBe(284);
    expect(Math.max(...t1Amounts) - Math.min(...t1Amounts)).toBeLessThanOrEqual(1);
    // No credits: the artist keeps the track's part.
    expect(byTrack(t2)).toEqual([
      { track_id: t2, track_title: 'Quiet Radiator Track 3', songwriter_id: null, songwriter_name: null, split_pct: 100, amount_cents: 283 },
    ]);
    expect(sale.splits.reduce((a: number, s: { amount_cents: number }) => a + s.amount_cents, 0)).toBe(851);
    const lines = await station.database.db.select().from(storePayoutLines).where(eq(storePayoutLines.orderId, orderId));
    expect(lines.reduce((a, l) => a + l.amountCents, 0)).toBe(851);
  });

  it('are the artist’s own: another artist sees none of them, and cannot name this artist', async () => {
    const theirs = await inject('GET', '/v1/payouts', artist.owner);
    expect(theirs.json().data.map((p: { order_id: string }) => p.order_id)).not.toContain(orderId);
    expectEnvelope(await inject('GET', `/v1/payouts?artist=${otherArtist.slug}`, artist.owner), 404, 'PLATFORM_NOT_FOUND');
    expectEnvelope(await inject('GET', '/v1/payouts', buyer), 403, 'PLATFORM_INSUFFICIENT_SCOPE');
  });
});

describe('test keys and onboarding', () => {
  it('a test key sells and buys sandbox products only, pays through the sandbox, and its sales stay out of live payouts', async () => {
    const liveProduct = await createProduct(station, artist, { title: 'Live Only', price: 2 });
    // The sandbox's copy of the artist (same slug, no owner yet: as the demo seed makes them) with one track.
    const { db } = station.database;
    const twin = randomUUID();
    const sandboxTrack = randomUUID();
    await db.insert(artists).values({ id: twin, environment: 'test', slug: artist.slug, name: 'Twin', genre: 'Synthwave' });
    await db.insert(tracks).values({
      id: sandboxTrack,
      environment: 'test',
      slug: `${artist.slug}-sandbox`,
      title: 'Sandbox Track',
      artistId: twin,
      genre: 'Synthwave',
      durationSec: 100,
      audioBlobKey: `audio/${artist.trackIds[0]}.mp3`,
      audioFormat: 'mp3',
    });
    const keyOf = async (userId: string, scopes: string[]) => {
      const { key } = await station.auth.createApiKey({ name: 'test', scopes: scopes as never, environment: 'test', ownerUserId: userId });
      const csrf = (await station.http.inject({ method: 'GET', url: '/api/auth/csrf', headers: { 'x-api-key': key } })).json().csrf_token;
      return { 'x-api-key': key, 'x-csrf-token': csrf };
    };
    // An admin's webhook registered with a test key: the sandbox's events.
    const hookKey = await keyOf(admin.userId, ['webhooks:read', 'webhooks:write']);
    const registered = await station.http.inject({
      method: 'POST',
      url: '/v1/webhooks',
      headers: hookKey,
      payload: { url: sandboxReceiver.url, events: ['payment.success'] },
    });
    expect(registered.statusCode, registered.body).toBe(201);
    const sandboxHook = registered.json() as { id: string };
    // The artist's owner, with a test key, sells as the sandbox copy of their artist: its tracks, not the live ones.
    const seller = await keyOf(artist.owner.userId, ['artist', 'tracks:read']);
    const refused = await station.http.inject({
      method: 'POST',
      url: '/v1/store/products',
      headers: seller,
      payload: { title: 'X', type: 'single', price: 2, track_ids: [artist.trackIds[0]] },
    });
    expectEnvelope(refused, 404, 'PLATFORM_NOT_FOUND');
    const created = await station.http.inject({
      method: 'POST',
      url: '/v1/store/products',
      headers: seller,
      payload: { title: 'Sandbox Only', type: 'single', price: 2, track_ids: [sandboxTrack] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const product = created.json();
    expect(product.artist_id ?? product.artist?.id).toBe(twin);

    const buyerKey = await keyOf(buyer.userId, ['tracks:read', 'store:orders']);
    const listed = (await station.http.inject({ method: 'GET', url: '/v1/store/products?limit=100', headers: buyerKey })).json();
    expect(listed.data.map((p: { id: string }) => p.id)).toEqual([product.id]);
    const liveList = (await inject('GET', '/v1/store/products?limit=100', buyer)).json();
    expect(liveList.data.map((p: { id: string }) => p.id)).not.toContain(product.id);
    const liveCheckout = await station.http.inject({
      method: 'POST',
      url: '/v1/checkout',
      headers: buyerKey,
      payload: { product_id: liveProduct.id, price: 2, user_id: buyer.userId },
    });
    expectEnvelope(liveCheckout, 404, 'PLATFORM_NOT_FOUND');
    const session = await station.http.inject({
      method: 'POST',
      url: '/v1/checkout',
      headers: buyerKey,
      payload: { product_id: product.id, price: 2, user_id: buyer.userId },
    });
    expect(session.statusCode).toBe(200);
    expect(session.json().processor).toBe('sandbox');
    expect((await payInBrowser(session.json().checkout_url)).statusCode).toBe(200);
    const [order] = await station.database.db.select().from(storeOrders).where(eq(storeOrders.productId, product.id));
    expect(order.livemode).toBe(false);
    const live = await inject('GET', '/v1/payouts', artist.owner);
    expect(live.json().data.map((p: { order_id: string }) => p.order_id)).not.toContain(order.id);

    // Its payment.success goes to the webhooks registered with a test key, never to the live ones; and the reverse.
    const [sandboxDelivery] = await sandboxReceiver.waitFor(order.id, 1);
    expect(JSON.parse(sandboxDelivery.body)).toMatchObject({ event: 'payment.success', data: { order_id: order.id, livemode: false } });
    const deliveriesOf = async (orderId: string) =>
      (
        await db
          .select({ webhookId: webhookDeliveries.webhookId })
          .from(webhookDeliveries)
          .where(like(webhookDeliveries.payload, `%${orderId}%`))
      ).map((row) => row.webhookId);
    expect(await deliveriesOf(order.id)).toEqual([sandboxHook.id]);
    const liveSession = (await inject('POST', '/v1/checkout', buyer, { product_id: liveProduct.id, price: 2, user_id: buyer.userId })).json();
    expect((await payInBrowser(liveSession.checkout_url)).statusCode).toBe(200);
    const [liveOrder] = await db.select().from(storeOrders).where(eq(storeOrders.productId, liveProduct.id));
    await receiver.waitFor(liveOrder.id, 1);
    expect(await deliveriesOf(liveOrder.id)).not.toContain(sandboxHook.id);
    expect(sandboxReceiver.matching(liveOrder.id)).toEqual([]);
  });

  it('POST /api/connect/onboard answers the sandbox onboarding page for the calling artist', async () => {
    for (const url of ['/api/connect/onboard', '/v1/connect/onboard']) {
      const answer = await inject('POST', url, artist.owner, {});
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toMatchObject({ artist_id: artist.id, processor: 'sandbox' });
      const page = new URL(answer.json().url);
      expect((await station.http.inject({ method: 'GET', url: page.pathname + page.search })).statusCode).toBe(200);
    }
    expectEnvelope(await inject('POST', '/api/connect/onboard', buyer, {}), 403, 'PLATFORM_INSUFFICIENT_SCOPE');
    expectEnvelope(await inject('POST', '/api/connect/onboard', artist.owner, { artist_id: otherArtist.id }), 404, 'PLATFORM_NOT_FOUND');
  });

  it('documents every store route in /openapi.json', async () => {
    const doc = (await station.http.inject({ method: 'GET', url: '/openapi.json' })).json();
    for (const [path, method] of [
      ['/v1/store/products', 'get'],
      ['/v1/store/products', 'post'],
      ['/v1/store/products/{id}', 'patch'],
      ['/v1/checkout', 'post'],
      ['/api/checkout', 'post'],
      ['/v1/store/downloads/{id}', 'get'],
      ['/api/connect/onboard', 'post'],
      ['/v1/payouts', 'get'],
      ['/v1/store/webhooks/stripe', 'post'],
    ]) {
      expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    }
  });
});
