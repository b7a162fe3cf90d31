/**
 * GET /v1/analytics/stream over a real socket: the snapshot, heartbeats, plays (a listener's stream, a radio
 * airing) and a sandbox purchase pushed as they happen with increasing ids and the day's counters, resume with
 * Last-Event-ID (exactly the missed events; a snapshot when the id is unknown or the buffer no longer has it),
 * the bounded buffer, the sandbox rule, and the stream closed when its login is revoked or its user banned.
 * With PostgreSQL and Redis: two instances, an event recorded on one reaches a client of the other, and a
 * client resumes on either.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogRepository } from '../../src/platform/catalog/catalog.repository.js';
import { buildTestStation, createTestDatabase, type TestStation } from '../helpers/station.js';
import { bearer, createKey, loginAs, type Login } from './accounts-support.js';
import { insertOrder, insertPlays, seedArtist, SseClient, type CatalogArtist, type SseFrame } from './analytics-support.js';
import { seedArtist as seedStoreArtist } from './store-support.js';

const STREAM = '/v1/analytics/stream';
const today = () => new Date().toISOString().slice(0, 10);
const listen = (station: TestStation) => station.http.listen({ port: 0, host: '127.0.0.1' });

/** A play by a listener who has not played the track lately (one listener's repeats within its length count once). */
async function playOn(station: TestStation, trackId: string) {
  const who = await loginAs(station, 'listener');
  const answer = await station.http.inject({
    method: 'GET',
    url: `/v1/tracks/${trackId}/stream`,
    headers: { ...bearer(who), 'user-agent': 'Mozilla/5.0 (iPhone) Mobile' },
  });
  expect(answer.statusCode).toBe(302);
}

describe('the live analytics stream', () => {
  let station: TestStation;
  let base: string;
  let developer: Login;
  let listener: Login;
  let artist: CatalogArtist;
  const open: SseClient[] = [];
  const connect = async (headers: Record<string, string>) => {
    const client = await SseClient.open(base + STREAM, headers);
    open.push(client);
    return client;
  };

  beforeAll(async () => {
    station = await buildTestStation({}, { analytics: { heartbeatMs: 150 } });
    base = await listen(station);
    developer = await loginAs(station, 'developer');
    listener = await loginAs(station, 'listener');
    artist = await seedArtist(station, null, 2);
  });
  afterAll(async () => {
    for (const client of open) client.close();
    await station?.destroy();
  });

  it('opens with a snapshot of today’s counters, then sends heartbeat comments', async () => {
    const client = await connect(bearer(developer));
    expect(client.status).toBe(200);
    expect(client.headers['content-type']).toMatch(/^text\/event-stream/);
    const snapshot = await client.next('the snapshot', (f) => f.event === 'snapshot');
    expect(client.frames[0].retry).toBeGreaterThan(0);
    expect(snapshot.id).toMatch(/^\d+$/);
    expect(snapshot.data).toMatchObject({ type: 'snapshot', reset: null, listeners: 0, counters: { day: today() } });
    await client.next('a heartbeat', (f) => f.comment?.startsWith('heartbeat') ?? false);

    // Three listeners arrive (on any instance: they share one presence), the count is published, and the gauge
    // follows (no id: never replayed).
    const { presence, counter } = station.station.realtime;
    const leave = ['a', 'b', 'c'].map((name) => presence.enter(`user:gauge-${name}`));
    await counter.publish();
    const gauge = await client.next('the listener gauge', (f) => f.event === 'listeners' && f.data.listeners === 3);
    expect(gauge.id).toBeUndefined();
    for (const done of leave) done();
    await counter.publish();
    await client.next('the listener gauge back to 0', (f) => f.event === 'listeners' && f.data.listeners === 0);
    client.close();
  });

  it('pushes plays and purchases as they happen, numbered in order, with the day’s counters', async () => {
    const client = await connect(bearer(developer));
    const snapshot = await client.next('the snapshot', (f) => f.event === 'snapshot');
    const head = Number(snapshot.id);
    const before = snapshot.data.counters;

    await playOn(station, artist.trackIds[0]);
    const play = await client.next('the listener’s play', (f) => f.event === 'play');
    expect(Number(play.id)).toBe(head + 1);
    expect(play.data).toMatchObject({ id: head + 1, type: 'play', track_id: artist.trackIds[0], artist_id: artist.id, source: 'on_demand', device: 'mobile' });
    expect(play.data.counters).toMatchObject({
      day: today(),
      plays: before.plays + 1,
      on_demand_plays: before.on_demand_plays + 1,
      radio_plays: before.radio_plays,
    });
    expect(play.data).not.toHaveProperty('user_id');

    // A radio airing, written as the scheduler writes it (no bus message of its own: the next read finds it).
    await new CatalogRepository(station.database.db).recordPlay({ trackId: artist.trackIds[1], userId: null, source: 'radio' });
    const radio = await client.next('the radio airing', (f) => f.event === 'play' && f.data.source === 'radio');
    expect(Number(radio.id)).toBe(head + 2);
    expect(radio.data.counters).toMatchObject({ plays: before.plays + 2, radio_plays: before.radio_plays + 1 });

    const seller = await seedStoreArtist(station, 'Live Seller');
    // A live purchase paid for real (Stripe); a sandbox payment is never live money (store-livemode.test.ts).
    const product = await insertOrder(station, { artistId: seller.id, userId: listener.userId, amountCents: 499, at: new Date().toISOString() });
    const order = await client.next('the purchase', (f) => f.event === 'order');
    expect(Number(order.id)).toBe(head + 3);
    expect(order.data).toMatchObject({ type: 'order', artist_id: seller.id, product_id: product.productId, amount_cents: 499, currency: 'usd' });
    expect(order.data.counters).toMatchObject({ orders: before.orders + 1, revenue_cents: { usd: (before.revenue_cents.usd ?? 0) + 499 } });
    expect(order.data).not.toHaveProperty('user_id');

    const ids = client.events().map((f) => Number(f.id));
    expect(ids).toEqual([head, head + 1, head + 2, head + 3]);
    client.close();
  });

  it('resumes from Last-Event-ID with exactly the missed events, on a new connection', async () => {
    const first = await connect(bearer(developer));
    const head = Number((await first.next('the snapshot', (f) => f.event === 'snapshot')).id);
    await playOn(station, artist.trackIds[0]);
    const seen = await first.next('a play', (f) => f.event === 'play');
    first.close();

    await playOn(station, artist.trackIds[1]);
    await playOn(station, artist.trackIds[0]);
    const resumed = await connect({ ...bearer(developer), 'last-event-id': seen.id! });
    await resumed.next('the listener gauge after the replay', (f) => f.event === 'listeners');
    const replayed = resumed.events();
    expect(replayed.map((f) => [Number(f.id), f.event, f.data.track_id])).toEqual([
      [head + 2, 'play', artist.trackIds[1]],
      [head + 3, 'play', artist.trackIds[0]],
    ]);
    expect(replayed[1].data.counters.plays).toBe(replayed[0].data.counters.plays + 1);

    // And it goes on live from there.
    await playOn(station, artist.trackIds[1]);
    expect(Number((await resumed.next('the next live play', (f) => Number(f.id) === head + 4)).id)).toBe(head + 4);
    resumed.close();
  });

  it('answers an id it never issued, or one the buffer no longer holds, with a fresh snapshot', async () => {
    const probe = await connect(bearer(developer));
    const head = Number((await probe.next('the snapshot', (f) => f.event === 'snapshot')).id);
    probe.close();
    for (const id of [String(head + 1000), 'not-a-number']) {
      const client = await connect({ ...bearer(developer), 'last-event-id': id });
      const snapshot = await client.next('a reset snapshot', (f) => f.event === 'snapshot');
      expect(snapshot).toMatchObject({ id: String(head), data: { reset: 'unknown_or_expired_event_id' } });
      client.close();
    }

    await playOn(station, artist.trackIds[0]);
    await playOn(station, artist.trackIds[0]);
    // What the trigger's pruning does to old events: here the first of the two is gone.
    await station.database.db.execute(sql`delete from analytics_live_events where id <= ${head + 1}`);
    const expired = await connect({ ...bearer(developer), 'last-event-id': String(head - 1) });
    const snapshot = await expired.next('a reset snapshot', (f) => f.event === 'snapshot');
    expect(snapshot).toMatchObject({ id: String(head + 2), data: { reset: 'unknown_or_expired_event_id' } });
    expired.close();
    const covered = await connect({ ...bearer(developer), 'last-event-id': String(head + 1) });
    const replayed = await covered.next('the one event still held', (f) => f.event === 'play');
    expect(Number(replayed.id)).toBe(head + 2);
    covered.close();
  });

  it('keeps a bounded buffer: the trigger forgets events beyond the last `retain`', async () => {
    const { db } = station.database;
    await db.execute(sql`update analytics_live_head set retain = 3`);
    try {
      await insertPlays(
        station,
        Array.from({ length: 100 }, () => ({ trackId: artist.trackIds[0], at: new Date().toISOString() })),
      );
      const result = await db.execute(sql`select (select seq from analytics_live_head) as head, min(id) as oldest from analytics_live_events`);
      const [state] = (result as unknown as { rows: { head: string | number; oldest: string | number }[] }).rows;
      const pruneAt = Math.floor(Number(state.head) / 100) * 100;
      expect(Number(state.oldest)).toBe(pruneAt - 2);
    } finally {
      await db.execute(sql`update analytics_live_head set retain = 10000`);
    }
  });

  it('shows a test key sandbox purchases and none of the live events', async () => {
    const key = await createKey(station, developer, { scopes: ['analytics:read'], environment: 'test' });
    const client = await connect({ 'x-api-key': key.key });
    const snapshot = await client.next('the sandbox snapshot', (f) => f.event === 'snapshot');
    expect(snapshot.data.counters).toMatchObject({ plays: 0 });
    await playOn(station, artist.trackIds[0]);
    await insertOrder(station, { artistId: artist.id, userId: listener.userId, amountCents: 250, at: new Date().toISOString(), livemode: false });
    const order = await client.next('the sandbox order (found by the heartbeat’s read)', (f) => f.event === 'order');
    expect(order.data).toMatchObject({ amount_cents: 250, counters: { orders: snapshot.data.counters.orders + 1 } });
    expect(client.frames.filter((f: SseFrame) => f.event === 'play')).toEqual([]);
    client.close();
  });

  it('ends the stream with a close frame when its login is revoked or its user banned', async () => {
    const revoked = await loginAs(station, 'developer');
    const client = await connect(bearer(revoked));
    await client.next('the snapshot', (f) => f.event === 'snapshot');
    expect((await station.http.inject({ method: 'POST', url: '/v1/auth/revoke', headers: bearer(revoked) })).statusCode).toBe(200);
    expect((await client.next('the close frame', (f) => f.event === 'close')).data).toEqual({ reason: 'revoked' });
    await client.closedByServer();

    const banned = await loginAs(station, 'developer');
    const other = await connect(bearer(banned));
    await other.next('the snapshot', (f) => f.event === 'snapshot');
    await station.auth.setUserStatus(banned.userId, 'banned');
    expect((await other.next('the close frame', (f) => f.event === 'close')).data).toEqual({ reason: 'revoked' });
    await other.closedByServer();
  });
});

const multiInstance = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);

describe.skipIf(!multiInstance)('the live analytics stream across two instances', () => {
  let a: TestStation;
  let b: TestStation;
  let baseA: string;
  let baseB: string;
  const cleanups: Array<() => Promise<void> | void> = [];

  beforeAll(async () => {
    const testDb = await createTestDatabase();
    cleanups.push(() => testDb.drop());
    const dataDir = mkdtempSync(join(tmpdir(), 'station-analytics-shared-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const env = { DATA_DIR: dataDir, REDIS_PREFIX: `test-${randomBytes(5).toString('hex')}` };
    // Heartbeats far apart: an event can reach the other instance in time only through the bus.
    const options = { database: testDb, analytics: { heartbeatMs: 600_000 } };
    a = await buildTestStation(env, options);
    b = await buildTestStation(env, options);
    cleanups.push(
      () => a.destroy(),
      () => b.destroy(),
    );
    baseA = await listen(a);
    baseB = await listen(b);
  });
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('pushes a play recorded on one instance to a client of the other, and resumes on either', async () => {
    const developer = await loginAs(a, 'developer');
    const artist = await seedArtist(a, null, 1);
    const onB = await SseClient.open(baseB + STREAM, bearer(developer));
    const head = Number((await onB.next('the snapshot on B', (f) => f.event === 'snapshot')).id);

    await playOn(a, artist.trackIds[0]);
    const play = await onB.next('A’s play on B', (f) => f.event === 'play', 0, 10_000);
    expect(Number(play.id)).toBe(head + 1);
    onB.close();

    await playOn(b, artist.trackIds[0]);
    const onA = await SseClient.open(baseA + STREAM, { ...bearer(developer), 'last-event-id': play.id! });
    const replayed = await onA.next('B’s play replayed on A', (f) => f.event === 'play');
    expect(Number(replayed.id)).toBe(head + 2);
    expect(replayed.data.counters.plays).toBe(play.data.counters.plays + 1);
    onA.close();
  });
});
