/**
 * Pro subscriptions with the built-in sandbox processor of a demo store (STATION_STORE_SANDBOX_LIVE; never live
 * money: subscriptions-livemode.test.ts): POST /v1/subscriptions opens one checkout per user
 * (retries and concurrent calls answer the same), the sandbox page's Pay makes the account Pro once, GET
 * /v1/users/me shows the plan, and user.subscribed reaches a registered webhook once, signed.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/infra/clock/clock.js';
import { subscriptions } from '../../src/infra/db/schema/index.js';
import { buildTestStation, staffLogin, type TestStation } from '../helpers/station.js';
import { expectEnvelope } from '../foundation/support.js';
import { hmac, registerWebhook, startReceiver, type Receiver } from '../webhooks/support.js';
import { PLATFORM_EVENTS_CHANNEL } from '../../src/platform/webhooks/platform-events.js';
import { pollUntil } from '../helpers/poll.js';
import { createKey, loginAs, bearer, type Login } from './accounts-support.js';

const clock = new ManualClock(Date.UTC(2026, 4, 1, 12, 0, 0));
let station: TestStation;
let receiver: Receiver;
let hookSecret: string;

beforeAll(async () => {
  station = await buildTestStation(
    { STATION_WEBHOOK_ALLOWED_HOSTS: 'loopback', STATION_STORE_SANDBOX_LIVE: 'true' },
    { clock, webhooks: { retry: { baseMs: 10, maxAttempts: 2 } } },
  );
  receiver = await startReceiver();
  // user.subscribed is heard by admin-owned webhooks only.
  hookSecret = (await registerWebhook(station, await staffLogin(station), receiver.url, ['user.subscribed'])).secret;
});
afterAll(async () => {
  await station?.destroy();
  await receiver?.close();
});

const subscribe = (who: Login) => station.http.inject({ method: 'POST', url: '/v1/subscriptions', headers: bearer(who), payload: { plan: 'pro' } });
const planOf = async (who: Login) => (await station.http.inject({ url: '/v1/users/me', headers: bearer(who) })).json().plan;
const rowsOf = (userId: string) => station.database.db.select().from(subscriptions).where(eq(subscriptions.userId, userId));

/** Opens the checkout page and presses its button, as a browser would. */
async function payInBrowser(checkoutUrl: string) {
  const url = new URL(checkoutUrl);
  const page = await station.http.inject({ method: 'GET', url: url.pathname + url.search });
  expect(page.statusCode).toBe(200);
  expect(page.headers['content-type']).toMatch(/^text\/html/);
  const form = /<form method="post" action="([^"]+)"><input type="hidden" name="token" value="([^"]+)">/.exec(page.body);
  expect(form, page.body).not.toBeNull();
  const pay = () =>
    station.http.inject({
      method: 'POST',
      url: form![1],
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ token: form![2] }).toString(),
    });
  return { pay };
}

describe('Pro through the sandbox processor', () => {
  it('opens one checkout per user at the server’s price; paying it makes the account Pro once and sends user.subscribed', async () => {
    const listener = await loginAs(station, 'listener');
    expect(await planOf(listener)).toBe('free');

    const [a, b] = await Promise.all([subscribe(listener), subscribe(listener)]);
    expect(a.statusCode, a.body).toBe(200);
    expect(b.json().session_id).toBe(a.json().session_id);
    const checkout = a.json();
    expect(checkout).toMatchObject({ plan: 'pro', status: 'open', processor: 'sandbox', amount: 9.99, amount_cents: 999, currency: 'usd', interval: 'month' });
    expect(checkout.checkout_url).toMatch(/^http:\/\/station\.test\/v1\/subscriptions\/sandbox\/checkout\/sbx_sub_/);
    expect((await subscribe(listener)).json().id).toBe(checkout.id);

    const events: string[] = [];
    const unsubscribe = await station.bus.subscribe(PLATFORM_EVENTS_CHANNEL, (m) => {
      if (JSON.stringify(m).includes(listener.userId)) events.push(JSON.stringify(m));
    });
    const { pay } = await payInBrowser(checkout.checkout_url);
    const paid = await Promise.all([pay(), pay()]);
    for (const answer of paid) expect(answer.statusCode).toBe(200);
    expect(await planOf(listener)).toBe('pro');
    const rows = await rowsOf(listener.userId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'active', processor: 'sandbox' });

    const [delivery] = await receiver.waitFor(listener.userId, 1);
    expect(delivery.headers['x-platform-signature']).toBe(hmac(hookSecret, delivery.body));
    expect(JSON.parse(delivery.body)).toMatchObject({ event: 'user.subscribed', data: { user_id: listener.userId, plan: 'pro', amount: 9.99 } });
    await pay();
    // Every Pay re-sends the same event, so it has one event id: the webhook engine delivers it once.
    await pollUntil(
      'the events of three Pays',
      () => events.length,
      (n) => n >= 3,
    );
    await unsubscribe();
    expect(new Set(events).size).toBe(1);
    expect(await rowsOf(listener.userId)).toHaveLength(1);

    expectEnvelope(await subscribe(listener), 409, 'PLATFORM_ALREADY_SUBSCRIBED');
    const list = await station.http.inject({ url: '/v1/subscriptions', headers: bearer(listener) });
    expect(list.json()).toMatchObject({ total: 1, data: [{ id: checkout.id, status: 'active', checkout_url: null }] });
  });

  it('opens a new checkout when the open one is a day old; the old link no longer pays', async () => {
    const listener = await loginAs(station, 'listener');
    const first = (await subscribe(listener)).json();
    clock.advance(24 * 3600 * 1000 + 1000);
    // A day later the access token expired: the listener's client refreshes it.
    const renewed = await station.http.inject({ method: 'POST', url: '/v1/auth/refresh', payload: { refresh_token: listener.refreshToken } });
    Object.assign(listener, { token: renewed.json().token, csrf: renewed.json().csrf_token });
    const second = (await subscribe(listener)).json();
    expect(second.id).not.toBe(first.id);
    const old = new URL(first.checkout_url);
    expectEnvelope(await station.http.inject({ url: old.pathname + old.search }), 404, 'PLATFORM_NOT_FOUND');
    expect((await rowsOf(listener.userId)).map((r) => r.status).sort()).toEqual(['expired', 'open']);
    const { pay } = await payInBrowser(second.checkout_url);
    expect((await pay()).statusCode).toBe(200);
    expect(await planOf(listener)).toBe('pro');
  });

  it('cancels at once in the sandbox (no billing period): the account is free again and may subscribe anew', async () => {
    const listener = await loginAs(station, 'listener');
    const checkout = (await subscribe(listener)).json();
    const cancel = (id: string, who = listener) => station.http.inject({ method: 'POST', url: `/v1/subscriptions/${id}/cancel`, headers: bearer(who) });
    expectEnvelope(await cancel(checkout.id), 409, 'PLATFORM_CONFLICT'); // not paid: nothing to cancel
    const { pay } = await payInBrowser(checkout.checkout_url);
    expect((await pay()).statusCode).toBe(200);
    const stranger = await loginAs(station, 'listener');
    expectEnvelope(await cancel(checkout.id, stranger), 404, 'PLATFORM_NOT_FOUND');
    expect(await planOf(listener)).toBe('pro');

    // Concurrent (or retried) cancels: one ends it, every answer is the cancelled subscription.
    const answers = await Promise.all([cancel(checkout.id), cancel(checkout.id)]);
    for (const answer of answers) {
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.json()).toMatchObject({ id: checkout.id, status: 'cancelled', cancel_at_period_end: false });
      expect(new Date(answer.json().ended_at).getTime()).toBe(clock.now());
    }
    expect((await cancel(checkout.id)).json().status).toBe('cancelled');
    expect(await planOf(listener)).toBe('free');
    expect((await rowsOf(listener.userId)).map((r) => r.status)).toEqual(['cancelled']);
    expect((await subscribe(listener)).json()).toMatchObject({ status: 'open' });
  });

  it('refuses a page or a payment without a valid token, and API keys', async () => {
    const listener = await loginAs(station, 'listener');
    const checkout = (await subscribe(listener)).json();
    const url = new URL(checkout.checkout_url);
    expectEnvelope(await station.http.inject({ url: url.pathname }), 404, 'PLATFORM_NOT_FOUND');
    expectEnvelope(
      await station.http.inject({
        method: 'POST',
        url: `${url.pathname}/pay`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'token=1700000000.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      }),
      404,
      'PLATFORM_NOT_FOUND',
    );
    expect(await planOf(listener)).toBe('free');

    const developer = await loginAs(station, 'developer');
    const key = await createKey(station, developer, { scopes: ['users:read'], environment: 'live' });
    const csrf = (await station.http.inject({ url: '/api/auth/csrf', headers: { 'x-api-key': key.key } })).json().csrf_token;
    const byKey = await station.http.inject({
      method: 'POST',
      url: '/v1/subscriptions',
      headers: { 'x-api-key': key.key, 'x-csrf-token': csrf },
      payload: { plan: 'pro' },
    });
    expectEnvelope(byKey, 403, 'PLATFORM_FORBIDDEN');
    expectEnvelope(
      await station.http.inject({ method: 'POST', url: '/v1/subscriptions', headers: bearer(listener), payload: { plan: 'gold' } }),
      400,
      'PLATFORM_VALIDATION_FAILED',
    );
  });
});
