/**
 * The transactional outbox (issue 20): an event raised by a database change has its delivery rows written in
 * the transaction of that change, so the change and its event commit together. What runs after the commit (the
 * bus publish, the delivery jobs) only wakes the delivery up. Here the process "crashes" right after each
 * commit: every after-commit step of the emitting station throws (the bus publish of the event channels, the
 * dispatcher's after-commit record, the webhook queue's adds), then the station is stopped, and a new station on
 * the same database sends each event once, from the rows committed with the change: an order paid, an artist
 * verified, an account created, a Pro subscription paid, a track taken down, a capsule unlocked, the radio
 * switched on. (track.published, the generation, training and lyrics events go through the same port from their
 * own transactions; their flows are covered by their suites.)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { artists, capsuleUnlocks, stationConfig, storeOrders, tracks, users } from '../../src/infra/db/schema/index.js';
import { WEBHOOK_QUEUE } from '../../src/platform/webhooks/delivery.js';
import { WebhookDispatcher } from '../../src/platform/webhooks/dispatcher.js';
import { PLATFORM_EVENTS_CHANNEL } from '../../src/platform/webhooks/platform-events.js';
import { STATION_EVENTS_CHANNEL } from '../../src/station/events/station-events.js';
import { buildTestStation, createTestDatabase, staffLogin, type TestStation } from '../helpers/station.js';
import { randomClientIp } from '../foundation/support.js';
import { createProduct, headers, seedArtist, userWithRole } from '../platform/store-support.js';
import { attemptsOf, registerWebhook, startReceiver, until, type Attempt } from './support.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** Every step the emitting station takes after a change commits fails from now on, as if it had died there. */
function crashAfterCommit(station: TestStation): void {
  const publish = station.bus.publish.bind(station.bus);
  vi.spyOn(station.bus, 'publish').mockImplementation((channel, message) =>
    channel === PLATFORM_EVENTS_CHANNEL || channel === STATION_EVENTS_CHANNEL ? Promise.reject(new Error('crashed after commit')) : publish(channel, message),
  );
  vi.spyOn(WebhookDispatcher.prototype, 'record').mockRejectedValue(new Error('crashed after commit'));
  const add = station.queue.add.bind(station.queue);
  vi.spyOn(station.queue, 'add').mockImplementation((queue, name, data, options) =>
    queue === WEBHOOK_QUEUE ? Promise.reject(new Error('crashed after commit')) : add(queue, name, data, options),
  );
}

/** Opens a sandbox checkout (store or Pro) and presses Pay; answers the Pay request's status (the change commits either way). */
async function payAt(station: TestStation, checkoutUrl: string): Promise<number> {
  const url = new URL(checkoutUrl);
  const page = await station.http.inject({ method: 'GET', url: url.pathname + url.search });
  const form = /<form method="post" action="([^"]+)"><input type="hidden" name="token" value="([^"]+)">/.exec(page.body);
  expect(form, page.body).not.toBeNull();
  const paid = await station.http.inject({
    method: 'POST',
    url: form![1],
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ token: form![2] }).toString(),
  });
  return paid.statusCode;
}

describe('an event raised by a committed change, the station crashing before the after-commit step', () => {
  it('is delivered once by the next station on the database', { timeout: 90_000 }, async () => {
    const testDb = await createTestDatabase({ persistent: true });
    cleanups.push(() => testDb.drop());
    // Instances of one station share DATA_DIR/keys (tokens, and the key of the webhook secrets).
    const dataDir = mkdtempSync(join(tmpdir(), 'station-outbox-shared-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const env = { DATA_DIR: dataDir, STATION_WEBHOOK_ALLOWED_HOSTS: 'loopback', STATION_STORE_SANDBOX_LIVE: 'true' };
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());

    const errors: string[] = [];
    const first = await buildTestStation(env, { database: testDb, fakeEngine: true, webhooks: { onError: (what) => errors.push(what) } });
    let stopped = false;
    cleanups.push(async () => {
      if (!stopped) await first.destroy();
    });
    const admin = await staffLogin(first);
    const events = ['payment.success', 'artist.verified', 'user.signup', 'user.subscribed', 'track.removed', 'capsule.unlocked', 'station.radio.enabled'];
    const hook = await registerWebhook(first, admin, receiver.url, events);
    const seller = await seedArtist(first, 'Outbox Harbour');
    const product = await createProduct(first, seller, { price: 4.5 });
    const buyer = await userWithRole(first, 'listener');
    const capsule = await first.http.inject({
      method: 'POST',
      url: '/v1/capsules',
      headers: headers(seller.owner),
      payload: { title: 'Vault', teaser: 'From the vault', content_text: 'Hidden words' },
    });
    expect(capsule.statusCode, capsule.body).toBe(201);
    const capsuleId = capsule.json().id as string;
    const newcomer = `outbox-${randomBytes(5).toString('hex')}@example.com`;

    crashAfterCommit(first);
    // Each change below commits; everything after its commit fails.
    const statuses: Record<string, number> = {};
    const session = await first.http.inject({
      method: 'POST',
      url: '/v1/checkout',
      headers: headers(buyer),
      payload: { product_id: product.id, price: product.price, user_id: buyer.userId },
    });
    expect(session.statusCode, session.body).toBe(200);
    statuses['payment.success'] = await payAt(first, session.json().checkout_url);
    statuses['artist.verified'] = (
      await first.http.inject({ method: 'POST', url: `/v1/admin/artists/${seller.slug}/verify`, headers: headers(admin) })
    ).statusCode;
    const signup = await first.http.inject({
      method: 'POST',
      url: '/v1/auth/signup',
      remoteAddress: randomClientIp(),
      payload: { email: newcomer, password: 'newcomer-password', display_name: 'Newcomer' },
    });
    statuses['user.signup'] = signup.statusCode;
    const pro = await first.http.inject({ method: 'POST', url: '/v1/subscriptions', headers: headers(buyer), payload: { plan: 'pro' } });
    expect(pro.statusCode, pro.body).toBe(200);
    statuses['user.subscribed'] = await payAt(first, pro.json().checkout_url);
    statuses['track.removed'] = (
      await first.http.inject({
        method: 'DELETE',
        url: `/v1/tracks/${seller.trackIds[2]}`,
        headers: headers(seller.owner),
        payload: { reason: 'Rights dispute' },
      })
    ).statusCode;
    statuses['capsule.unlocked'] = (await first.http.inject({ method: 'POST', url: `/v1/capsules/${capsuleId}/unlock`, headers: headers(buyer) })).statusCode;
    statuses['station.radio.enabled'] = (
      await first.http.inject({ method: 'POST', url: '/station/v1/admin/radio/enable', headers: headers(admin) })
    ).statusCode;

    // The changes committed.
    const { db } = first.database;
    const [order] = await db.select().from(storeOrders).where(eq(storeOrders.artistId, seller.id));
    expect(order?.userId).toBe(buyer.userId);
    expect((await db.select({ verified: artists.verified }).from(artists).where(eq(artists.id, seller.id)))[0].verified).toBe(true);
    const [created] = await db.select({ id: users.id }).from(users).where(eq(users.email, newcomer));
    expect(created).toBeDefined();
    expect((await db.select({ plan: users.plan }).from(users).where(eq(users.id, buyer.userId)))[0].plan).toBe('pro');
    expect((await db.select({ status: tracks.status }).from(tracks).where(eq(tracks.id, seller.trackIds[2])))[0].status).toBe('removed');
    expect(await db.select().from(capsuleUnlocks).where(eq(capsuleUnlocks.capsuleId, capsuleId))).toHaveLength(1);
    expect((await db.select({ on: stationConfig.radioEnabled }).from(stationConfig))[0].on).toBe(true);
    // The station dies before anything after the commits ran: nothing was sent.
    await first.destroy();
    stopped = true;
    vi.restoreAllMocks();
    expect(receiver.received).toHaveLength(0);

    const second = await buildTestStation(env, { database: testDb, fakeEngine: true });
    cleanups.push(() => second.destroy());
    // Each marker is in one event's body only (the seller's id is in capsule.unlocked's too, so the verification
    // is found by its verifier: the events arrive in no set order).
    const bodies = await Promise.all(
      [order.id, `"verified_by":"${admin.userId}"`, created.id, '"plan":"pro"', seller.trackIds[2], capsuleId, 'station.radio.enabled'].map(
        async (marker) => JSON.parse((await receiver.waitFor(marker, 1, 20_000))[0].body) as { event: string; data: Record<string, unknown> },
      ),
    );
    expect(bodies.map((body) => body.event)).toEqual(events);
    expect(bodies[0].data).toMatchObject({ order_id: order.id, user_id: buyer.userId });
    expect(bodies[1].data).toEqual({ artist_id: seller.id, verified_by: admin.userId });
    expect(bodies[2].data).toMatchObject({ user_id: created.id, email: newcomer, plan: 'free' });
    expect(bodies[3].data).toMatchObject({ user_id: buyer.userId, plan: 'pro' });
    expect(bodies[4].data).toEqual({ track_id: seller.trackIds[2], reason: 'Rights dispute' });
    expect(bodies[5].data).toEqual({ capsule_id: capsuleId, user_id: buyer.userId, artist_id: seller.id });
    expect(bodies[6].data).toMatchObject({ enabled_by: admin.userId });

    // Each once, settled: nothing more will be sent.
    let attempts: Attempt[] = [];
    await until(
      async () => {
        attempts = await attemptsOf(second, admin, hook.id);
        return attempts.length >= events.length && attempts.every((a) => a.status !== 'pending');
      },
      5_000,
      'every attempt settled',
    );
    expect(attempts.map((a) => [a.event, a.attempt, a.status]).sort()).toEqual(events.map((event) => [event, 1, 'succeeded']).sort());
    expect(receiver.received).toHaveLength(events.length);
    // The changes' requests were answered as done: what failed after their commits is the outbox's to make
    // good (the first station's sweep, had it lived, or here the next station's start).
    expect(statuses).toEqual({
      'payment.success': 200,
      'artist.verified': 200,
      'user.signup': 201,
      'user.subscribed': 200,
      'track.removed': 200,
      'capsule.unlocked': 200,
      'station.radio.enabled': 200,
    });
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((what) => /not queued \(the sweep will queue it\)/.test(what))).toBe(true);
  });
});
