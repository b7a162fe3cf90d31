/**
 * Security issue #16, item 5 for Pro subscriptions: without Stripe, POST /v1/subscriptions answers 503
 * PLATFORM_PAYMENTS_UNAVAILABLE and opens nothing; a demo store (STATION_STORE_SANDBOX_LIVE) takes it through the
 * sandbox with livemode false, in the answer, the row and user.subscribed. Stripe's are live: subscriptions-stripe.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriptions } from '../../src/infra/db/schema/index.js';
import { PLATFORM_EVENTS_CHANNEL } from '../../src/platform/webhooks/platform-events.js';
import { buildTestStation, type TestStation } from '../helpers/station.js';
import { pollUntil } from '../helpers/poll.js';
import { expectEnvelope } from '../foundation/support.js';
import { bearer, loginAs } from './accounts-support.js';

let plain: TestStation;
let demo: TestStation;

beforeAll(async () => {
  plain = await buildTestStation();
  demo = await buildTestStation({ STATION_STORE_SANDBOX_LIVE: 'true' });
});
afterAll(async () => {
  await plain?.destroy();
  await demo?.destroy();
});

describe('Pro without a payment processor', () => {
  it('answers 503 PLATFORM_PAYMENTS_UNAVAILABLE and the account stays free', async () => {
    const listener = await loginAs(plain, 'listener');
    const answer = await plain.http.inject({ method: 'POST', url: '/v1/subscriptions', headers: bearer(listener), payload: { plan: 'pro' } });
    expect(expectEnvelope(answer, 503, 'PLATFORM_PAYMENTS_UNAVAILABLE').detail).toContain('STATION_STORE_SANDBOX_LIVE');
    expect(await plain.database.db.select().from(subscriptions).where(eq(subscriptions.userId, listener.userId))).toEqual([]);
    expect((await plain.http.inject({ url: '/v1/users/me', headers: bearer(listener) })).json().plan).toBe('free');
  });
});

describe('Pro in a demo store', () => {
  it('goes through the sandbox with livemode false, never live money', async () => {
    const listener = await loginAs(demo, 'listener');
    const opened = await demo.http.inject({ method: 'POST', url: '/v1/subscriptions', headers: bearer(listener), payload: { plan: 'pro' } });
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json()).toMatchObject({ processor: 'sandbox', livemode: false, status: 'open' });

    const events: { event: string; data: Record<string, unknown> }[] = [];
    const unsubscribe = await demo.bus.subscribe(PLATFORM_EVENTS_CHANNEL, (m) => {
      const event = m as { event: string; data: Record<string, unknown> };
      if (event.event === 'user.subscribed' && event.data.user_id === listener.userId) events.push(event);
    });
    const url = new URL(opened.json().checkout_url);
    const page = await demo.http.inject({ method: 'GET', url: url.pathname + url.search });
    const form = /<form method="post" action="([^"]+)"><input type="hidden" name="token" value="([^"]+)">/.exec(page.body)!;
    const paid = await demo.http.inject({
      method: 'POST',
      url: form[1],
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ token: form[2] }).toString(),
    });
    expect(paid.statusCode).toBe(200);
    await pollUntil(
      'user.subscribed',
      () => events.length,
      (n) => n >= 1,
    );
    await unsubscribe();
    expect(events[0].data).toMatchObject({ plan: 'pro', livemode: false });

    const [row] = await demo.database.db.select().from(subscriptions).where(eq(subscriptions.userId, listener.userId));
    expect(row).toMatchObject({ status: 'active', processor: 'sandbox', livemode: false });
    const listed = (await demo.http.inject({ url: '/v1/subscriptions', headers: bearer(listener) })).json();
    expect(listed.data[0]).toMatchObject({ status: 'active', livemode: false });
  });
});
