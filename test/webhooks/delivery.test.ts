/**
 * Delivery to a real local receiver: headers and both signatures, platform envelopes, retries with growing
 * delays and a stable X-Webhook-Id, timeouts, the last attempt failing for good, no redirects followed,
 * one slow receiver not holding up another, and the standalone sendSignedPost. The station's clock stands
 * still (times in headers and delivery rows are exact); the retry waits run on hand-driven timers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StationEvents } from '../../src/station/events/station-events.js';
import { PLATFORM_EVENTS_CHANNEL, PlatformEvents } from '../../src/platform/webhooks/platform-events.js';
import { sendSignedPost } from '../../src/platform/webhooks/delivery.js';
import { WebhookDispatcher } from '../../src/platform/webhooks/dispatcher.js';
import { WebhookRepository } from '../../src/platform/webhooks/repository.js';
import { UserDirectory } from '../../src/auth/user-directory.js';
import { SecretBox } from '../../src/platform/webhooks/secret-box.js';
import { WEBHOOK_QUEUE, WebhookDeliveryWorker } from '../../src/platform/webhooks/delivery.js';
import { loadOrCreateSecret } from '../../src/infra/secrets.js';
import { ManualClock } from '../../src/infra/clock/clock.js';
import { ManualTimers } from '../../src/infra/clock/timers.js';
import { InProcessJobQueue } from '../../src/infra/queue/in-process-queue.js';
import { EgressPolicy } from '../../src/infra/egress/egress-policy.js';
import { parseAllowList } from '../../src/infra/egress/allow-list.js';
import { buildTestStation, staffLogin, type TestStation } from '../helpers/station.js';
import { pollUntil } from '../helpers/poll.js';
import { attemptsOf, developer, gate, hmac, nonce, registerWebhook, settledAttempts, startReceiver, until, type Caller, type Receiver } from './support.js';

const BASE_MS = 150;
const TIMEOUT_MS = 400;
const loopbackOnly = new EgressPolicy(parseAllowList('loopback'));

// A quarter into a second: the X-Webhook-Timestamp header must round it down.
const clock = new ManualClock(Date.UTC(2026, 0, 15, 12, 0, 0, 250));
let station: TestStation;
let dev: Caller;
/** Hears every station event: generations, training and safety flags need station scopes a developer's password login lacks. */
let staff: Caller;
let events: StationEvents;
let platform: PlatformEvents;
const receivers: Receiver[] = [];

async function receiver(answer?: Parameters<typeof startReceiver>[0]) {
  const r = await startReceiver(answer);
  receivers.push(r);
  return r;
}

beforeAll(async () => {
  // The receivers listen on 127.0.0.1, which the default egress policy (external) refuses.
  station = await buildTestStation(
    { STATION_WEBHOOK_ALLOWED_HOSTS: 'loopback' },
    { clock, webhooks: { timeoutMs: TIMEOUT_MS, retry: { baseMs: BASE_MS, maxAttempts: 4, random: () => 1 } } },
  );
  dev = await developer(station);
  staff = await staffLogin(station);
  events = new StationEvents(station.bus, station.clock);
  platform = new PlatformEvents(station.bus, station.clock);
});

afterAll(async () => {
  await station?.destroy();
  await Promise.all(receivers.map((r) => r.close()));
});

describe('a station event', () => {
  it('reaches the receiver with the contract headers, and both signatures verify', async () => {
    const r = await receiver();
    const hook = await registerWebhook(station, dev, r.url, ['station.track.now_playing']);
    const marker = nonce();
    const data = { title: 'Harbour Lights', marker, nested: { é: 'ü', n: 1.5 } };
    await events.emit('station.track.now_playing', data);
    const [request] = await r.waitFor(marker, 1);

    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['x-webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
    // Whole seconds of the attempt's time.
    expect(request.headers['x-webhook-timestamp']).toBe(String(Math.floor(clock.now() / 1000)));
    expect(request.headers['x-platform-signature']).toBeUndefined();

    // The header signs the raw body with the webhook secret.
    expect(request.headers['x-station-signature']).toBe(hmac(hook.secret, request.body));

    // The envelope: event, timestamp, data, signature, in that order; its signature covers the body's start.
    const envelope = JSON.parse(request.body);
    expect(Object.keys(envelope)).toEqual(['event', 'timestamp', 'data', 'signature']);
    expect(envelope).toMatchObject({ event: 'station.track.now_playing', data });
    expect(envelope.timestamp).toBe(clock.date().toISOString());
    const signedPart = JSON.stringify({ event: envelope.event, timestamp: envelope.timestamp, data: envelope.data });
    expect(request.body.startsWith(signedPart.slice(0, -1))).toBe(true);
    expect(envelope.signature).toBe(hmac(hook.secret, signedPart));
    expect(envelope.signature).not.toBe(hmac('whsec_wrong', signedPart));

    const attempts = await settledAttempts(station, dev, hook.id, request.headers['x-webhook-id'] as string, 1);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ attempt: 1, status: 'succeeded', response_status: 200, error: null, event: 'station.track.now_playing' });
    expect(attempts[0].attempted_at).toBe(clock.date().toISOString());
    expect(attempts[0].delivered_at).toBe(clock.date().toISOString());
    expect(attempts[0].duration_ms).toBeGreaterThanOrEqual(0);
  });

  it('goes only to webhooks subscribed to it', async () => {
    const subscribed = await receiver();
    const other = await receiver();
    await registerWebhook(station, dev, subscribed.url, ['station.radio.enabled']);
    const otherHook = await registerWebhook(station, dev, other.url, ['station.radio.disabled', 'track.published']);
    const marker = nonce();
    await events.emit('station.radio.enabled', { marker });
    await subscribed.waitFor(marker, 1);
    // One insert makes the rows of every subscribed webhook before any is sent: none for the other means none ever.
    expect((await attemptsOf(station, dev, otherHook.id)).filter((a) => a.event === 'station.radio.enabled')).toEqual([]);
    expect(other.matching(marker)).toHaveLength(0);
  });
});

describe('several instances receiving one bus message', () => {
  it('create its deliveries once: the first insert wins, the others create nothing', async () => {
    const r = await receiver();
    const hook = await registerWebhook(station, dev, r.url, ['artist.verified']);
    // Two more dispatchers on the same database and key, as two other instances would run them.
    const box = new SecretBox(loadOrCreateSecret(station.config.dataDir, 'webhook-secrets', null));
    const options = { sweepIntervalMs: 0, onError: () => undefined };
    const others = [0, 1].map(
      () =>
        new WebhookDispatcher(new WebhookRepository(station.database.db, new UserDirectory(station.database.db)), box, station.queue, station.clock, options),
    );
    const marker = nonce();
    const message = { event: 'artist.verified', data: { artist_id: 'a-7', verified_by: 'admin', marker }, timestamp: new Date().toISOString() };
    const created = await Promise.all([...others.map((d) => d.dispatch(message)), station.bus.publish(PLATFORM_EVENTS_CHANNEL, message).then(() => 0)]);
    const [request] = await r.waitFor(marker, 1);
    expect(created.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(1);
    // One attempt row for this webhook and message (the unique key), sent and settled: nothing left to send.
    const attempts = await settledAttempts(station, dev, hook.id, request.headers['x-webhook-id'] as string, 1);
    expect(attempts.map((a) => [a.attempt, a.status])).toEqual([[1, 'succeeded']]);
    expect(r.matching(marker)).toHaveLength(1);
    expect(await Promise.all(others.map((d) => d.dispatch(message)))).toEqual([0, 0]);
  });
});

describe('a platform event', () => {
  it('is {"event","data","timestamp"} signed in X-Platform-Signature', async () => {
    const r = await receiver();
    const hook = await registerWebhook(station, dev, r.url, ['track.published']);
    const marker = nonce();
    await platform.emit('track.published', { track_id: 't-1', artist_id: 'a-1', title: 'Tide', genre: 'Synthwave', marker });
    const [request] = await r.waitFor(marker, 1);
    expect(request.headers['x-platform-signature']).toBe(hmac(hook.secret, request.body));
    expect(request.headers['x-station-signature']).toBeUndefined();
    expect(request.headers['x-webhook-id']).toMatch(/^msg_/);
    const envelope = JSON.parse(request.body);
    expect(Object.keys(envelope)).toEqual(['event', 'data', 'timestamp']);
    expect(envelope.event).toBe('track.published');
    expect(envelope.data.marker).toBe(marker);
  });
});

describe('retries', () => {
  it('retries 500s with growing delays under one X-Webhook-Id until a 200', async () => {
    const seen = new Map<string, number>();
    const r = await receiver((request) => {
      const key = request.body;
      const count = (seen.get(key) ?? 0) + 1;
      seen.set(key, count);
      return count <= 2 ? 500 : 200;
    });
    const hook = await registerWebhook(station, staff, r.url, ['station.track.generation_complete']);
    const marker = nonce();
    await events.emit('station.track.generation_complete', { generation_id: 'g-1', marker });
    const requests = await r.waitFor(marker, 3);
    const ids = new Set(requests.map((q) => q.headers['x-webhook-id']));
    expect(ids.size).toBe(1);
    // The same bytes every time, each signed.
    expect(new Set(requests.map((q) => q.body)).size).toBe(1);
    for (const q of requests) expect(q.headers['x-station-signature']).toBe(hmac(hook.secret, q.body));

    const attempts = await settledAttempts(station, staff, hook.id, [...ids][0] as string, 3);
    expect(attempts.map((a) => [a.attempt, a.status, a.response_status])).toEqual([
      [1, 'retrying', 500],
      [2, 'retrying', 500],
      [3, 'succeeded', 200],
    ]);
    expect(attempts[0].error).toBe('http_500');
    // Settled with a success: nothing further was or will be sent.
    expect(r.matching(marker)).toHaveLength(3);
    // Each retry is scheduled base x 2^(n-1) after the failure before it (jitter pinned to its maximum; the
    // clock stands still, so every attempt failed at the same instant and the waits read off exactly).
    expect(attempts.map((a) => a.attempted_at)).toEqual(Array(3).fill(clock.date().toISOString()));
    expect(attempts.map((a) => Date.parse(a.next_attempt_at) - clock.now())).toEqual([0, BASE_MS, 2 * BASE_MS]);
  });

  /** A delivery worker of its own on a queue whose timers move by hand, on the station's database and key. */
  async function retryRig(retryClock: ManualClock) {
    const timers = new ManualTimers();
    const queue = new InProcessJobQueue({ timers });
    const box = new SecretBox(loadOrCreateSecret(station.config.dataDir, 'webhook-secrets', null));
    const repo = new WebhookRepository(station.database.db, new UserDirectory(station.database.db));
    const worker = new WebhookDeliveryWorker(repo, box, queue, retryClock, {
      egress: loopbackOnly,
      timeoutMs: TIMEOUT_MS,
      retry: { baseMs: 60_000, capMs: 3_600_000, maxAttempts: 3, random: () => 1 },
    });
    const dispatcher = new WebhookDispatcher(repo, box, queue, retryClock, { sweepIntervalMs: 0, onError: () => undefined });
    await queue.process(WEBHOOK_QUEUE, (job) => worker.deliver(String(job.data.deliveryId)));
    return { retryClock, timers, queue, worker, dispatcher };
  }

  it('sends a retry when its wait is over, not before', async () => {
    const { retryClock, timers, queue, worker, dispatcher } = await retryRig(new ManualClock(Date.UTC(2026, 0, 16, 8, 0, 0)));
    const pass = (ms: number) => {
      retryClock.advance(ms);
      timers.advance(ms);
    };
    try {
      const seen = new Map<string, number>();
      const r = await receiver((request) => {
        const count = (seen.get(request.body) ?? 0) + 1;
        seen.set(request.body, count);
        return count <= 2 ? 500 : 200;
      });
      // payment.success: no other test here subscribes to it, and nothing publishes it on the bus. The
      // developer hears it as the seller's owner (the audience the store names beside the event).
      const hook = await registerWebhook(station, dev, r.url, ['payment.success']);
      const marker = nonce();
      const message = {
        event: 'payment.success',
        data: { payment_id: 'p-1', marker },
        timestamp: retryClock.date().toISOString(),
        audience: { ownerUserId: dev.userId },
      };
      expect(await dispatcher.dispatch(message)).toBe(1);
      const [first] = await r.waitFor(marker, 1);
      const messageId = first.headers['x-webhook-id'] as string;
      // The attempt's row exists and its delayed job waits on the timers.
      const scheduled = (attempt: number) =>
        until(
          async () => timers.pending() === 1 && (await attemptsOf(station, dev, hook.id)).some((a) => a.attempt === attempt),
          5_000,
          `attempt ${attempt} to be scheduled`,
        );

      await scheduled(2);
      pass(60_000 - 1);
      expect(timers.pending()).toBe(1);
      pass(1);
      expect(timers.pending()).toBe(0);
      await r.waitFor(marker, 2);

      await scheduled(3);
      pass(120_000 - 1);
      expect(timers.pending()).toBe(1);
      pass(1);
      await r.waitFor(marker, 3);

      const attempts = await settledAttempts(station, dev, hook.id, messageId, 3);
      const t0 = Date.UTC(2026, 0, 16, 8, 0, 0);
      expect(attempts.map((a) => [a.attempt, a.status, Date.parse(a.attempted_at!) - t0, Date.parse(a.next_attempt_at) - t0])).toEqual([
        [1, 'retrying', 0, 0],
        [2, 'retrying', 60_000, 60_000],
        [3, 'succeeded', 180_000, 180_000],
      ]);
    } finally {
      worker.stop();
      await queue.close();
    }
  });

  it("drops a retry whose webhook's owner was banned after the first attempt, without sending it", async () => {
    const { retryClock, timers, queue, worker, dispatcher } = await retryRig(new ManualClock(Date.UTC(2026, 0, 17, 8, 0, 0)));
    try {
      const owner = await developer(station);
      const r = await receiver(() => 500);
      const hook = await registerWebhook(station, owner, r.url, ['payment.success']);
      const marker = nonce();
      const message = {
        event: 'payment.success',
        data: { payment_id: 'p-2', marker },
        timestamp: retryClock.date().toISOString(),
        audience: { ownerUserId: owner.userId },
      };
      expect(await dispatcher.dispatch(message)).toBe(1);
      const [first] = await r.waitFor(marker, 1);
      await until(
        async () => timers.pending() === 1 && (await attemptsOf(station, staff, hook.id)).some((a) => a.attempt === 2),
        5_000,
        'attempt 2 to be scheduled',
      );
      const ban = await station.http.inject({
        method: 'PATCH',
        url: `/v1/admin/users/${owner.userId}/status`,
        headers: { authorization: `Bearer ${staff.token}`, 'x-csrf-token': staff.csrf },
        payload: { status: 'banned' },
      });
      expect(ban.statusCode, ban.body).toBe(200);
      retryClock.advance(60_000);
      timers.advance(60_000);

      const attempts = await settledAttempts(station, staff, hook.id, first.headers['x-webhook-id'] as string, 2);
      expect(attempts.map((a) => [a.attempt, a.status, a.error]).sort()).toEqual([
        [1, 'retrying', 'http_500'],
        [2, 'failed', 'webhook_disabled'],
      ]);
      expect(r.matching(marker)).toHaveLength(1);
    } finally {
      worker.stop();
      await queue.close();
    }
  });

  it('counts a timeout as a failure', async () => {
    const seen = new Set<string>();
    const r = await receiver((request) => {
      if (seen.has(request.body)) return 200;
      seen.add(request.body);
      return { status: 200, delayMs: TIMEOUT_MS * 3 };
    });
    const hook = await registerWebhook(station, staff, r.url, ['station.training.job_completed']);
    const marker = nonce();
    await events.emit('station.training.job_completed', { job_id: 'j-1', marker });
    const requests = await r.waitFor(marker, 2);
    expect(requests[0].headers['x-webhook-id']).toBe(requests[1].headers['x-webhook-id']);
    const attempts = await settledAttempts(station, staff, hook.id, requests[0].headers['x-webhook-id'] as string, 2);
    expect(attempts.map((a) => [a.attempt, a.status, a.response_status])).toEqual([
      [1, 'retrying', null],
      [2, 'succeeded', 200],
    ]);
    expect(attempts[0].error).toBe('timeout');
  });

  it('gives up after the last attempt, which is marked failed', async () => {
    const r = await receiver(() => 503);
    const hook = await registerWebhook(station, staff, r.url, ['station.training.job_failed']);
    const marker = nonce();
    await events.emit('station.training.job_failed', { job_id: 'j-2', marker });
    const requests = await r.waitFor(marker, 4, 15_000);
    const attempts = await settledAttempts(station, staff, hook.id, requests[0].headers['x-webhook-id'] as string, 4);
    // The last one failed for good and no fifth was scheduled: nothing more will be sent.
    expect(attempts.map((a) => a.status)).toEqual(['retrying', 'retrying', 'retrying', 'failed']);
    expect(r.matching(marker)).toHaveLength(4);
    expect(attempts.every((a) => a.response_status === 503)).toBe(true);
  });

  it('does not follow redirects (a 3xx is a failed attempt)', async () => {
    const target = await receiver();
    const seen = new Set<string>();
    const redirecting = await receiver((request) => {
      if (seen.has(request.body)) return 204;
      seen.add(request.body);
      return { status: 307, headers: { location: target.url } };
    });
    const hook = await registerWebhook(station, staff, redirecting.url, ['station.safety.flag_raised']);
    const marker = nonce();
    await events.emit('station.safety.flag_raised', { station_track_id: 'st-1', flag_type: 'explicit', safety_score: 0.9, marker });
    const requests = await redirecting.waitFor(marker, 2);
    expect(target.matching(marker)).toHaveLength(0);
    const attempts = await settledAttempts(station, staff, hook.id, requests[0].headers['x-webhook-id'] as string, 2);
    expect(attempts[0]).toMatchObject({ attempt: 1, status: 'retrying', response_status: 307, error: 'http_307' });
    expect(attempts[1]).toMatchObject({ attempt: 2, status: 'succeeded', response_status: 204 });
  });
});

describe('a slow receiver', () => {
  // A station whose attempts wait a minute before timing out: the slow receiver hangs for as long as the test wants.
  let patient: TestStation;
  let owner: Caller;
  beforeAll(async () => {
    patient = await buildTestStation({ STATION_WEBHOOK_ALLOWED_HOSTS: 'loopback' }, { webhooks: { timeoutMs: 60_000 } });
    owner = await staffLogin(patient);
  });
  afterAll(() => patient?.destroy());

  it('does not hold up a fast receiver while it hangs', async () => {
    const held = gate();
    const slow = await receiver(() => ({ status: 200, until: held.opened }));
    const fast = await receiver();
    const slowHook = await registerWebhook(patient, owner, slow.url, ['station.track.generation_failed']);
    await registerWebhook(patient, owner, fast.url, ['station.track.generation_complete']);
    const emitter = new StationEvents(patient.bus, patient.clock);
    const marker = nonce();
    let messageId: string;
    try {
      await emitter.emit('station.track.generation_failed', { generation_id: 'g-2', error_code: 'X', message: 'm', marker });
      const [hanging] = await slow.waitFor(marker, 1);
      messageId = hanging.headers['x-webhook-id'] as string;
      // The slow receiver holds its request; the next event must reach the fast one all the same.
      await emitter.emit('station.track.generation_complete', { generation_id: 'g-3', marker });
      await fast.waitFor(marker, 1);
      const [inFlight] = (await attemptsOf(patient, owner, slowHook.id)).filter((a) => a.webhook_message_id === messageId);
      expect(inFlight.status).toBe('pending');
    } finally {
      held.open();
    }
    const [answered] = await settledAttempts(patient, owner, slowHook.id, messageId, 1);
    expect(answered).toMatchObject({ attempt: 1, status: 'succeeded' });
  });
});

describe('sendSignedPost', () => {
  it('posts a station envelope signed like a registered delivery, without retries', async () => {
    const r = await receiver();
    const secret = 'training-notify-secret';
    const marker = nonce();
    const outcome = await sendSignedPost(r.url, 'station.training.job_completed', { job_id: 'j-9', marker }, secret, { egress: loopbackOnly });
    expect(outcome).toMatchObject({ ok: true, responseStatus: 200, error: null });
    const [request] = r.matching(marker);
    expect(request.headers['x-webhook-id']).toBe(outcome.webhookMessageId);
    expect(request.headers['x-station-signature']).toBe(hmac(secret, request.body));
    const envelope = JSON.parse(request.body);
    expect(envelope.signature).toBe(hmac(secret, JSON.stringify({ event: envelope.event, timestamp: envelope.timestamp, data: envelope.data })));

    const failing = await receiver(() => 500);
    const failed = await sendSignedPost(failing.url, 'station.training.job_completed', { marker }, secret, { egress: loopbackOnly });
    expect(failed).toMatchObject({ ok: false, responseStatus: 500, error: 'http_500' });
    expect(failing.matching(marker)).toHaveLength(1);
  });

  it('refuses non-http(s) URLs without sending anything', async () => {
    const outcome = await sendSignedPost('file:///etc/passwd', 'station.training.job_completed', {}, 'secret', { egress: loopbackOnly });
    expect(outcome).toMatchObject({ ok: false, responseStatus: null, error: 'refused_by_policy' });
  });
});

describe('stopping', () => {
  it('waits for a sweep in flight, so no query of it outlives the stop (and the database it is about to close)', async () => {
    const box = new SecretBox(loadOrCreateSecret(station.config.dataDir, 'webhook-secrets', null));
    const repo = new WebhookRepository(station.database.db, new UserDirectory(station.database.db));
    // The real repository, with a gate the test holds the next sweep's read at.
    let gate: Promise<void> | null = null;
    let release = () => {};
    let entered = false;
    const gated: WebhookRepository = Object.assign(Object.create(repo) as WebhookRepository, {
      async pendingDeliveries(...args: Parameters<WebhookRepository['pendingDeliveries']>) {
        if (gate) {
          entered = true;
          await gate;
        }
        return repo.pendingDeliveries(...args);
      },
    });
    const dispatcher = new WebhookDispatcher(gated, box, station.queue, clock, { sweepIntervalMs: 20, onError: () => undefined });
    await dispatcher.start(station.bus);
    gate = new Promise<void>((resolve) => (release = resolve));
    await pollUntil('a sweep to start', () => entered, Boolean, 5_000);

    let stopped = false;
    const stopping = dispatcher.stop().then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(stopped).toBe(true);
  });
});
