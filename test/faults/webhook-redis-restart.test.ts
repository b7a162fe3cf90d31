/**
 * Webhook deliveries across a Redis restart (issue 20: "no webhook delivery lost"). A station whose radio
 * changes track every few seconds has a webhook on station.track.now_playing, received by a loopback server in
 * the test. Redis (a private redis-server, restarted empty: no persistence) is killed for longer than a track,
 * then started again. Every track that started after the webhook was registered, before, during and after
 * the outage, is delivered exactly once (one successful request per X-Webhook-Id, one X-Webhook-Id per play).
 * The radio has no leader while Redis is down, so its starts are recorded (and their events emitted) once it is
 * back; an admin verifying an artist during the outage raises `artist.verified` then. The outage outlasts the
 * window a bus publish waits through Redis reconnects (shortened here from ~75 s to a fraction of a second by
 * STATION_BUS_PUBLISH_RETRIES), so that event never reaches the bus: it must be answered 200 and delivered
 * exactly once after Redis returns, from what the emitting side recorded in PostgreSQL (the webhooks' outbox).
 *
 * A retry waiting in BullMQ (a delayed job) when Redis restarts empty is lost to the queue: the sweep, which
 * every instance runs each period, finds the attempt overdue in PostgreSQL and queues it again, so it goes out
 * once, under the same X-Webhook-Id, at most two sweep periods after it was due once Redis is back.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../src/auth/totp.js';
import { ADMIN, buildTestStation } from '../helpers/station.js';
import { PlatformEvents } from '../../src/platform/webhooks/platform-events.js';
import { attemptsOf, developer, nonce, registerWebhook, settledAttempts, startReceiver } from '../webhooks/support.js';
import { DATABASE_URL, FaultStation, REDIS_URL, freePort, readyz, sleep, startRedis, until } from './support.js';

const STAFF = { STATION_ADMIN_EMAIL: ADMIN.email, STATION_ADMIN_PASSWORD: ADMIN.password, STATION_ADMIN_TOTP_SECRET: ADMIN.totpSecret };

interface Delivery {
  at: number;
  messageId: string;
  startedAt: string;
}

describe.skipIf(!DATABASE_URL || !REDIS_URL)('webhook deliveries across a Redis restart', () => {
  const station = new FaultStation();
  const cleanups: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    await station.close();
  });

  it('delivers every now-playing event once, those raised during the outage too', { timeout: 150_000 }, async () => {
    const t0 = Date.now();
    const phase = (what: string) => process.stdout.write(`webhook-redis: ${what} at ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
    const deliveries: Delivery[] = [];
    const verifications: { at: number; messageId: string; artistId: string }[] = [];
    const receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        const parsed = JSON.parse(body) as { event: string; data: { started_at: string; artist_id: string } };
        if (parsed.event === 'station.track.now_playing')
          deliveries.push({ at: Date.now(), messageId: String(request.headers['x-webhook-id']), startedAt: parsed.data.started_at });
        if (parsed.event === 'artist.verified')
          verifications.push({ at: Date.now(), messageId: String(request.headers['x-webhook-id']), artistId: parsed.data.artist_id });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => receiver.close(() => resolve())));
    const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

    await station.seed({ trackCount: 3, trackSec: 6, crossfadeSec: 1 });
    const redisPort = await freePort();
    let redis = await startRedis(redisPort);
    cleanups.push(() => void redis.kill('SIGKILL'));
    const instance = await station.start('a', {
      ...STAFF,
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      STATION_WEBHOOK_ALLOWED_HOSTS: 'loopback',
      // A publish gives up after one reconnect attempt (~0.1 s): the 10 s outage is far longer than the window.
      STATION_BUS_PUBLISH_RETRIES: '1',
    });
    phase('instance ready');

    const login = await fetch(`${instance.base}/api/auth/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password, totp_code: totpCode(ADMIN.totpSecret, Date.now()) }),
    });
    expect(login.status).toBe(200);
    const { access_token: token, csrf_token: csrf } = (await login.json()) as { access_token: string; csrf_token: string };
    const registered = await fetch(`${instance.base}/v1/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'x-csrf-token': csrf, 'content-type': 'application/json' },
      body: JSON.stringify({ url: hookUrl, events: ['station.track.now_playing', 'artist.verified'] }),
    });
    expect(registered.status, await registered.clone().text()).toBe(201);
    const registeredAt = Date.now();

    await until(
      'a delivery before the outage',
      () => deliveries.length,
      (n) => n >= 1,
      30_000,
    );
    redis.kill('SIGKILL');
    const killedAt = Date.now();
    phase('Redis killed');
    await sleep(2_000); // past the bus's publish window (one reconnect attempt)
    // A platform event raised during the outage: the change is committed and its event recorded, not lost.
    const verify = await fetch(`${instance.base}/v1/admin/artists/fault-tones/verify`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'x-csrf-token': csrf },
      signal: AbortSignal.timeout(10_000),
    });
    const verified = (await verify.json()) as { id: string };
    expect(verify.status, JSON.stringify(verified)).toBe(200);
    phase('artist verified during the outage');
    await sleep(Math.max(0, killedAt + 10_000 - Date.now())); // longer than a track: at least one starts during the outage
    redis = await startRedis(redisPort);
    const backAt = Date.now();
    phase('Redis back');
    await until(
      'ready again',
      () => readyz(instance),
      (s) => s === 200,
      30_000,
    );
    await until('a delivery of a track started after the outage', () => deliveries.some((d) => Date.parse(d.startedAt) > backAt), Boolean, 30_000);
    await until(
      'the verification delivered',
      () => verifications.length,
      (n) => n >= 1,
      30_000,
    );
    const firstAfter = Math.min(...deliveries.map((d) => Date.parse(d.startedAt)).filter((at) => at > backAt));
    await sleep(3_000); // time for a doubled delivery to arrive

    // The plays recorded since the webhook was registered (one row per track start).
    const db = new pg.Client({ connectionString: station.database.url! });
    await db.connect();
    const allPlays = (await db.query<{ started_at: Date }>('select started_at from station_plays order by started_at')).rows.map((row) =>
      row.started_at.toISOString(),
    );
    // Those that must have been delivered: started once the webhook was registered, up to the first after the outage.
    const plays = allPlays.filter((at) => Date.parse(at) > registeredAt + 1000 && Date.parse(at) <= firstAfter);
    await db.end();
    const during = plays.filter((at) => Date.parse(at) > killedAt && Date.parse(at) < backAt);
    phase(`${plays.length} plays (${during.length} during the outage), ${deliveries.length} deliveries`);
    for (const d of deliveries) phase(`delivery ${d.messageId} for ${d.startedAt} at ${((d.at - t0) / 1000).toFixed(1)} s`);
    for (const p of plays) phase(`play ${p}`);
    phase(`artist.verified delivered ${((verifications[0].at - backAt) / 1000).toFixed(1)} s after Redis was back`);
    expect(verifications.map((v) => v.artistId)).toEqual([verified.id]);
    expect(during.length).toBeGreaterThan(0);
    // One request per message id (nothing doubled), one message per play (nothing lost).
    expect(new Set(deliveries.map((d) => d.messageId)).size).toBe(deliveries.length);
    expect(new Set(deliveries.map((d) => d.startedAt)).size).toBe(deliveries.length);
    for (const d of deliveries) expect(allPlays).toContain(d.startedAt);
    for (const startedAt of plays)
      expect(
        deliveries.filter((d) => d.startedAt === startedAt),
        startedAt,
      ).toHaveLength(1);
  });
});

describe.skipIf(!DATABASE_URL || !REDIS_URL)('a webhook retry waiting in BullMQ when Redis restarts empty', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('is sent by the sweep, once, under the same X-Webhook-Id', { timeout: 90_000 }, async () => {
    // The retry is due 6 s after the first attempt; the sweep runs every 2 s here (10 s by default).
    const RETRY_MS = 6_000;
    const SWEEP_MS = 2_000;
    const seen = new Set<string>();
    const receiver = await startReceiver((request) => {
      if (seen.has(request.body)) return 200;
      seen.add(request.body);
      return 500;
    });
    cleanups.push(() => receiver.close());
    const redisPort = await freePort();
    let redis = await startRedis(redisPort);
    cleanups.push(() => void redis.kill('SIGKILL'));
    const station = await buildTestStation(
      { REDIS_URL: `redis://127.0.0.1:${redisPort}`, STATION_WEBHOOK_ALLOWED_HOSTS: 'loopback' },
      { fakeEngine: true, webhooks: { retry: { baseMs: RETRY_MS, random: () => 1 }, sweepIntervalMs: SWEEP_MS } },
    );
    cleanups.push(() => station.destroy());
    const dev = await developer(station);
    const hook = await registerWebhook(station, dev, receiver.url, ['track.published']);

    const marker = nonce();
    await new PlatformEvents(station.bus, station.clock).emit('track.published', { track_id: 't-retry', artist_id: 'a-1', title: 'Tide', marker });
    const [first] = await receiver.waitFor(marker, 1);
    const messageId = String(first.headers['x-webhook-id']);
    // The second attempt is scheduled: a pending row, and its delayed job in Redis.
    let retry: Awaited<ReturnType<typeof attemptsOf>>[number] | undefined;
    await until(
      'the retry scheduled',
      async () => {
        retry = (await attemptsOf(station, dev, hook.id)).find((a) => a.webhook_message_id === messageId && a.attempt === 2);
        return retry;
      },
      Boolean,
      10_000,
    );
    const dueAt = Date.parse(retry!.next_attempt_at);

    // Redis restarts empty before the retry is due: the delayed job is gone with it.
    redis.kill('SIGKILL');
    await new Promise<void>((resolve) => redis.once('exit', () => resolve()));
    redis = await startRedis(redisPort);
    const backAt = Date.now();
    expect(backAt).toBeLessThan(dueAt);

    const requests = await receiver.waitFor(marker, 2, 60_000);
    expect(requests.map((r) => r.headers['x-webhook-id'])).toEqual([messageId, messageId]);
    const attempts = await settledAttempts(station, dev, hook.id, messageId, 2);
    expect(attempts.map((a) => [a.attempt, a.status])).toEqual([
      [1, 'retrying'],
      [2, 'succeeded'],
    ]);
    // Sent when due, not before; how late it went out is the sweep's period (reported, not asserted).
    const sentAt = Date.parse(attempts[1].attempted_at!);
    expect(sentAt).toBeGreaterThanOrEqual(dueAt);
    process.stdout.write(
      `webhook-redis: retry lost with Redis sent ${((sentAt - dueAt) / 1000).toFixed(1)} s after it was due (sweep every ${SWEEP_MS / 1000} s)\n`,
    );
    await sleep(2 * SWEEP_MS); // time for a doubled send to arrive
    expect(receiver.matching(marker)).toHaveLength(2);
  });
});
