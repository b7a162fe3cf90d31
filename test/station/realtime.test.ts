/**
 * The four WebSocket channels over real sockets: authentication before the upgrade, the messages of each
 * channel, the listener count and its daily peak, slow-consumer drops and the heartbeat. With REDIS_URL,
 * two stations on one Redis share cards and counts.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket, type ClientOptions } from 'ws';
import { ManualClock } from '../../src/infra/clock/clock.js';
import { ManualTimers } from '../../src/infra/clock/timers.js';
import { GENERATION_PROGRESS_CHANNEL, TRAINING_PROGRESS_CHANNEL } from '../../src/station/events/station-events.js';
import { NOW_PLAYING_CHANNEL, type NowPlayingCard } from '../../src/station/events/now-playing.js';
import { SLOW_CONSUMER_CLOSE } from '../../src/station/realtime/hub.js';
import { buildTestStation, signupListener, staffLogin, type TestStation } from '../helpers/station.js';
import { pollUntil } from '../helpers/poll.js';

interface Client {
  ws: WebSocket;
  messages: Record<string, unknown>[];
  closed: Promise<{ code: number; reason: string }>;
  /** Resolves with the first message (already received or to come) that matches. */
  next(match?: (m: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
}

const open: WebSocket[] = [];

const waitFor = async (condition: () => boolean, timeoutMs = 5000, what = 'condition'): Promise<void> => {
  await pollUntil(what, condition, Boolean, timeoutMs, 10);
};

function baseUrl(station: TestStation): string {
  const { port } = station.http.server.address() as AddressInfo;
  return `ws://127.0.0.1:${port}/station/ws`;
}

function connect(url: string, protocols?: string[], options: ClientOptions = {}): Promise<Client> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, protocols, options);
    const messages: Record<string, unknown>[] = [];
    const waiters = new Set<() => void>();
    ws.on('message', (data) => {
      messages.push(JSON.parse(String(data)));
      for (const waiter of [...waiters]) waiter();
    });
    const closed = new Promise<{ code: number; reason: string }>((resolveClose) =>
      ws.on('close', (code, reason) => resolveClose({ code, reason: String(reason) })),
    );
    ws.once('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk));
      response.on('end', () =>
        reject(Object.assign(new Error(`HTTP ${response.statusCode}`), { status: response.statusCode, body: JSON.parse(body || 'null') })),
      );
    });
    ws.once('error', reject);
    ws.once('open', () => {
      open.push(ws);
      resolve({
        ws,
        messages,
        closed,
        next(match = () => true, timeoutMs = 5000) {
          return new Promise((resolveNext, rejectNext) => {
            let seen = 0;
            const check = () => {
              for (; seen < messages.length; seen++) {
                if (match(messages[seen])) {
                  waiters.delete(check);
                  clearTimeout(timer);
                  resolveNext(messages[seen]);
                  return;
                }
              }
            };
            const timer = setTimeout(() => {
              waiters.delete(check);
              rejectNext(new Error(`no matching message within ${timeoutMs} ms (got ${messages.length})`));
            }, timeoutMs);
            waiters.add(check);
            check();
          });
        },
      });
    });
  });
}

async function refused(url: string, protocols?: string[]): Promise<{ status: number; body: { error: { code: string } } }> {
  try {
    const client = await connect(url, protocols);
    client.ws.terminate();
  } catch (error) {
    return error as { status: number; body: { error: { code: string } } };
  }
  throw new Error('the upgrade was accepted');
}

function card(id = randomUUID(), overrides: Partial<NowPlayingCard> = {}): NowPlayingCard {
  return {
    station_track_id: id,
    title: 'Night Drive',
    artist: 'Station',
    is_ai_generated: true,
    track_origin: 'ai_generated',
    genre: 'synthwave',
    mood: ['calm'],
    duration_sec: 180,
    elapsed_sec: 0,
    cover_art_url: null,
    waveform_url: null,
    transparency: { model_version: 'music-v1', influencing_genre: 'synthwave', influencing_mood: ['calm'], lyrics_source: null },
    started_at: new Date().toISOString(),
    ...overrides,
  };
}

function closeAll(): void {
  for (const ws of open.splice(0)) ws.terminate();
}

describe('WebSocket channels', () => {
  const clock = new ManualClock(Date.now());
  // The listener_count broadcast fires when the test says so; the heartbeat and the bus run in real time.
  const timers = new ManualTimers();
  let station: TestStation;
  let url: string;
  let listenerToken: string;
  let adminToken: string;

  beforeAll(async () => {
    station = await buildTestStation({ STATION_LISTENER_BROADCAST_SEC: '1' }, { clock, timers });
    await station.http.listen({ port: 0, host: '127.0.0.1' });
    url = baseUrl(station);
    listenerToken = (await signupListener(station)).token;
    adminToken = (await staffLogin(station)).token;
  });

  afterEach(async () => {
    closeAll();
    await waitFor(() => station.station.realtime.hub.size() === 0, 5000, 'server to see every client gone');
  });

  afterAll(async () => {
    await station?.destroy();
  });

  describe('authentication before the upgrade', () => {
    it('refuses a missing or invalid token with 401 and the error envelope', async () => {
      for (const target of [`${url}/now-playing`, `${url}/now-playing?token=`, `${url}/listeners?token=not-a-jwt`]) {
        const answer = await refused(target);
        expect(answer.status).toBe(401);
        expect(answer.body.error.code).toBe('STATION_AUTH_REQUIRED');
      }
      expect(station.station.realtime.hub.size()).toBe(0);
    });

    it('refuses an expired token with 401', async () => {
      const listener = await signupListener(station);
      clock.advance(30_000); // a TOTP code is accepted once: the next login needs the next step
      const admin = await staffLogin(station);
      clock.advance(16 * 60_000); // access tokens live 15 minutes
      expect((await refused(`${url}/now-playing?token=${listener.token}`)).status).toBe(401);
      expect((await refused(`${url}/generation-progress?token=${admin.token}`)).status).toBe(401);
      // Fresh tokens for the rest of the suite (a new TOTP step, too).
      clock.advance(30_000);
      listenerToken = (await signupListener(station)).token;
      adminToken = (await staffLogin(station)).token;
    });

    it('refuses a token without the channel scope with 403', async () => {
      for (const channel of ['generation-progress', 'training-progress']) {
        const answer = await refused(`${url}/${channel}?token=${listenerToken}`);
        expect(answer.status).toBe(403);
        expect(answer.body.error.code).toBe('STATION_INSUFFICIENT_SCOPE');
      }
      // A listener holds station:read; an admin holds every station scope.
      await connect(`${url}/listeners?token=${listenerToken}`);
      await connect(`${url}/training-progress?token=${adminToken}`);
      await connect(`${url}/generation-progress?token=${adminToken}`);
      expect(station.station.realtime.hub.size()).toBe(3);
    });

    it('answers a plain GET (no upgrade) with 426', async () => {
      const response = await station.http.inject({ method: 'GET', url: '/station/ws/now-playing', headers: { authorization: `Bearer ${listenerToken}` } });
      expect(response.statusCode).toBe(426);
      expect(response.json().error.code).toBe('STATION_UPGRADE_REQUIRED');
    });

    it('accepts the token as the subprotocol pair "bearer, <token>"', async () => {
      const client = await connect(`${url}/now-playing`, ['bearer', listenerToken]);
      expect(client.ws.protocol).toBe('bearer');
      expect((await refused(`${url}/now-playing`, ['bearer', 'garbage'])).status).toBe(401);
    });
  });

  describe('now-playing', () => {
    it('delivers a card published on the bus to every client at once', async () => {
      const clients = await Promise.all([1, 2, 3].map(() => connect(`${url}/now-playing?token=${listenerToken}`)));
      const published = card();
      await station.bus.publish(NOW_PLAYING_CHANNEL, published);
      for (const client of clients) {
        const message = await client.next((m) => (m.data as NowPlayingCard)?.station_track_id === published.station_track_id);
        expect(message).toEqual({ event: 'now_playing', data: published, server_time_utc: clock.date().toISOString() });
      }
    });

    it('gives a new client the current card on connect, with elapsed_sec as of now', async () => {
      const published = card(randomUUID(), { started_at: new Date(clock.now() - 42_000).toISOString() });
      const watcher = await connect(`${url}/now-playing?token=${listenerToken}`);
      await station.bus.publish(NOW_PLAYING_CHANNEL, published);
      await watcher.next((m) => (m.data as NowPlayingCard)?.station_track_id === published.station_track_id);

      const late = await connect(`${url}/now-playing?token=${listenerToken}`);
      const first = await late.next();
      expect(first.event).toBe('now_playing');
      expect(first.data).toEqual({ ...published, elapsed_sec: 42 });
    });
  });

  describe('listeners', () => {
    it('sends listener_count every STATION_LISTENER_BROADCAST_SEC with distinct listeners counted', async () => {
      const realtime = station.station.realtime;
      // A listener who is only on the radio stream (the stream's own tests open real ones).
      const leaveStream = realtime.presence.enter('user:stream-only');
      try {
        const other = (await signupListener(station)).token;
        const watchers = await Promise.all([1, 2].map(() => connect(`${url}/listeners?token=${listenerToken}`)));
        await connect(`${url}/now-playing?token=${listenerToken}`); // the same listener a third time
        await connect(`${url}/now-playing?token=${other}`);
        await connect(`${url}/generation-progress?token=${adminToken}`); // not a listener
        await waitFor(() => realtime.hub.size() === 5);
        await waitFor(() => realtime.counter.total() === 3, 5000, 'three distinct listeners');
        // The count arrives at once on connect, then every period.
        const watcher = watchers[0];
        await watcher.next();
        const from = watcher.messages.length;
        timers.advance(1000);
        timers.advance(1000);
        await waitFor(() => watcher.messages.length >= from + 2, 5000, 'two periodic counts');
        for (const message of watcher.messages.slice(from, from + 2)) {
          expect(message).toEqual({ event: 'listener_count', count: 3, peak_today: expect.any(Number) });
          expect(message.peak_today as number).toBeGreaterThanOrEqual(3);
        }
        expect(realtime.counter.total()).toBe(3);
      } finally {
        leaveStream();
      }
    });

    it('ticks once per configured period, no sooner', async () => {
      const realtime = station.station.realtime;
      const watcher = await connect(`${url}/listeners?token=${listenerToken}`);
      await watcher.next(); // the count on connect
      const from = watcher.messages.length;
      expect(timers.periods()).toContain(1000); // the listeners channel (the model waiter polls on these timers too)
      let leave: Array<() => void> = [];
      /** `n` listeners besides the watcher, counted before the next tick. */
      const listeners = async (n: number) => {
        for (const done of leave) done();
        leave = Array.from({ length: n }, (_, i) => realtime.presence.enter(`user:tick-${i}`));
        await realtime.presence.refresh();
      };
      try {
        // Each count tells which stretch of time its tick fired in: none before 1 s, one per second after.
        await listeners(10);
        timers.advance(999);
        await listeners(20);
        timers.advance(1);
        timers.advance(3000);
        await listeners(30);
        timers.advance(1000);
        await waitFor(() => watcher.messages.some((m) => m.count === 31), 5000, 'the tick after the last change');
        expect(watcher.messages.slice(from).map((m) => m.count)).toEqual([21, 21, 21, 21, 31]);
      } finally {
        await listeners(0);
      }
    });

    it('restarts peak_today at midnight UTC', async () => {
      const realtime = station.station.realtime;
      const day = new Date(clock.now());
      clock.set(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 23, 59, 50));
      const tokens = await Promise.all([1, 2, 3].map(async () => (await signupListener(station)).token));
      const clients = await Promise.all(tokens.map((token) => connect(`${url}/listeners?token=${token}`)));
      await waitFor(() => realtime.counter.total() === 3);
      expect(realtime.counter.peakToday()).toBeGreaterThanOrEqual(3);
      clients[0].ws.close();
      clients[1].ws.close();
      await waitFor(() => realtime.counter.total() === 1);
      const peakBefore = realtime.counter.peakToday();
      expect(peakBefore).toBeGreaterThanOrEqual(3);

      clock.advance(20_000); // 00:00:10 UTC the next day
      expect(realtime.counter.peakToday()).toBe(1);
      const from = clients[2].messages.length;
      timers.advance(1000);
      const tick = await clients[2].next((m) => clients[2].messages.indexOf(m) >= from);
      expect(tick).toEqual({ event: 'listener_count', count: 1, peak_today: 1 });
      clock.advance(60_000);
      await staffLogin(station).then((admin) => (adminToken = admin.token));
      listenerToken = (await signupListener(station)).token;
    });
  });

  describe('progress channels', () => {
    it('relays generation_progress to station:admin clients', async () => {
      const client = await connect(`${url}/generation-progress?token=${adminToken}`);
      const generationId = randomUUID();
      await station.station.events.generationProgress(generationId, 42.4, 17.2);
      expect(await client.next()).toEqual({ event: 'generation_progress', generation_id: generationId, progress_pct: 42, eta_seconds: 17 });
    });

    it('relays training_epoch to station:train clients', async () => {
      const client = await connect(`${url}/training-progress?token=${adminToken}`);
      const epoch = { event: 'training_epoch', job_id: randomUUID(), epoch: 3, loss: 1.25, perplexity: 3.49 };
      await station.bus.publish(TRAINING_PROGRESS_CHANNEL, epoch);
      expect(await client.next()).toEqual(epoch);
    });
  });

  describe('slow clients and heartbeat', () => {
    it('drops a client that does not read once its buffer passes the bound, while the others keep receiving', async () => {
      const hub = station.station.realtime.hub;
      const droppedBefore = hub.stats.droppedSlow;
      const fast = await Promise.all([1, 2].map(() => connect(`${url}/generation-progress?token=${adminToken}`)));
      const slow = await connect(`${url}/generation-progress?token=${adminToken}`);
      (slow.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket.pause();
      const padding = randomBytes(192 * 1024).toString('base64'); // 256 KiB of JSON per message
      const count = 64; // 16 MiB: more than loopback's socket buffers and the 1 MiB bound
      for (let i = 0; i < count; i++) {
        await station.bus.publish(GENERATION_PROGRESS_CHANNEL, {
          event: 'generation_progress',
          generation_id: `g${i}`,
          progress_pct: i,
          eta_seconds: 0,
          padding,
        });
        await waitFor(() => fast.every((client) => client.messages.length === i + 1), 5000, `fast clients to get message ${i}`);
      }
      expect(hub.stats.droppedSlow).toBe(droppedBefore + 1);
      expect(hub.size('generation-progress')).toBe(2);
      for (const client of fast) expect(client.messages.map((m) => m.generation_id)).toEqual(Array.from({ length: count }, (_, i) => `g${i}`));
      (slow.ws as unknown as { _socket: { resume(): void } })._socket.resume();
      const { code } = await slow.closed;
      expect([SLOW_CONSUMER_CLOSE, 1006]).toContain(code);
      expect(slow.messages.length).toBeLessThan(count);
    });

    it('terminates a client that does not answer pings and keeps one that does', async () => {
      const hub = station.station.realtime.hub;
      hub.startHeartbeat(150);
      try {
        const alive = await connect(`${url}/now-playing?token=${listenerToken}`);
        const mute = await connect(`${url}/now-playing?token=${listenerToken}`, undefined, { autoPong: false });
        let pings = 0;
        let alivePings = 0;
        mute.ws.on('ping', () => pings++);
        alive.ws.on('ping', () => alivePings++);
        const { code } = await mute.closed;
        expect(code).toBe(1006); // terminated, no close frame
        expect(pings).toBeGreaterThanOrEqual(1);
        const seen = alivePings;
        await waitFor(() => alivePings >= seen + 3, 5000, 'three more heartbeats');
        expect(alive.ws.readyState).toBe(WebSocket.OPEN);
        expect(hub.size('now-playing')).toBe(1);
      } finally {
        hub.startHeartbeat(30_000);
      }
    });
  });
});

describe('WebSocket channels at shutdown', () => {
  let station: TestStation;
  let token: string;

  beforeAll(async () => {
    station = await buildTestStation();
    await station.http.listen({ port: 0, host: '127.0.0.1' });
    token = (await signupListener(station)).token;
  });

  // The bound is this test's timeout, below ws's 30 s close timeout: a close() that waited for the silent
  // client's handshake could only end when that timeout destroyed its socket.
  it('closes every client with 1001 when the station closes, without waiting for them', async () => {
    const clients = await Promise.all([1, 2].map(() => connect(`${baseUrl(station)}/now-playing?token=${token}`)));
    const paused = (clients[1].ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    paused.pause(); // one that reads nothing, so it cannot answer the close handshake
    let pausedClosed = false;
    void clients[1].closed.then(() => (pausedClosed = true));
    await station.destroy();
    // destroy() returned while the silent client had not even read its close frame.
    expect(pausedClosed).toBe(false);
    expect((await clients[0].closed).code).toBe(1001);
    paused.resume();
    expect([1001, 1006]).toContain((await clients[1].closed).code);
    closeAll();
  }, 20_000);
});

describe.runIf(process.env.REDIS_URL)('WebSocket channels across two instances on one Redis', () => {
  let a: TestStation;
  let b: TestStation;

  beforeAll(async () => {
    const env = { STATION_LISTENER_BROADCAST_SEC: '1', REDIS_PREFIX: `test-${randomBytes(5).toString('hex')}` };
    [a, b] = await Promise.all([buildTestStation(env), buildTestStation(env)]);
    await Promise.all([a.http.listen({ port: 0, host: '127.0.0.1' }), b.http.listen({ port: 0, host: '127.0.0.1' })]);
  });

  afterAll(async () => {
    closeAll();
    await Promise.all([a?.destroy(), b?.destroy()]);
  });

  it('delivers a card published on one instance to the clients of the other', async () => {
    const onA = await connect(`${baseUrl(a)}/now-playing?token=${(await signupListener(a)).token}`);
    const onB = await connect(`${baseUrl(b)}/now-playing?token=${(await signupListener(b)).token}`);
    const published = card();
    await a.bus.publish(NOW_PLAYING_CHANNEL, published);
    for (const client of [onA, onB]) {
      const message = await client.next((m) => (m.data as NowPlayingCard)?.station_track_id === published.station_track_id);
      expect(message.data).toEqual(published);
    }
    closeAll();
  });

  it('counts the distinct listeners of both instances', async () => {
    const tokenA = (await signupListener(a)).token;
    const tokenB = (await signupListener(b)).token;
    await waitFor(() => a.station.realtime.hub.size() === 0 && b.station.realtime.hub.size() === 0);
    const onA = await Promise.all([1, 2].map(() => connect(`${baseUrl(a)}/listeners?token=${tokenA}`)));
    const onB = await connect(`${baseUrl(b)}/listeners?token=${tokenB}`);
    // Each instance reads the shared count again within a period (1 s here). One listener on both instances
    // (which needs one database for both): test/auth/connection-limits.test.ts.
    await onA[0].next((m) => m.count === 2, 5000);
    await onB.next((m) => m.count === 2, 5000);
    await waitFor(() => a.station.realtime.counter.total() === 2 && b.station.realtime.counter.total() === 2);
    expect(b.station.realtime.counter.peakToday()).toBeGreaterThanOrEqual(2);
    onA[0].ws.close();
    await waitFor(() => a.station.realtime.hub.size() === 1);
    // A still has a connection: still two listeners.
    const from = onB.messages.length;
    await onB.next((m) => onB.messages.indexOf(m) >= from + 1, 5000);
    expect(b.station.realtime.counter.total()).toBe(2);
    onA[1].ws.close();
    await onB.next((m) => m.count === 1, 5000);
  });
});
