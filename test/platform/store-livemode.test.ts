/**
 * Security issue #16, item 5: without Stripe keys a live purchase is not free and counted as revenue. Without a
 * payment processor a live checkout (and payout onboarding) answers 503 PLATFORM_PAYMENTS_UNAVAILABLE; only a
 * demo store the operator opted in to (STATION_STORE_SANDBOX_LIVE, on by default under STATION_DEMO) completes
 * it through the sandbox, and such an order carries livemode false: no payouts, no revenue report, no admin KPI,
 * no live feed counter. Pro subscriptions: subscriptions-livemode.test.ts; capsules: capsules-unlock-purchase.test.ts.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { ManualClock } from '../../src/infra/clock/clock.js';
import { storeCheckoutSessions } from '../../src/infra/db/schema/index.js';
import { buildTestStation, staffLogin, type TestStation } from '../helpers/station.js';
import { expectEnvelope } from '../foundation/support.js';
import { buyInSandbox, createProduct, headers, seedArtist, userWithRole } from './store-support.js';

const clock = new ManualClock(Date.UTC(2026, 5, 10, 12, 0, 0));
let plain: TestStation;
let demo: TestStation;

afterAll(async () => {
  await plain?.destroy();
  await demo?.destroy();
});

describe('STATION_STORE_SANDBOX_LIVE', () => {
  it('is on under STATION_DEMO unless set, off otherwise', () => {
    expect(loadConfig({}).storeSandboxLive).toBe(true);
    expect(loadConfig({ STATION_DEMO: 'false' }).storeSandboxLive).toBe(false);
    expect(loadConfig({ STATION_DEMO: 'false', STATION_STORE_SANDBOX_LIVE: 'true' }).storeSandboxLive).toBe(true);
    expect(loadConfig({ STATION_STORE_SANDBOX_LIVE: 'false' }).storeSandboxLive).toBe(false);
    expect(() => loadConfig({ STATION_STORE_SANDBOX_LIVE: 'sometimes' })).toThrow(/STATION_STORE_SANDBOX_LIVE/);
  });
});

describe('a live checkout with no payment processor', () => {
  beforeAll(async () => {
    plain = await buildTestStation({}, { clock });
  });
  it('answers 503 PLATFORM_PAYMENTS_UNAVAILABLE and opens nothing', async () => {
    const artist = await seedArtist(plain, 'Unpaid Harbour');
    const product = await createProduct(plain, artist, { price: 4 });
    const buyer = await userWithRole(plain, 'listener');
    for (const url of ['/v1/checkout', '/api/checkout']) {
      const answer = await plain.http.inject({
        method: 'POST',
        url,
        headers: headers(buyer),
        payload: { product_id: product.id, price: 4, user_id: buyer.userId },
      });
      const error = expectEnvelope(answer, 503, 'PLATFORM_PAYMENTS_UNAVAILABLE');
      expect(error.message).toMatch(/no payment processor is configured/);
      expect(error.detail).toContain('STATION_STORE_SANDBOX_LIVE');
    }
    expect(await plain.database.db.select().from(storeCheckoutSessions)).toEqual([]);
    expectEnvelope(
      await plain.http.inject({ method: 'POST', url: '/api/connect/onboard', headers: headers(artist.owner), payload: {} }),
      503,
      'PLATFORM_PAYMENTS_UNAVAILABLE',
    );
  });
});

describe('a demo store’s sandbox purchase', () => {
  beforeAll(async () => {
    demo = await buildTestStation({ STATION_STORE_SANDBOX_LIVE: 'true' }, { clock });
  });
  it('completes with livemode false and counts in no payout, revenue report, admin KPI or live counter', async () => {
    const artist = await seedArtist(demo, 'Demo Harbour');
    const product = await createProduct(demo, artist, { price: 12 });
    const buyer = await userWithRole(demo, 'listener');
    await buyInSandbox(demo, buyer, product);

    const orders = (await demo.http.inject({ method: 'GET', url: '/v1/store/orders', headers: headers(buyer) })).json();
    expect(orders).toMatchObject({ total: 1, data: [{ product_id: product.id, processor: 'sandbox', livemode: false, amount_cents: 1200 }] });

    expect((await demo.http.inject({ method: 'GET', url: '/v1/payouts', headers: headers(artist.owner) })).json()).toMatchObject({ data: [], total: 0 });
    const admin = await staffLogin(demo);
    const adminHeaders = { authorization: `Bearer ${admin.token}` };
    expect((await demo.http.inject({ method: 'GET', url: '/v1/payouts', headers: adminHeaders })).json()).toMatchObject({ data: [], total: 0 });

    const period = 'from=2026-06-01&to=2026-06-30';
    const revenue = await demo.http.inject({ method: 'GET', url: `/v1/analytics/revenue?${period}`, headers: adminHeaders });
    expect(revenue.statusCode, revenue.body).toBe(200);
    expect(revenue.json()).toMatchObject({ environment: 'live', totals: [] });
    const artistReport = (
      await demo.http.inject({ method: 'GET', url: `/v1/artists/${artist.slug}/analytics?${period}`, headers: headers(artist.owner) })
    ).json();
    expect(artistReport.revenue).toEqual([]);
    const kpis = await demo.http.inject({ method: 'GET', url: `/v1/admin/analytics?${period}`, headers: adminHeaders });
    expect(kpis.statusCode, kpis.body).toBe(200);
    expect(kpis.json()).toMatchObject({ orders: 0, revenue: [] });

    // The live feed's counters (GET /v1/analytics/stream) count no order either, live or sandbox.
    const totals = await demo.database.db.execute(sql`select environment, orders, revenue_cents from analytics_live_totals where orders > 0`);
    expect((totals as unknown as { rows: unknown[] }).rows).toEqual([]);
  });
});
