/**
 * Per-credential limits on long-lived connections, over real sockets: radio streams (a stream ticket names its
 * credential), WebSockets and the analytics SSE stream. The connection past the limit answers 429 with
 * Retry-After; closing one frees its slot; listener_count counts distinct listeners, not connections. With
 * DATABASE_URL and REDIS_URL, two instances share the limits and the count.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { Station } from '../../src/app.js';
import { CONNECTION_RETRY_AFTER_SEC } from '../../src/auth/connection-limits.js';
import { buildTestStation, stationForSuite, createTestDatabase, signupListener, type TestStation } from '../helpers/station.js';
import { bearer, loginAs } from '../platform/accounts-support.js';
import { SseClient } from '../platform/analytics-support.js';
import { eventually } from '../infra/support.js';
import { listen } from './support.js';

interface Refusal {
  status: number;
  retryAfter: string | null;
  code: string;
}

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function streamUrl(station: Station, base: string, token: string): Promise<string> {
  const info = await station.http.inject({ url: '/station/v1/radio/stream-info', headers: { authorization: `Bearer ${token}` } });
  expect(info.statusCode).toBe(200);
  return (info.json().stream_url as string).replace(station.config.publicBaseUrl, base);
}

/** Opens a radio stream and reads its first bytes; a refusal is returned instead. */
async function openStream(url: string): Promise<{ close: () => Promise<void> } | Refusal> {
  const controller = new AbortController();
  const response = await fetch(url, { signal: controller.signal });
  if (response.status !== 200) {
    const body = (await response.json()) as { error: { code: string } };
    return { status: response.status, retryAfter: response.headers.get('retry-after'), code: body.error.code };
  }
  const reader = response.body!.getReader();
  expect((await reader.read()).done).toBe(false);
  const close = async () => {
    controller.abort();
    await reader.cancel().catch(() => undefined);
  };
  cleanups.push(close);
  return { close };
}

function openSocket(base: string, channel: string, token: string): Promise<WebSocket | Refusal> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/station/ws/${channel}?token=${token}`);
    ws.once('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          retryAfter: (response.headers['retry-after'] as string | undefined) ?? null,
          code: JSON.parse(body).error.code,
        }),
      );
    });
    ws.once('error', reject);
    ws.once('open', () => {
      cleanups.push(() => ws.terminate());
      resolve(ws);
    });
  });
}

async function openSse(base: string, headers: Record<string, string>): Promise<SseClient | Refusal> {
  const client = await SseClient.open(`${base}/v1/analytics/stream`, headers);
  if (client.status === 200) {
    cleanups.push(() => client.close());
    return client;
  }
  const retryAfter = client.headers['retry-after'];
  return {
    status: client.status,
    retryAfter: typeof retryAfter === 'string' ? retryAfter : null,
    code: (client.frames[0].data as { error: { code: string } }).error.code,
  };
}

const isRefusal = (value: unknown): value is Refusal => typeof value === 'object' && value !== null && 'retryAfter' in value;

function expectRefused(answer: unknown, code: string): void {
  expect(isRefusal(answer), 'the connection past the limit was accepted').toBe(true);
  expect(answer).toEqual({ status: 429, retryAfter: String(CONNECTION_RETRY_AFTER_SEC), code });
}

async function listenerCount(station: Station, token: string): Promise<number> {
  const info = await station.http.inject({ url: '/station/v1/radio/stream-info', headers: { authorization: `Bearer ${token}` } });
  return info.json().listener_count as number;
}

describe('per-credential connection limits (defaults)', () => {
  let base: string;

  const station = stationForSuite({}, { fakeEngine: true });
  beforeAll(async () => {
    base = await listen(station);
  });

  it('one stream ticket opens 3 radio streams, the 4th gets 429 with Retry-After, and listener_count says 1', async () => {
    const listener = await signupListener(station);
    const url = await streamUrl(station, base, listener.token);
    const streams = [];
    for (let i = 0; i < 3; i++) {
      const stream = await openStream(url);
      expect(isRefusal(stream)).toBe(false);
      streams.push(stream as { close: () => Promise<void> });
    }
    expectRefused(await openStream(url), 'STATION_RATE_LIMITED');
    // A fresh ticket of the same credential counts against the same limit.
    expectRefused(await openStream(await streamUrl(station, base, listener.token)), 'STATION_RATE_LIMITED');
    // Another listener is not affected; the station counts two listeners, not four streams.
    const other = await signupListener(station);
    expect(isRefusal(await openStream(await streamUrl(station, base, other.token)))).toBe(false);
    await eventually(async () => expect(await listenerCount(station, listener.token)).toBe(2));

    await streams[0].close();
    await eventually(async () => {
      const again = await openStream(url);
      expect(isRefusal(again)).toBe(false);
    });
  });

  it('one token opens 10 WebSockets, the 11th upgrade gets 429 with Retry-After', async () => {
    const listener = await signupListener(station);
    const sockets: WebSocket[] = [];
    for (let i = 0; i < 10; i++) sockets.push((await openSocket(base, i % 2 ? 'now-playing' : 'listeners', listener.token)) as WebSocket);
    expect(sockets.every((socket) => socket instanceof WebSocket)).toBe(true);
    expectRefused(await openSocket(base, 'now-playing', listener.token), 'STATION_RATE_LIMITED');
    expect((await openSocket(base, 'now-playing', (await signupListener(station)).token)) instanceof WebSocket).toBe(true);
    // Eleven connections, two listeners.
    await eventually(async () => expect(await listenerCount(station, listener.token)).toBe(2));

    sockets[0].close();
    await eventually(async () => {
      const again = await openSocket(base, 'listeners', listener.token);
      expect(again).toBeInstanceOf(WebSocket);
    });
  });

  it('one developer token opens 5 analytics SSE streams, the 6th gets 429 with Retry-After', async () => {
    const developer = await loginAs(station, 'developer');
    const clients: SseClient[] = [];
    for (let i = 0; i < 5; i++) {
      const client = await openSse(base, bearer(developer));
      expect(isRefusal(client)).toBe(false);
      clients.push(client as SseClient);
    }
    expectRefused(await openSse(base, bearer(developer)), 'PLATFORM_RATE_LIMITED');
    clients[0].close();
    await eventually(async () => expect(isRefusal(await openSse(base, bearer(developer)))).toBe(false));
  });
});

describe('per-credential connection limits (configured)', () => {
  let base: string;

  const station = stationForSuite(
    { STATION_MAX_STREAMS_PER_CREDENTIAL: '1', STATION_MAX_WEBSOCKETS_PER_CREDENTIAL: '2', STATION_MAX_SSE_PER_CREDENTIAL: '1' },
    { fakeEngine: true },
  );
  beforeAll(async () => {
    base = await listen(station);
  });

  it('applies STATION_MAX_{STREAMS,WEBSOCKETS,SSE}_PER_CREDENTIAL', async () => {
    const listener = await signupListener(station);
    const url = await streamUrl(station, base, listener.token);
    expect(isRefusal(await openStream(url))).toBe(false);
    expectRefused(await openStream(url), 'STATION_RATE_LIMITED');
    for (let i = 0; i < 2; i++) expect(await openSocket(base, 'now-playing', listener.token)).toBeInstanceOf(WebSocket);
    expectRefused(await openSocket(base, 'now-playing', listener.token), 'STATION_RATE_LIMITED');
    const developer = await loginAs(station, 'developer');
    expect(isRefusal(await openSse(base, bearer(developer)))).toBe(false);
    expectRefused(await openSse(base, bearer(developer)), 'PLATFORM_RATE_LIMITED');
  });
});

const multiInstance = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);

describe.skipIf(!multiInstance)('per-credential connection limits across two instances', () => {
  let a: TestStation;
  let b: TestStation;
  let baseA: string;
  let baseB: string;
  const shared: Array<() => unknown> = [];

  beforeAll(async () => {
    const testDb = await createTestDatabase();
    shared.push(() => testDb.drop());
    const dataDir = mkdtempSync(join(tmpdir(), 'station-limits-shared-'));
    shared.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const env = { DATA_DIR: dataDir, REDIS_PREFIX: `test-${randomBytes(5).toString('hex')}`, STATION_LISTENER_BROADCAST_SEC: '1' };
    a = await buildTestStation(env, { database: testDb, fakeEngine: true });
    b = await buildTestStation(env, { database: testDb, fakeEngine: true });
    shared.push(
      () => a.destroy(),
      () => b.destroy(),
    );
    [baseA, baseB] = await Promise.all([listen(a), listen(b)]);
  });
  afterAll(async () => {
    for (const cleanup of shared.reverse()) await cleanup();
  });

  it('counts a credential’s streams and WebSockets over both instances, and its listener once', async () => {
    const listener = await signupListener(a);
    const url = await streamUrl(a, baseA, listener.token);
    expect(isRefusal(await openStream(url))).toBe(false);
    expect(isRefusal(await openStream(url))).toBe(false);
    expect(isRefusal(await openStream(url.replace(baseA, baseB)))).toBe(false);
    expectRefused(await openStream(url.replace(baseA, baseB)), 'STATION_RATE_LIMITED');
    expectRefused(await openStream(url), 'STATION_RATE_LIMITED');

    for (let i = 0; i < 10; i++) expect(await openSocket(i % 2 ? baseA : baseB, 'now-playing', listener.token)).toBeInstanceOf(WebSocket);
    expectRefused(await openSocket(baseA, 'now-playing', listener.token), 'STATION_RATE_LIMITED');
    expectRefused(await openSocket(baseB, 'now-playing', listener.token), 'STATION_RATE_LIMITED');

    // 13 connections on two instances: one listener, on both.
    await eventually(async () => {
      expect(await listenerCount(a, listener.token)).toBe(1);
      expect(await listenerCount(b, listener.token)).toBe(1);
    });
  });
});
