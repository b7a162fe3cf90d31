/**
 * The Stripe processor through the official SDK against a local server that answers like Stripe's API for the
 * calls the store makes (accounts, account_links, checkout/sessions): Connect Express onboarding, a destination
 * charge whose application fee is our 15%, and webhooks verified with Stripe-Signature: a correctly signed
 * checkout.session.completed creates the order once; a bad signature or a timestamp past the 300 s tolerance
 * is refused and changes nothing. The secret key never appears in an answer or in the logs.
 */
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../src/infra/clock/clock.js';
import { storeOrders } from '../../src/infra/db/schema/index.js';
import { PLATFORM_EVENTS_CHANNEL } from '../../src/platform/webhooks/platform-events.js';
import { startStripeStandIn, type StripeStandIn } from '../helpers/stripe-stand-in.js';
import { buildTestStation, type TestStation } from '../helpers/station.js';
import { expectEnvelope } from '../foundation/support.js';
import { createProduct, headers, seedArtist, userWithRole, type SeededArtist, type User } from './store-support.js';

const SECRET_KEY = `sk_test_${randomBytes(16).toString('hex')}`;
const WEBHOOK_SECRET = `whsec_${randomBytes(16).toString('hex')}`;

const clock = new ManualClock(Date.UTC(2026, 2, 1, 12, 0, 0));
const logLines: string[] = [];
let stripeApi: StripeStandIn;
let station: TestStation;
let artist: SeededArtist;
let buyer: User;

beforeAll(async () => {
  stripeApi = await startStripeStandIn(SECRET_KEY);
  const stream = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  station = await buildTestStation(
    { STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET },
    { clock, stripeEndpoint: { host: '127.0.0.1', port: stripeApi.port, protocol: 'http' }, logger: { level: 'trace', stream } },
  );
  artist = await seedArtist(station, 'Marisol');
  buyer = await userWithRole(station, 'listener');
});
afterAll(async () => {
  await station?.destroy();
  await stripeApi?.close();
});

const inject = (method: 'GET' | 'POST', url: string, who: User, payload?: object, extra: Record<string, string> = {}) =>
  station.http.inject({ method, url, headers: { ...headers(who), ...extra }, ...(payload ? { payload } : {}) });

function signedEvent(
  session: { id: string; amount_total: number; currency: string; metadata: Record<string, string> },
  options: { timestamp?: number; secret?: string; id?: string } = {},
) {
  const payload = JSON.stringify({
    id: options.id ?? `evt_${randomBytes(8).toString('hex')}`,
    object: 'event',
    type: 'checkout.session.completed',
    created: Math.floor(clock.now() / 1000),
    data: { object: { ...session, object: 'checkout.session', payment_status: 'paid', status: 'complete' } },
  });
  const signature = Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? WEBHOOK_SECRET,
    timestamp: options.timestamp ?? Math.floor(clock.now() / 1000),
  });
  return { payload, signature };
}

const postWebhook = (payload: string, signature: string) =>
  station.http.inject({
    method: 'POST',
    url: '/v1/store/webhooks/stripe',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    payload,
  });

const ordersOf = (productId: string) => station.database.db.select().from(storeOrders).where(eq(storeOrders.productId, productId));

describe('Stripe Connect', () => {
  it('refuses checkout while the artist has no connected account', async () => {
    const product = await createProduct(station, artist, { price: 5 });
    expectEnvelope(
      await inject('POST', '/v1/checkout', buyer, { product_id: product.id, price: 5, user_id: buyer.userId }),
      409,
      'PLATFORM_ARTIST_NOT_ONBOARDED',
    );
  });

  it('onboards the calling artist through an Express account and an Account Link', async () => {
    const answer = await inject('POST', '/api/connect/onboard', artist.owner, {});
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({ artist_id: artist.id, processor: 'stripe' });
    expect(answer.json().url).toMatch(/^https:\/\/connect\.stripe\.com\/setup\/e\/acct_/);
    const account = stripeApi.calls.find((c) => c.path === '/v1/accounts')!;
    expect(account.form).toMatchObject({ type: 'express', 'metadata[artist_id]': artist.id });
    const link = stripeApi.calls.find((c) => c.path === '/v1/account_links')!;
    expect(link.form).toMatchObject({ type: 'account_onboarding', account: answer.json().url.split('/')[5] });

    // Again: the same account, a new link.
    await inject('POST', '/v1/connect/onboard', artist.owner, {});
    expect(stripeApi.calls.filter((c) => c.path === '/v1/accounts')).toHaveLength(1);
    expect(stripeApi.calls.filter((c) => c.path === '/v1/account_links')).toHaveLength(2);
  });
});

describe('Stripe checkout and webhook', () => {
  let product: { id: string };
  let session: { session_id: string; checkout_url: string; amount_cents: number };
  let accountId: string;

  beforeAll(async () => {
    product = await createProduct(station, artist, { title: 'Velvet Hours', price: 19.99 });
    const answer = await inject('POST', '/v1/checkout', buyer, { product_id: product.id, price: 19.99, user_id: buyer.userId }, { 'idempotency-key': 'k-1' });
    expect(answer.statusCode).toBe(200);
    session = answer.json();
    accountId = stripeApi.calls.find((c) => c.path === '/v1/account_links')!.form.account;
  });

  it('opens a Checkout Session as a destination charge: 85% to the artist’s account, 15% application fee', async () => {
    expect(session.session_id).toMatch(/^cs_test_/);
    expect(session.checkout_url).toBe(`https://checkout.stripe.com/c/pay/${session.session_id}`);
    const call = stripeApi.calls.filter((c) => c.path === '/v1/checkout/sessions').at(-1)!;
    expect(call.form).toMatchObject({
      mode: 'payment',
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][unit_amount]': '1999',
      'line_items[0][price_data][currency]': 'usd',
      'payment_intent_data[application_fee_amount]': '299',
      'payment_intent_data[transfer_data][destination]': accountId,
      'metadata[user_id]': buyer.userId,
      'metadata[product_id]': product.id,
    });
    expect(call.headers['idempotency-key']).toMatch(/^checkout-/);
    // A retry with the same Idempotency-Key answers the same session without calling Stripe again.
    const before = stripeApi.calls.length;
    const again = await inject('POST', '/api/checkout', buyer, { product_id: product.id, price: 19.99, user_id: buyer.userId }, { 'idempotency-key': 'k-1' });
    expect(again.json().session_id).toBe(session.session_id);
    expect(stripeApi.calls.length).toBe(before);
  });

  it('refuses a webhook with a bad signature or a timestamp older than 300 s, and creates nothing', async () => {
    const stripeSession = { id: session.session_id, amount_total: 1999, currency: 'usd', metadata: { session_id: 'x' } };
    const forged = signedEvent(stripeSession, { secret: 'whsec_not_ours' });
    expectEnvelope(await postWebhook(forged.payload, forged.signature), 400, 'PLATFORM_WEBHOOK_SIGNATURE_INVALID');
    const old = signedEvent(stripeSession, { timestamp: Math.floor(clock.now() / 1000) - 301 });
    expectEnvelope(await postWebhook(old.payload, old.signature), 400, 'PLATFORM_WEBHOOK_SIGNATURE_INVALID');
    const good = signedEvent(stripeSession);
    const tampered = good.payload.replace('"amount_total":1999', '"amount_total":1');
    expectEnvelope(await postWebhook(tampered, good.signature), 400, 'PLATFORM_WEBHOOK_SIGNATURE_INVALID');
    expectEnvelope(
      await station.http.inject({ method: 'POST', url: '/v1/store/webhooks/stripe', headers: { 'content-type': 'application/json' }, payload: good.payload }),
      400,
      'PLATFORM_WEBHOOK_SIGNATURE_INVALID',
    );
    expect(await ordersOf(product.id)).toHaveLength(0);
  });

  it('creates the order once from a signed checkout.session.completed, and emits payment.success', async () => {
    const events: unknown[] = [];
    const unsubscribe = await station.bus.subscribe(PLATFORM_EVENTS_CHANNEL, (m) => void events.push(m));
    try {
      const stripeSession = { id: session.session_id, amount_total: 1999, currency: 'usd', metadata: { session_id: 'ours' } };
      // 299 s old: still inside the tolerance.
      const first = signedEvent(stripeSession, { id: 'evt_first', timestamp: Math.floor(clock.now() / 1000) - 299 });
      const answers = await Promise.all([postWebhook(first.payload, first.signature), postWebhook(first.payload, first.signature)]);
      for (const answer of answers) expect(answer.statusCode).toBe(200);
      const retried = signedEvent(stripeSession, { id: 'evt_second' });
      expect((await postWebhook(retried.payload, retried.signature)).statusCode).toBe(200);

      const orders = await ordersOf(product.id);
      expect(orders).toHaveLength(1);
      expect(orders[0]).toMatchObject({
        processor: 'stripe',
        amountCents: 1999,
        platformFeeCents: 299,
        artistShareCents: 1700,
        userId: buyer.userId,
        livemode: true,
      });
      expect(answers[0].json().order_id).toBe(orders[0].id);
      await vi.waitFor(() => expect(events.length).toBeGreaterThanOrEqual(1));
      const ids = new Set(events.map((e) => JSON.stringify(e)));
      // Every notice re-sends the same event (one event id: the webhook engine delivers it once).
      expect(ids.size).toBe(1);
      expect(events[0]).toMatchObject({
        event: 'payment.success',
        data: { order_id: orders[0].id, user_id: buyer.userId, product_id: product.id, amount: 19.99 },
      });
    } finally {
      await unsubscribe();
    }

    const payouts = (await inject('GET', '/v1/payouts', artist.owner)).json();
    const [order] = await ordersOf(product.id);
    const sale = payouts.data.find((p: { order_id: string }) => p.order_id === order.id);
    expect(sale).toMatchObject({ amount_cents: 1999, platform_fee_cents: 299, artist_share_cents: 1700 });
  });

  it('acknowledges other event types without acting', async () => {
    const payload = JSON.stringify({
      id: 'evt_other',
      object: 'event',
      type: 'payment_intent.created',
      data: { object: { id: 'pi_1', object: 'payment_intent' } },
    });
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp: Math.floor(clock.now() / 1000) });
    const answer = await postWebhook(payload, signature);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ received: true, order_id: null });
  });

  it('never shows or logs the secret key', async () => {
    const doc = (await station.http.inject({ method: 'GET', url: '/openapi.json' })).body;
    expect(doc).not.toContain(SECRET_KEY);
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.join('\n')).not.toContain(SECRET_KEY);
    expect(logLines.join('\n')).not.toContain(WEBHOOK_SECRET);
  });
});
