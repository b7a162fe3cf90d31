import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, gt, isNotNull, ne } from 'drizzle-orm';
import { radioSlots, registryTracks } from '../../src/infra/db/schema/index.js';
import { authHeaders, signupListener, staffLogin, buildTestStation, type TestDatabase, type TestStation } from '../helpers/station.js';
import { createRestartableDatabase } from '../helpers/restartable-database.js';
import { SERVICE_KEY, buildTrainedStation } from '../helpers/trained-station.js';
import { pollUntil } from '../helpers/poll.js';

const waitFor = async <T>(probe: () => Promise<T | null | undefined | false>, timeoutMs = 120_000): Promise<T> =>
  (await pollUntil('the probe to answer', probe, Boolean, timeoutMs, 250)) as T;

describe('module H: the listener API on a playing station', () => {
  let station: TestStation;
  let listener: Awaited<ReturnType<typeof signupListener>>;
  let admin: Record<string, string>;
  let service: Record<string, string>;

  beforeAll(async () => {
    // Catalog only: the masters, no models. The listener API is under test, not the music: the fake engine
    // renders the masters (real MP3 bytes the stream plays).
    station = await buildTrainedStation({ STATION_SCHEDULER_CYCLE_SEC: '1' }, { masters: 6, trackSec: 4, models: [], fakeEngine: true });
    admin = authHeaders(await staffLogin(station));
    const csrf = (await station.http.inject({ url: '/api/auth/csrf', headers: { 'x-api-key': SERVICE_KEY } })).json().csrf_token;
    service = { 'x-api-key': SERVICE_KEY, 'x-csrf-token': csrf };
    await station.http.inject({
      method: 'PATCH',
      url: '/station/v1/admin/config',
      headers: admin,
      payload: { catalog_ratio: 1, ai_generation_ratio: 0, generation_mode: 'catalog_only' },
    });
    expect((await station.http.inject({ method: 'POST', url: '/station/v1/admin/radio/enable', headers: admin })).statusCode).toBe(200);
    listener = await signupListener(station);
    await waitFor(async () => (await station.station.radio.scheduler.status.nowPlaying()) !== null, 60_000);
  }, 300_000);
  afterAll(() => station.destroy());

  const get = (url: string, headers = authHeaders(listener)) => station.http.inject({ url, headers });

  it('answers stream-info, and its stream_url plays with the ticket it carries', async () => {
    const info = (await get('/station/v1/radio/stream-info')).json();
    expect(info).toMatchObject({ bitrate: 128, format: 'audio/mpeg', station_status: 'on_air' });
    const expiresInSec = (Date.parse(info.stream_url_expires) - Date.now()) / 1000;
    expect(expiresInSec).toBeGreaterThan(12 * 3600 - 60);
    expect(expiresInSec).toBeLessThanOrEqual(12 * 3600);
    expect(info.now_playing.track_origin).toBe('catalog');
    const path = info.stream_url.replace('http://station.test', '');
    const address = await station.http.listen({ port: 0, host: '127.0.0.1' });
    const controller = new AbortController();
    const response = await fetch(`${address}${path}`, { signal: controller.signal });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/mpeg');
    const reader = response.body!.getReader();
    const { value } = await reader.read();
    expect(value!.length).toBeGreaterThan(0);
    expect(value![0]).toBe(0xff); // starts on an MPEG frame header
    controller.abort();
    const forged = await fetch(`${address}${path.replace(/ticket=[^.]+/, 'ticket=1')}`);
    expect(forged.status).toBe(401);
  });

  it('serves the now-playing card, at most once per second per user', async () => {
    // A listener who has not asked yet: the limit counts per user.
    const fresh = authHeaders(await signupListener(station));
    const first = await get('/station/v1/radio/now-playing', fresh);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ is_ai_generated: false, track_origin: 'catalog' });
    expect(first.json().elapsed_sec).toBeLessThanOrEqual(first.json().duration_sec);
    const second = await get('/station/v1/radio/now-playing', fresh);
    expect(second.statusCode).toBe(429);
    expect(second.json().error.code).toBe('STATION_RATE_LIMITED');
    expect(Number(second.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('shows the next five slots and the history of played tracks', async () => {
    // The scheduler tops the queue up every cycle; between a track ending and the next cycle (seconds under
    // load, the tracks here last 4 s) it may briefly hold four.
    const queue = await waitFor(async () => {
      const data = (await get('/station/v1/radio/queue')).json().data;
      return data.length === 5 ? data : null;
    }, 30_000);
    expect(queue).toHaveLength(5);
    expect(queue.every((q: { track_origin: string; is_ai_generated: boolean }) => q.track_origin === 'catalog' && !q.is_ai_generated)).toBe(true);
    const history = await waitFor(async () => {
      const data = (await get('/station/v1/radio/history')).json().data;
      return data.length >= 2 ? data : null;
    });
    expect(new Date(history[0].played_at).getTime()).toBeGreaterThan(new Date(history[1].played_at).getTime());
    const session = history[0].session_id;
    const bySession = (await get(`/station/v1/radio/history?session_id=${session}`)).json();
    expect(bySession.data.every((h: { session_id: string }) => h.session_id === session)).toBe(true);
    expect((await get('/station/v1/radio/history?session_id=ses_none')).json().data).toEqual([]);
  });

  it('stores feedback with user and time, 10 per minute per user', async () => {
    const trackId = (await station.station.radio.scheduler.status.nowPlaying())!.station_track_id;
    const other = await signupListener(station);
    const post = (payload: object, who = listener) =>
      station.http.inject({ method: 'POST', url: '/station/v1/radio/feedback', headers: authHeaders(who), payload });
    const stored = await post({ station_track_id: trackId, rating: 'thumbs_up' }, other);
    expect(stored.statusCode).toBe(201);
    expect(stored.json()).toMatchObject({ station_track_id: trackId, rating: 'thumbs_up', flag_inappropriate: false });
    expect((await post({ station_track_id: 'stn_unknown', rating: 'thumbs_up' }, other)).statusCode).toBe(404);
    expect((await post({ station_track_id: trackId, rating: 'meh' }, other)).statusCode).toBe(400);
    const statuses = [];
    for (let i = 0; i < 11; i++) statuses.push((await post({ station_track_id: trackId, rating: 'thumbs_down' })).statusCode);
    expect(statuses.slice(0, 10).every((s) => s === 201)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it('suggests a catalog master for the scheduler as a signed link', async () => {
    const response = await station.http.inject({ url: '/station/v1/scheduler/next-track?source=catalog', headers: service });
    expect(response.statusCode).toBe(200);
    expect(response.json().stream_url).toContain('/media/catalog/');
    expect((await station.http.inject({ url: '/station/v1/scheduler/next-track?source=ai', headers: service })).statusCode).toBe(400);
    expect((await get('/station/v1/scheduler/next-track?source=catalog')).statusCode).toBe(403);
  });

  it('lets the current track finish after disable, then starts nothing new', async () => {
    const { broadcaster, scheduler } = station.station.radio;
    const response = await station.http.inject({ method: 'POST', url: '/station/v1/admin/radio/disable', headers: admin, payload: { reason: 'maintenance' } });
    expect(response.statusCode).toBe(200);
    // What is on air: the track listeners hear, and (the timeline is rendered a little ahead of them) the
    // one it may already be crossfading into.
    const onAir = broadcaster.scheduledTrackId();
    expect(broadcaster.position().trackId).not.toBeNull(); // the disable did not cut the track short
    // The stream turns to silence only once listeners heard all of it.
    await waitFor(async () => broadcaster.position().trackId === null, 30_000);
    // Nothing followed: the track the stream had loaded ahead but not yet placed on its timeline
    // (prefetch, 15 s before the end of a 4 s track, so always) was dropped and its slot went back to the plan.
    const handedOut = await station.database.db
      .select({ id: radioSlots.id })
      .from(radioSlots)
      .where(and(gt(radioSlots.id, Number(onAir)), ne(radioSlots.status, 'planned')));
    expect(handedOut).toEqual([]);
    // And the stream's source gives it nothing more while the radio is off.
    expect(await scheduler.source.next()).toBeNull();
    expect((await get('/station/v1/radio/stream-info')).json().station_status).toBe('off_air');
  }, 60_000);
});

/** Slots the stream has started, in any session. */
const startedSlots = (station: TestStation) =>
  station.database.db.select({ id: radioSlots.id, origin: radioSlots.origin }).from(radioSlots).where(isNotNull(radioSlots.startedAt));

describe('fallback and restart', () => {
  let database: TestDatabase;
  let dataDir: string;

  beforeAll(async () => {
    database = await createRestartableDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'station-radio-'));
  });
  afterAll(async () => {
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  // Once intermittent on PostgreSQL and Redis (1 run in 3 to 1 in 23), cause not proven. The likely one: a
  // planning cycle that waited on a slow lease check went on cueing after the instance had lost the lead (seen
  // in the Redis fault tests: two slots cued at once); the track source now checks the lead again after its
  // cycle (track-source.ts). Passed 6 runs of 6 on PostgreSQL and Redis since.
  it('keeps playing the catalog when the ML engine is unreachable, and resumes state after a restart', async () => {
    // An audio model, so the first station plans AI slots the second must fill from the catalog. Its engine never
    // finishes a render (as the real engine's renders of minutes do not, before the restart): a fake one that did
    // would leave AI tracks the second station would play. The catalog's masters are tones from another fake.
    // Its close gives up on the held render after 1 s instead of the default 10 s: the render is abandoned
    // either way, and what the second station finds is the same.
    const first = await buildTrainedStation(
      { DATA_DIR: dataDir, STATION_SCHEDULER_CYCLE_SEC: '1' },
      { masters: 4, trackSec: 4, database, models: ['audio'], fakeEngine: { holdTracks: true }, fakeRendering: true, jobCloseTimeoutMs: 1_000 },
    );
    const admin = authHeaders(await staffLogin(first));
    await first.http.inject({ method: 'POST', url: '/station/v1/admin/radio/enable', headers: admin });
    await waitFor(async () => (await first.station.radio.scheduler.status.nowPlaying()) !== null, 60_000);
    const context = (await first.station.contexts.current()).contextId;
    const registryBefore = (await first.database.db.select().from(registryTracks)).length;
    const startedBefore = new Set((await startedSlots(first)).map((slot) => slot.id));
    await first.close();

    // Same database and files, but the AI engine is a remote service that does not answer.
    const second = await buildTestStation(
      { DATA_DIR: dataDir, STATION_SCHEDULER_CYCLE_SEC: '1', ML_URL: 'http://127.0.0.1:9', ML_API_KEY: 'unreachable-ml-service-key' },
      { database },
    );
    try {
      // Read through the service: the first station's login used this 30 s window's TOTP code already.
      const status = await waitFor(async () => {
        const body = await second.station.admin.status.status();
        return body.fallback_active ? body : null;
      }, 60_000);
      expect(status).toMatchObject({ radio_enabled: true, ml_service_health: 'down' });
      // Two tracks started by the second station (the history also holds the first one's plays).
      const played = await waitFor(async () => {
        const started = (await startedSlots(second)).filter((slot) => !startedBefore.has(slot.id));
        return started.length >= 2 ? started : null;
      }, 120_000);
      expect(played.every((slot) => slot.origin === 'catalog')).toBe(true);
      expect((await second.station.radio.radio.history()).data.length).toBeGreaterThanOrEqual(2);
      expect((await second.station.contexts.current()).contextId).toBe(context);
      expect((await second.database.db.select().from(registryTracks)).length).toBe(registryBefore);
    } finally {
      await second.close();
    }
  }, 300_000);
});
