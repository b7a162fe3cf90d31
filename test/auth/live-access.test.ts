/**
 * Role and status come from the database, not from the token's claim: a banned or demoted user loses
 * rights at once (not when a cache entry or the token expires), and the long-lived connections a
 * credential holds (WebSocket clients, stream listeners) are closed when it is revoked or its user banned.
 * With DATABASE_URL and REDIS_URL, the same holds across two instances: the event bus drives it.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { ManualClock } from '../../src/infra/clock/clock.js';
import type { Station } from '../../src/app.js';
import { pollUntil } from '../helpers/poll.js';
import { authHeaders, buildTestStation, createTestDatabase, signupListener, type TestStation } from '../helpers/station.js';
import { listen, staffWithTotp } from './support.js';

interface Socket {
  ws: WebSocket;
  closed: Promise<number>;
  isOpen(): boolean;
}

function connect(base: string, channel: string, token: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/station/ws/${channel}?token=${token}`);
    let open = false;
    const closed = new Promise<number>((done) => ws.once('close', (code) => ((open = false), done(code))));
    ws.once('unexpected-response', (_request, response) => reject(new Error(`HTTP ${response.statusCode}`)));
    ws.once('error', reject);
    ws.once('open', () => {
      open = true;
      resolve({ ws, closed, isOpen: () => open });
    });
  });
}

/** Resolves with the close code, or fails after `ms` (a bound, not a timing assertion). */
function closedWithin(socket: Socket, ms = 5000): Promise<number> {
  return Promise.race([socket.closed, new Promise<number>((_, reject) => setTimeout(() => reject(new Error('socket still open')), ms))]);
}

/** Opens the stream_url of stream-info and reads its first bytes; `ended` resolves when the server ends it. */
async function listenToStream(station: Station, base: string, token: string) {
  const info = await station.http.inject({ url: '/station/v1/radio/stream-info', headers: { authorization: `Bearer ${token}` } });
  const url = (info.json().stream_url as string).replace(station.config.publicBaseUrl, base);
  const response = await fetch(url);
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  expect((await reader.read()).done).toBe(false);
  const ended = (async () => {
    for (;;) {
      try {
        if ((await reader.read()).done) return true;
      } catch {
        return true;
      }
    }
  })();
  return { url, ended, cancel: () => reader.cancel().catch(() => undefined) };
}

function within<T>(promise: Promise<T>, ms = 5000): Promise<T> {
  return Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`not within ${ms} ms`)), ms))]);
}

describe('access follows the database at once', () => {
  let station: TestStation;
  let base: string;
  // A clock that never moves on its own: any cached session state would stay fresh forever.
  const clock = new ManualClock(Date.UTC(2026, 11, 1, 9, 0, 0));
  const sockets: Socket[] = [];

  beforeAll(async () => {
    station = await buildTestStation({}, { clock });
    base = await listen(station);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.ws.terminate();
    await station.destroy();
  });

  const validate = (token: string) => station.http.inject({ url: '/station/v1/auth/validate', headers: { authorization: `Bearer ${token}` } });

  it('refuses a banned user at once, and their refresh token', async () => {
    const listener = await signupListener(station);
    expect((await validate(listener.token)).statusCode).toBe(200);
    await station.auth.setUserStatus(listener.userId, 'banned');
    expect((await validate(listener.token)).statusCode).toBe(401);
    const refresh = await station.http.inject({ method: 'POST', url: '/v1/auth/refresh', payload: { refresh_token: listener.refreshToken } });
    expect(refresh.statusCode).toBe(401);
  });

  it('takes a demoted admin’s station:admin away at once', async () => {
    const admin = await staffWithTotp(station, clock, 'admin');
    expect((await validate(admin.token)).json()).toMatchObject({ role: 'admin', can_toggle_radio: true });
    await station.auth.setUserRole(admin.userId, 'developer');
    expect((await validate(admin.token)).json()).toMatchObject({ role: 'developer', can_toggle_radio: false, can_train: true });
    const toggle = await station.http.inject({ method: 'POST', url: '/station/v1/admin/radio/enable', headers: authHeaders(admin) });
    expect(toggle.statusCode).toBe(403);
  });

  it('closes the WebSocket clients of a revoked session with 4401, and only those', async () => {
    const revoked = await signupListener(station);
    const kept = await signupListener(station);
    const [a1, a2, b] = await Promise.all([
      connect(base, 'now-playing', revoked.token),
      connect(base, 'listeners', revoked.token),
      connect(base, 'now-playing', kept.token),
    ]);
    sockets.push(a1, a2, b);
    const revoke = await station.http.inject({ method: 'POST', url: '/v1/auth/revoke', headers: authHeaders(revoked) });
    expect(revoke.statusCode).toBe(200);
    expect(await closedWithin(a1)).toBe(4401);
    expect(await closedWithin(a2)).toBe(4401);
    expect(b.isOpen()).toBe(true);
  });

  it('closes every WebSocket client of a banned user with 4401', async () => {
    const listener = await signupListener(station);
    const socket = await connect(base, 'now-playing', listener.token);
    sockets.push(socket);
    await station.auth.setUserStatus(listener.userId, 'banned');
    expect(await closedWithin(socket)).toBe(4401);
  });

  it('closes a client whose new role lacks its channel scope with 4403, and keeps the others', async () => {
    const admin = await staffWithTotp(station, clock, 'admin');
    const generation = await connect(base, 'generation-progress', admin.token);
    const nowPlaying = await connect(base, 'now-playing', admin.token);
    sockets.push(generation, nowPlaying);
    await station.auth.setUserRole(admin.userId, 'developer');
    expect(await closedWithin(generation)).toBe(4403);
    expect(nowPlaying.isOpen()).toBe(true);
  });

  it('ends the stream of a revoked session, and its ticket stops working', async () => {
    const listener = await signupListener(station);
    const stream = await listenToStream(station, base, listener.token);
    await station.http.inject({ method: 'POST', url: '/v1/auth/revoke', headers: authHeaders(listener) });
    expect(await within(stream.ended)).toBe(true);
    expect((await fetch(stream.url)).status).toBe(401);
  });

  it('ends the streams of a banned user', async () => {
    const listener = await signupListener(station);
    const other = await signupListener(station);
    const stream = await listenToStream(station, base, listener.token);
    const otherStream = await listenToStream(station, base, other.token);
    await station.auth.setUserStatus(listener.userId, 'banned');
    expect(await within(stream.ended)).toBe(true);
    expect(station.station.radio.broadcaster.listenerCount()).toBe(1);
    await otherStream.cancel();
  });
});

const multiInstance = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);

describe.skipIf(!multiInstance)('access across two instances', () => {
  let a: TestStation;
  let b: TestStation;
  let baseB: string;
  const clock = new ManualClock(Date.UTC(2026, 11, 2, 9, 0, 0));
  const cleanups: Array<() => Promise<void> | void> = [];

  beforeAll(async () => {
    const testDb = await createTestDatabase();
    cleanups.push(() => testDb.drop());
    const dataDir = mkdtempSync(join(tmpdir(), 'station-auth-shared-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const env = { DATA_DIR: dataDir, REDIS_PREFIX: `test-${randomBytes(5).toString('hex')}` };
    a = await buildTestStation(env, { database: testDb, clock });
    b = await buildTestStation(env, { database: testDb, clock });
    cleanups.push(
      () => a.destroy(),
      () => b.destroy(),
    );
    baseB = await listen(b);
  });
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('a ban on one instance refuses the user on the other at once', async () => {
    const listener = await signupListener(a);
    const onB = () => b.http.inject({ url: '/station/v1/auth/validate', headers: { authorization: `Bearer ${listener.token}` } });
    expect((await onB()).statusCode).toBe(200);
    await a.auth.setUserStatus(listener.userId, 'banned');
    await pollUntil(
      'B refuses the banned user',
      async () => (await onB()).statusCode,
      (status) => status === 401,
      5000,
      20,
    );
  });

  it('a demotion on one instance narrows the scopes on the other', async () => {
    const admin = await staffWithTotp(a, clock, 'admin');
    const onB = async () => (await b.http.inject({ url: '/station/v1/auth/validate', headers: { authorization: `Bearer ${admin.token}` } })).json();
    expect((await onB()).can_toggle_radio).toBe(true);
    await a.auth.setUserRole(admin.userId, 'listener');
    await pollUntil(
      'B narrows the demoted scopes',
      async () => (await onB()).can_toggle_radio,
      (can) => can === false,
      5000,
      20,
    );
  });

  it('a session revoked on one instance closes its WebSocket clients and streams on the other', async () => {
    const listener = await signupListener(a);
    const socket = await connect(baseB, 'now-playing', listener.token);
    const stream = await listenToStream(b, baseB, listener.token);
    const revoke = await a.http.inject({ method: 'POST', url: '/v1/auth/revoke', headers: authHeaders(listener) });
    expect(revoke.statusCode).toBe(200);
    expect(await closedWithin(socket)).toBe(4401);
    expect(await within(stream.ended)).toBe(true);
  });
});
