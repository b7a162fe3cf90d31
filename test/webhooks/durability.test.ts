/**
 * Nothing lost, nothing doubled: an attempt left pending when a station stops is sent by the next station
 * on the same database (at its due time, under the same X-Webhook-Id), and two stations sharing one
 * database and one bus deliver every event once (PostgreSQL + Redis only).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { webhookDeliveries } from '../../src/infra/db/schema/index.js';
import { StationEvents } from '../../src/station/events/station-events.js';
import { PlatformEvents } from '../../src/platform/webhooks/platform-events.js';
import { buildTestStation, createTestDatabase, staffLogin, type TestStation } from '../helpers/station.js';
import { attemptsOf, developer, gate, hmac, nonce, registerWebhook, settledAttempts, startReceiver, until, type Receiver } from './support.js';

/** The receivers listen on 127.0.0.1, which the default egress policy (external) refuses. */
const LOOPBACK = { STATION_WEBHOOK_ALLOWED_HOSTS: 'loopback' };

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

function sharedDataDir(): string {
  // Instances of one station share DATA_DIR/keys (the key that encrypts webhook secrets among them).
  const dir = mkdtempSync(join(tmpdir(), 'station-webhooks-shared-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function receiver(answer?: Parameters<typeof startReceiver>[0]): Promise<Receiver> {
  const r = await startReceiver(answer);
  cleanups.push(() => r.close());
  return r;
}

describe('restart', () => {
  it('delivers an attempt left pending by a stopped station once a new one starts', async () => {
    const testDb = await createTestDatabase({ persistent: true });
    cleanups.push(() => testDb.drop());
    const dataDir = sharedDataDir();
    const RETRY_MS = 1_500;
    const seen = new Set<string>();
    const r = await receiver((request) => {
      if (seen.has(request.body)) return 200;
      seen.add(request.body);
      return 500;
    });

    const first: TestStation = await buildTestStation(
      { DATA_DIR: dataDir, ...LOOPBACK },
      { database: testDb, webhooks: { retry: { baseMs: RETRY_MS, random: () => 1 } }, fakeEngine: true },
    );
    let stopped = false;
    cleanups.push(async () => {
      if (!stopped) await first.destroy();
    });
    const dev = await developer(first);
    const hook = await registerWebhook(first, dev, r.url, ['station.radio.disabled']);
    const marker = nonce();
    await new StationEvents(first.bus, first.clock).emit('station.radio.disabled', { reason: 'maintenance', marker });
    const [failed] = await r.waitFor(marker, 1);
    const messageId = failed.headers['x-webhook-id'] as string;
    let pending: typeof webhookDeliveries.$inferSelect | undefined;
    await until(
      async () => {
        [pending] = await first.database.db
          .select()
          .from(webhookDeliveries)
          .where(and(eq(webhookDeliveries.webhookMessageId, messageId), eq(webhookDeliveries.attempt, 2)));
        return pending !== undefined;
      },
      5_000,
      'the second attempt to be scheduled',
    );
    await first.destroy();
    stopped = true;
    expect(r.matching(marker)).toHaveLength(1);

    const second = await buildTestStation({ DATA_DIR: dataDir, ...LOOPBACK }, { database: testDb, fakeEngine: true });
    cleanups.push(() => second.destroy());
    const requests = await r.waitFor(marker, 2, 15_000);
    expect(requests[1].headers['x-webhook-id']).toBe(messageId);
    expect(requests[1].body).toBe(requests[0].body);
    expect(requests[1].headers['x-station-signature']).toBe(hmac(hook.secret, requests[1].body));

    // The developer's token from the first station still works: same database, same DATA_DIR keys.
    const attempts = await settledAttempts(second, dev, hook.id, messageId, 2);
    expect(attempts.map((a) => [a.attempt, a.status])).toEqual([
      [1, 'retrying'],
      [2, 'succeeded'],
    ]);
    // Settled with a success: nothing more will be sent.
    expect(r.matching(marker)).toHaveLength(2);
    // Sent at the time the first station scheduled, not earlier: the new station kept the schedule.
    expect(Date.parse(attempts[1].next_attempt_at)).toBe(pending!.nextAttemptAt.getTime());
    expect(Date.parse(attempts[1].attempted_at!)).toBeGreaterThanOrEqual(Date.parse(attempts[1].next_attempt_at));
  });
});

describe('shutdown', () => {
  it('cuts an in-flight attempt short without counting it, and the next station sends it again', async () => {
    const testDb = await createTestDatabase({ persistent: true });
    cleanups.push(() => testDb.drop());
    const dataDir = sharedDataDir();
    const seen = new Set<string>();
    // The first request is never answered: only the station's own shutdown can end it in time.
    const never = gate();
    const r = await receiver((request) => {
      if (seen.has(request.body)) return 200;
      seen.add(request.body);
      return { status: 200, until: never.opened };
    });
    const first = await buildTestStation({ DATA_DIR: dataDir, ...LOOPBACK }, { database: testDb, fakeEngine: true });
    let stopped = false;
    cleanups.push(async () => {
      if (!stopped) await first.destroy();
    });
    const dev = await developer(first);
    const hook = await registerWebhook(first, dev, r.url, ['capsule.unlocked']);
    const marker = nonce();
    // Heard by the capsule's artist's owner: the developer here.
    await new PlatformEvents(first.bus, first.clock).emit('capsule.unlocked', { capsule_id: 'c-1', user_id: 'u-1', artist_id: 'a-1', marker }, 'live', {
      ownerUserId: dev.userId,
    });
    const [hanging] = await r.waitFor(marker, 1);
    await first.destroy();
    stopped = true;

    const second = await buildTestStation({ DATA_DIR: dataDir, ...LOOPBACK }, { database: testDb, fakeEngine: true });
    cleanups.push(() => second.destroy());
    const requests = await r.waitFor(marker, 2, 15_000);
    expect(requests[1].headers['x-webhook-id']).toBe(hanging.headers['x-webhook-id']);
    const attempts = await settledAttempts(second, dev, hook.id, hanging.headers['x-webhook-id'] as string, 1);
    expect(attempts.map((a) => [a.attempt, a.status, a.response_status])).toEqual([[1, 'succeeded', 200]]);
  });
});

const multiInstance = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);

describe.skipIf(!multiInstance)('two stations on one database and one bus', () => {
  it('deliver each event exactly once, whichever station emitted it', async () => {
    const testDb = await createTestDatabase();
    cleanups.push(() => testDb.drop());
    const env = { DATA_DIR: sharedDataDir(), REDIS_PREFIX: `test-${randomBytes(5).toString('hex')}`, ...LOOPBACK };
    const a = await buildTestStation(env, { database: testDb, fakeEngine: true });
    cleanups.push(() => a.destroy());
    const b = await buildTestStation(env, { database: testDb, fakeEngine: true });
    cleanups.push(() => b.destroy());

    const r = await receiver();
    // user.subscribed is for admin-owned webhooks only.
    const dev = await staffLogin(a);
    const hook = await registerWebhook(a, dev, r.url, ['station.track.now_playing', 'user.subscribed']);

    const markers: string[] = [];
    for (let i = 0; i < 6; i++) {
      const from = i % 2 === 0 ? a : b;
      const marker = nonce();
      markers.push(marker);
      if (i % 3 === 2) await new PlatformEvents(from.bus, from.clock).emit('user.subscribed', { user_id: `u-${i}`, plan: 'pro', amount: 9, marker });
      else await new StationEvents(from.bus, from.clock).emit('station.track.now_playing', { seq: i, marker });
    }
    for (const marker of markers) await r.waitFor(marker, 1, 15_000);
    const messageIds = new Set(markers.map((m) => r.matching(m)[0].headers['x-webhook-id'] as string));
    expect(messageIds.size).toBe(markers.length);
    let attempts: Awaited<ReturnType<typeof attemptsOf>> = [];
    await until(
      async () => {
        attempts = (await attemptsOf(b, dev, hook.id)).filter((x) => messageIds.has(x.webhook_message_id));
        return attempts.length >= markers.length && attempts.every((x) => x.status !== 'pending');
      },
      5_000,
      'every attempt recorded',
    );
    // One attempt per event (whichever station created it), sent once and settled: nothing more will be sent.
    expect(attempts).toHaveLength(markers.length);
    expect(attempts.every((x) => x.status === 'succeeded' && x.attempt === 1)).toBe(true);
    for (const marker of markers) {
      const got = r.matching(marker);
      expect(got, marker).toHaveLength(1);
      const signature = got[0].headers[got[0].body.includes('"user.subscribed"') ? 'x-platform-signature' : 'x-station-signature'];
      expect(signature).toBe(hmac(hook.secret, got[0].body));
    }
  });
});
