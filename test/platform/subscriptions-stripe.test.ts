/**
 * Pro subscriptions through Stripe, with the official SDK against a local server that answers like Stripe's
 * API for POST /v1/checkout/sessions: a Checkout Session in subscription mode at the server's price, then the
 * signed checkout.session.completed (mode subscription) at the store's webhook route makes the account Pro
 * once and emits user.subscribed; a bad signature or another amount changes nothing.
 */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/infra/clock/clock.js';
import { subscriptions } from '../../src/infra/db/schema/index.js';
import { PLATFORM_EVENTS_CHANNEL } from '../../src/platform/webhooks/platform-events.js';
import { buildTestStation, type TestStation } from '../helpers/station.js';
import { pollUntil } from '../helpers/poll.js';
import { startStripeStandIn, type StripeStandIn } from '../helpers/stripe-stand-in.js';
import { expectEnvelope } from '../foundation/support.js';
import { bearer, loginAs, type Login } from './accounts-support.js';

const SECRET_KEY = `sk_test_${randomBytes(16).toString('hex')}`;
const WEBHOOK_SECRET = `whsec_${randomBytes(16).toString('hex')}`;

const clock = new ManualClock(Date.UTC(2026, 6, 1, 12, 0, 0));
let stripeApi: StripeStandIn;
let station: TestStation;

beforeAll(async () => {
  stripeApi = await startStripeStandIn(SECRET_KEY);
  station = await buildTestStation(
    { STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET },
    { clock, stripeEndpoint: { host: '127.0.0.1', port: stripeApi.port, protocol: 'http' } },
  );
});
afterAll(async () => {
  await station?.destroy();
  await stripeApi?.close();
});

function completed(session: { id: string; amount_total: number; subscription_id: string }, options: { secret?: string; id?: string } = {}) {
  const payload = JSON.stringify({
    id: options.id ?? `evt_${randomBytes(8).toString('hex')}`,
    object: 'event',
    type: 'checkout.session.completed',
    created: Math.floor(clock.now() / 1000),
    data: {
      object: {
        id: session.id,
        object: 'checkout.session',
        mode: 'subscription',
        status: 'complete',
        payment_status: 'paid',
        amount_total: session.amount_total,
        currency: 'usd',
        subscription: 'sub_1PqA',
        client_reference_id: session.subscription_id,
        metadata: { subscription_id: session.subscription_id },
      },
    },
  });
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? WEBHOOK_SECRET, timestamp: Math.floor(clock.now() / 1000) });
  return station.http.inject({
    method: 'POST',
    url: '/v1/store/webhooks/stripe',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    payload,
  });
}

/** Stripe's customer.subscription.deleted: the subscription ended (cancelled at the period's end, or unpaid). */
function ended(subscriptionId: string, options: { secret?: string; id?: string } = {}) {
  const payload = JSON.stringify({
    id: options.id ?? `evt_${randomBytes(8).toString('hex')}`,
    object: 'event',
    type: 'customer.subscription.deleted',
    created: Math.floor(clock.now() / 1000),
    data: { object: { id: subscriptionId, object: 'subscription', status: 'canceled', ended_at: Math.floor(clock.now() / 1000) } },
  });
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? WEBHOOK_SECRET, timestamp: Math.floor(clock.now() / 1000) });
  return station.http.inject({
    method: 'POST',
    url: '/v1/store/webhooks/stripe',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    payload,
  });
}

const subscribe = (who: Login) => station.http.inject({ method: 'POST', url: '/v1/subscriptions', headers: bearer(who), payload: { plan: 'pro' } });
const planOf = async (who: Login) => (await station.http.inject({ url: '/v1/users/me', headers: bearer(who) })).json().plan;

describe('Pro through Stripe', () => {
  let listener: Login;
  let checkout: { id: string; session_id: string; checkout_url: string };

  beforeAll(async () => {
    listener = await loginAs(station, 'listener');
    const answer = await subscribe(listener);
    expect(answer.statusCode, answer.body).toBe(200);
    checkout = answer.json();
  });

  it('opens a Checkout Session in subscription mode at the server’s price', async () => {
    expect(checkout).toMatchObject({ processor: 'stripe', status: 'open', amount_cents: 999 });
    expect(checkout.checkout_url).toBe(`https://checkout.stripe.com/c/pay/${checkout.session_id}`);
    const [call] = stripeApi.calls;
    expect(call.form).toMatchObject({
      mode: 'subscription',
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][unit_amount]': '999',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][recurring][interval]': 'month',
      client_reference_id: checkout.id,
      'metadata[subscription_id]': checkout.id,
      'metadata[user_id]': listener.userId,
      'subscription_data[metadata][plan]': 'pro',
      customer_email: listener.email,
    });
    expect(call.form).not.toHaveProperty('payment_intent_data[application_fee_amount]');
    expect(call.headers['idempotency-key']).toBe(`subscription-${checkout.id}`);
    // Asked again: the same checkout, no new call.
    expect((await subscribe(listener)).json().session_id).toBe(checkout.session_id);
    expect(stripeApi.calls).toHaveLength(1);
  });

  it('changes nothing on a bad signature or another amount', async () => {
    const session = { id: checkout.session_id, amount_total: 999, subscription_id: checkout.id };
    expectEnvelope(await completed(session, { secret: 'whsec_not_ours' }), 400, 'PLATFORM_WEBHOOK_SIGNATURE_INVALID');
    const other = await completed({ ...session, amount_total: 1 });
    expect(other.statusCode).toBe(200);
    expect(await planOf(listener)).toBe('free');
  });

  it('makes the account Pro once from the signed completion and emits user.subscribed with one event id', async () => {
    const events: string[] = [];
    const unsubscribe = await station.bus.subscribe(PLATFORM_EVENTS_CHANNEL, (m) => {
      if (JSON.stringify(m).includes(listener.userId)) events.push(JSON.stringify(m));
    });
    const session = { id: checkout.session_id, amount_total: 999, subscription_id: checkout.id };
    const answers = await Promise.all([completed(session, { id: 'evt_a' }), completed(session, { id: 'evt_a' }), completed(session, { id: 'evt_b' })]);
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    expect(await planOf(listener)).toBe('pro');
    const rows = await station.database.db.select().from(subscriptions).where(eq(subscriptions.userId, listener.userId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'active', processorSubscriptionId: 'sub_1PqA' });
    await pollUntil(
      'the events of three notices',
      () => events.length,
      (n) => n >= 3,
    );
    await unsubscribe();
    expect(new Set(events).size).toBe(1);
    expect(JSON.parse(events[0])).toMatchObject({ event: 'user.subscribed', data: { user_id: listener.userId, plan: 'pro', amount: 9.99 } });
    expectEnvelope(await subscribe(listener), 409, 'PLATFORM_ALREADY_SUBSCRIBED');
  });

  it('cancels at the period’s end at Stripe; the account stays Pro until Stripe ends the subscription', async () => {
    const cancel = await station.http.inject({ method: 'POST', url: `/v1/subscriptions/${checkout.id}/cancel`, headers: bearer(listener) });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(cancel.json()).toMatchObject({ status: 'active', cancel_at_period_end: true, ended_at: null });
    const call = stripeApi.calls.at(-1)!;
    expect(call.path).toBe('/v1/subscriptions/sub_1PqA');
    expect(call.form).toEqual({ cancel_at_period_end: 'true' });
    expect(await planOf(listener)).toBe('pro');
  });

  it('makes the account free when Stripe ends the subscription, once, whatever the retries', async () => {
    expectEnvelope(await ended('sub_1PqA', { secret: 'whsec_not_ours' }), 400, 'PLATFORM_WEBHOOK_SIGNATURE_INVALID');
    expect(await planOf(listener)).toBe('pro');
    const answers = await Promise.all([ended('sub_1PqA', { id: 'evt_end' }), ended('sub_1PqA', { id: 'evt_end' })]);
    for (const answer of answers) expect(answer.json()).toEqual({ received: true, order_id: null });
    expect(await planOf(listener)).toBe('free');
    const [row] = await station.database.db.select().from(subscriptions).where(eq(subscriptions.userId, listener.userId));
    expect(row).toMatchObject({ status: 'cancelled', cancelAtPeriodEnd: true });
    expect(row.endedAt?.getTime()).toBe(clock.now());
    // An unknown subscription is acknowledged and changes nothing.
    expect((await ended('sub_unknown')).statusCode).toBe(200);
  });

  it('acknowledges a completion for an unknown subscription session without acting', async () => {
    const answer = await completed({ id: 'cs_test_unknown', amount_total: 999, subscription_id: 'x' });
    expect(answer.json()).toEqual({ received: true, order_id: null });
  });
});
