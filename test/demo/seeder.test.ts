/**
 * Issue 8, item 9: the demo seed trains the audio model on the first masters and again as more arrive
 * (each version deployed), publishes what it will still deploy, and only one instance seeds at a time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ManualClock } from '../../src/infra/clock/clock.js';
import { demoSeed, modelVersions, tracks } from '../../src/infra/db/schema/index.js';
import { DemoSeedState, SEED_LEASE_MS } from '../../src/demo/seed-state.js';
import { seedDemoCatalog } from '../../src/demo/seed-catalog.js';
import { stationForSuite, createTestDatabase, type TestDatabase } from '../helpers/station.js';

describe('demo seed lease', () => {
  let database: TestDatabase;
  let opened: Awaited<ReturnType<TestDatabase['open']>>;
  let db: Awaited<ReturnType<TestDatabase['open']>>['db'];
  const clock = new ManualClock(Date.UTC(2026, 0, 15, 12, 0, 0));

  beforeAll(async () => {
    database = await createTestDatabase();
    opened = await database.open();
    await opened.migrate();
    db = opened.db;
  });
  afterAll(async () => {
    await opened.close();
    await database.drop();
  });

  it('lets one instance seed at a time, hands over when the holder stops renewing, and ends for good when done', async () => {
    const a = new DemoSeedState(db, clock, 'instance-a');
    const b = new DemoSeedState(db, clock, 'instance-b');
    expect(await Promise.all([a.acquire(), b.acquire()])).toEqual([true, false]);
    clock.advance(SEED_LEASE_MS - 1);
    expect(await a.renew()).toBe(true);
    clock.advance(SEED_LEASE_MS - 1);
    expect(await b.acquire()).toBe(false);
    await a.progress('audio model', { audio: new Date(clock.now() + 40_000) });
    const [row] = await db.select().from(demoSeed);
    expect(row).toMatchObject({ holder: 'instance-a', step: 'audio model', expected: { audio: new Date(clock.now() + 40_000).toISOString() } });

    clock.advance(SEED_LEASE_MS); // a died: its lease lapses
    expect(await b.acquire()).toBe(true);
    expect(await a.renew()).toBe(false);
    await b.complete();
    expect(await b.completed()).toBe(true);
    clock.advance(10 * SEED_LEASE_MS);
    expect(await a.acquire()).toBe(false);
  });
  it('gives a track whose master is not rendered yet the length it is planned at', async () => {
    expect(await seedDemoCatalog(db, { plannedSec: 42 })).toBe(true);
    const rows = await db.select({ durationSec: tracks.durationSec, audio: tracks.audioBlobKey }).from(tracks);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.durationSec === 42 && row.audio === null)).toBe(true);
  });
});

// The order of the seed's steps is the seeder's, whatever renders and trains: the FakeEngine (instant training,
// short tone masters) here. The real engine's whole seed runs in test/e2e/radio.test.ts and its masters in
// seed-masters.test.ts; on the LocalEngine this suite alone took four to eight minutes, CI's longest pole.
describe('demo seed order', () => {
  const station = stationForSuite({ STATION_DEMO: 'true', STATION_DEMO_TRACK_SEC: '6', STATION_SCHEDULER_CYCLE_SEC: '3600' }, { fakeEngine: true });
  beforeAll(async () => {
    await station.station.demo!.done;
  }, 600_000);

  it('deploys an audio model trained on the first masters, then retrained versions as the rest arrive, and finishes', async () => {
    const db = station.database.db;
    const audio = await db.select().from(modelVersions).where(eq(modelVersions.modelType, 'audio'));
    const items = audio.map((m) => Number(m.lineage.items)).sort((x, y) => x - y);
    const masters = (await db.select({ id: tracks.id }).from(tracks).where(eq(tracks.environment, 'live'))).length;
    expect(items[0]).toBeLessThan(masters); // the first version did not wait for every master
    expect(items[items.length - 1]).toBe(masters);
    const production = await station.station.models.production('audio');
    expect(Number(production!.lineage.items)).toBe(masters);
    expect(audio.every((m) => m.deployedAt !== null)).toBe(true); // each version was deployed in its turn
    expect(await station.station.models.production('lyrics')).not.toBeNull();
    expect(await station.station.models.production('style_embedding')).not.toBeNull();
    const [seed] = await db.select().from(demoSeed);
    expect(seed.completedAt).not.toBeNull();
    expect(seed.expected).toEqual({});
  });

  it('shows the demo accounts to the sign-in page (GET /v1/demo/accounts, public) and they sign in', async () => {
    const answer = await station.http.inject({ url: '/v1/demo/accounts' });
    expect(answer.statusCode, answer.body).toBe(200);
    const accounts: { role: string; email: string; password: string }[] = answer.json();
    expect(accounts.map((a) => a.role)).toEqual(['listener', 'artist', 'integrator']);
    for (const { email, password } of accounts) {
      const login = await station.http.inject({ method: 'POST', url: '/v1/auth/login', remoteAddress: '198.51.100.77', payload: { email, password } });
      expect(login.statusCode, login.body).toBe(200);
    }
  });

  it("gives the sandbox a copy of every demo track, playing its original's final master", async () => {
    const db = station.database.db;
    const rows = await db.select().from(tracks);
    const live = new Map(rows.filter((t) => t.environment === 'live').map((t) => [t.slug, t]));
    const copies = rows.filter((t) => t.environment === 'test');
    expect(copies.length).toBe(live.size);
    for (const copy of copies) {
      const original = live.get(copy.slug)!;
      expect(copy.id).not.toBe(original.id);
      expect([copy.audioBlobKey, copy.coverBlobKey, copy.durationSec]).toEqual([original.audioBlobKey, original.coverBlobKey, original.durationSec]);
    }
  });
});
