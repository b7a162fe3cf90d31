/**
 * Delivery to a real local receiver: headers and both signatures, platform envelopes, retries with growing
 * delays and a stable X-Webhook-Id, timeouts, the last attempt failing for good, no redirects followed,
 * one slow receiver not holding up another, and the standalone sendSignedPost.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StationEvents } from '../../src/station/events/station-events.js';
import { PLATFORM_EVENTS_CHANNEL, PlatformEvents } from '../../src/platform/webhooks/platform-events.js';
import { sendSignedPost } from '../../src/platform/webhooks/delivery.js';
import { WebhookDispatcher } from '../../src/platform/webhooks/dispatcher.js';
import { WebhookRepository } from '../../src/platform/webhooks/repository.js';
import { SecretBox } from '../../src/platform/webhooks/secret-box.js';
import { loadOrCreateSecret } from '../../src/infra/secrets.js';
import { buildTestStation, type TestStation } from '../helpers/station.js';
import {
  developer,
  hmac,
  nonce,
  registerWebhook,
  settledAttempts,
  sleep,
  startReceiver,
  type Caller,
  type Receiver,
} from './support.js';

const BASE_MS = 150;
const TIMEOUT_MS = 400;

let station: TestStation;
let dev: Caller;
let events: StationEvents;
let platform: PlatformEvents;
const receivers: Receiver[] = [];

async function receiver(answer?: Parameters<typeof startReceiver>[0]) {
  const r = await startReceiver(answer);
  receivers.push(r);
  return r;
}

beforeAll(async () => {
  station = await buildTestStation({}, { webhooks: { timeoutMs: TIMEOUT_MS, retry: { baseMs: BASE_MS, maxAttempts: 4, random: () => 1 } } });
  dev = await developer(station);
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
    const before = Math.floor(Date.now() / 1000);
    await events.emit('station.track.now_playing', data);
    const [request] = await r.waitFor(marker, 1);

    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['x-webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
    const timestamp = Number(request.headers['x-webhook-timestamp']);
    expect(Number.isInteger(timestamp)).toBe(true);
    expect(timestamp).toBeGreaterThanOrEqual(before);
    expect(timestamp).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
    expect(request.headers['x-platform-signature']).toBeUndefined();

    // The header signs the raw body with the webhook secret.
    expect(request.headers['x-station-signature']).toBe(hmac(hook.secret, request.body));

    // The envelope: event, timestamp, data, signature, in that order; its signature covers the body's start.
    const envelope = JSON.parse(request.body);
    expect(Object.keys(envelope)).toEqual(['event', 'timestamp', 'data', 'signature']);
    expect(envelope).toMatchObject({ event: 'station.track.now_playing', data });
    expect(new Date(envelope.timestamp).toISOString()).toBe(envelope.timestamp);
    const signedPart = JSON.stringify({ event: envelope.event, timestamp: envelope.timestamp, data: envelope.data });
    expect(request.body.startsWith(signedPart.slice(0, -1))).toBe(true);
    expect(envelope.signature).toBe(hmac(hook.secret, signedPart));
    expect(envelope.signature).not.toBe(hmac('whsec_wrong', signedPart));

    const attempts = await settledAttempts(station, dev, hook.id, request.headers['x-webhook-id'] as string, 1);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ attempt: 1, status: 'succeeded', response_status: 200, error: null, event: 'station.track.now_playing' });
    expect(attempts[0].delivered_at).not.toBeNull();
    expect(attempts[0].duration_ms).toBeGreaterThanOrEqual(0);
  });

  it('goes only to webhooks subscribed to it', async () => {
    const subscribed = await receiver();
    const other = await receiver();
    await registerWebhook(station, dev, subscribed.url, ['station.radio.enabled']);
    await registerWebhook(station, dev, other.url, ['station.radio.disabled', 'track.published']);
    const marker = nonce();
    await events.emit('station.radio.enabled', { marker });
    await subscribed.waitFor(marker, 1);
    await sleep(300);
    expect(other.matching(marker)).toHaveLength(0);
  });
});

describe('several instances receiving one bus message', () => {
  it('create its deliveries once: the first insert wins, the others create nothing', async () => {
    const r = await receiver();
    await registerWebhook(station, dev, r.url, ['artist.verified']);
    // Two more dispatchers on the same database and key, as two other instances would run them.
    const box = new SecretBox(loadOrCreateSecret(station.config.dataDir, 'webhook-secrets', null));
    const options = { sweepIntervalMs: 0, onError: () => undefined };
    const others = [0, 1].map(() => new WebhookDispatcher(new WebhookRepository(station.database.db), box, station.queue, station.clock, options));
    const marker = nonce();
    const message = { event: 'artist.verified', data: { artist_id: 'a-7', verified_by: 'admin', marker }, timestamp: new Date().toISOString() };
    const created = await Promise.all([...others.map((d) => d.dispatch(message)), station.bus.publish(PLATFORM_EVENTS_CHANNEL, message).then(() => 0)]);
    await r.waitFor(marker, 1);
    await sleep(500);
    expect(created.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(1);
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
    const hook = await registerWebhook(station, dev, r.url, ['station.track.generation_complete']);
    const marker = nonce();
    await events.emit('station.track.generation_complete', { generation_id: 'g-1', marker });
    const requests = await r.waitFor(marker, 3);
    await sleep(2 * BASE_MS);
    expect(r.matching(marker)).toHaveLength(3);

    const ids = new Set(requests.map((q) => q.headers['x-webhook-id']));
    expect(ids.size).toBe(1);
    // The same bytes every time, each signed.
    expect(new Set(requests.map((q) => q.body)).size).toBe(1);
    for (const q of requests) expect(q.headers['x-station-signature']).toBe(hmac(hook.secret, q.body));

    const gap1 = requests[1].at - requests[0].at;
    const gap2 = requests[2].at - requests[1].at;
    expect(gap1).toBeGreaterThanOrEqual(BASE_MS - 5);
    expect(gap2).toBeGreaterThanOrEqual(2 * BASE_MS - 5);
    expect(gap2).toBeGreaterThan(gap1);

    const attempts = await settledAttempts(station, dev, hook.id, [...ids][0] as string, 3);
    expect(attempts.map((a) => [a.attempt, a.status, a.response_status])).toEqual([
      [1, 'retrying', 500],
      [2, 'retrying', 500],
      [3, 'succeeded', 200],
    ]);
    expect(attempts[0].error).toBe('HTTP 500');
    const at = attempts.map((a) => Date.parse(a.attempted_at!));
    expect(at[2] - at[1]).toBeGreaterThan(at[1] - at[0]);
    // Each retry was scheduled base x 2^(n-1) after the failure (jitter pinned to its maximum here).
    expect(Date.parse(attempts[1].next_attempt_at) - at[0]).toBeGreaterThanOrEqual(BASE_MS);
    expect(Date.parse(attempts[2].next_attempt_at) - at[1]).toBeGreaterThanOrEqual(2 * BASE_MS);
  });

  it('counts a timeout as a failure', async () => {
    const seen = new Set<string>();
    const r = await receiver((request) => {
      if (seen.has(request.body)) return 200;
      seen.add(request.body);
      return { status: 200, delayMs: TIMEOUT_MS * 3 };
    });
    const hook = await registerWebhook(station, dev, r.url, ['station.training.job_completed']);
    const marker = nonce();
    await events.emit('station.training.job_completed', { job_id: 'j-1', marker });
    const requests = await r.waitFor(marker, 2);
    expect(requests[0].headers['x-webhook-id']).toBe(requests[1].headers['x-webhook-id']);
    const attempts = await settledAttempts(station, dev, hook.id, requests[0].headers['x-webhook-id'] as string, 2);
    expect(attempts.map((a) => [a.attempt, a.status, a.response_status])).toEqual([
      [1, 'retrying', null],
      [2, 'succeeded', 200],
    ]);
    expect(attempts[0].error).toBe(`timed out after ${TIMEOUT_MS} ms`);
    expect(attempts[0].duration_ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
    expect(attempts[0].duration_ms).toBeLessThan(TIMEOUT_MS * 3);
  });

  it('gives up after the last attempt, which is marked failed', async () => {
    const r = await receiver(() => 503);
    const hook = await registerWebhook(station, dev, r.url, ['station.training.job_failed']);
    const marker = nonce();
    await events.emit('station.training.job_failed', { job_id: 'j-2', marker });
    const requests = await r.waitFor(marker, 4, 15_000);
    await sleep(8 * BASE_MS + 200);
    expect(r.matching(marker)).toHaveLength(4);
    const attempts = await settledAttempts(station, dev, hook.id, requests[0].headers['x-webhook-id'] as string, 4);
    expect(attempts.map((a) => a.status)).toEqual(['retrying', 'retrying', 'retrying', 'failed']);
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
    const hook = await registerWebhook(station, dev, redirecting.url, ['station.safety.flag_raised']);
    const marker = nonce();
    await events.emit('station.safety.flag_raised', { station_track_id: 'st-1', flag_type: 'explicit', safety_score: 0.9, marker });
    const requests = await redirecting.waitFor(marker, 2);
    expect(target.matching(marker)).toHaveLength(0);
    const attempts = await settledAttempts(station, dev, hook.id, requests[0].headers['x-webhook-id'] as string, 2);
    expect(attempts[0]).toMatchObject({ attempt: 1, status: 'retrying', response_status: 307 });
    expect(attempts[0].error).toContain('redirects are not followed');
    expect(attempts[1]).toMatchObject({ attempt: 2, status: 'succeeded', response_status: 204 });
  });

  it('lets a fast receiver get its event while a slow one hangs', async () => {
    const slow = await receiver(() => ({ status: 200, delayMs: TIMEOUT_MS * 3 }));
    const fast = await receiver();
    await registerWebhook(station, dev, slow.url, ['station.track.generation_failed']);
    await registerWebhook(station, dev, fast.url, ['station.track.generation_failed']);
    const marker = nonce();
    const started = Date.now();
    await events.emit('station.track.generation_failed', { generation_id: 'g-2', error_code: 'X', message: 'm', marker });
    const [request] = await fast.waitFor(marker, 1);
    expect(request.at - started).toBeLessThan(TIMEOUT_MS);
    await slow.waitFor(marker, 1);
  });
});

describe('sendSignedPost', () => {
  it('posts a station envelope signed like a registered delivery, without retries', async () => {
    const r = await receiver();
    const secret = 'training-notify-secret';
    const marker = nonce();
    const outcome = await sendSignedPost(r.url, 'station.training.job_completed', { job_id: 'j-9', marker }, secret);
    expect(outcome).toMatchObject({ ok: true, responseStatus: 200, error: null });
    const [request] = r.matching(marker);
    expect(request.headers['x-webhook-id']).toBe(outcome.webhookMessageId);
    expect(request.headers['x-station-signature']).toBe(hmac(secret, request.body));
    const envelope = JSON.parse(request.body);
    expect(envelope.signature).toBe(hmac(secret, JSON.stringify({ event: envelope.event, timestamp: envelope.timestamp, data: envelope.data })));

    const failing = await receiver(() => 500);
    const failed = await sendSignedPost(failing.url, 'station.training.job_completed', { marker }, secret);
    expect(failed).toMatchObject({ ok: false, responseStatus: 500, error: 'HTTP 500' });
    await sleep(200);
    expect(failing.matching(marker)).toHaveLength(1);
  });

  it('refuses non-http(s) URLs without sending anything', async () => {
    const outcome = await sendSignedPost('file:///etc/passwd', 'station.training.job_completed', {}, 'secret');
    expect(outcome).toMatchObject({ ok: false, responseStatus: null });
    expect(outcome.error).toContain('only http(s)');
  });
});
