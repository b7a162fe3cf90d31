/**
 * Module D (context engine): the current context, operator overrides, presets, the 30-day history with
 * the generation sessions of each context, and auto-rotation driven by a ManualClock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ManualClock } from '../../src/infra/clock/clock.js';
import { ManualTimers } from '../../src/infra/clock/timers.js';
import { generations, stationContexts, type StoredGenerationRequest } from '../../src/infra/db/schema/index.js';
import type { MusicContext } from '../../src/engine/types.js';
import { ContextRepository } from '../../src/station/context/context.repository.js';
import { ContextRotator } from '../../src/station/context/context-rotator.js';
import { DEMO_PRESETS, seedDemoPresets } from '../../src/station/context/presets-seed.js';
import { choosePreset, PERIODS } from '../../src/station/context/rotation-path.js';
import { authHeaders, buildTestStation, signupListener, staffLogin, type TestStation } from '../helpers/station.js';
import { SERVICE_KEY, buildTrainedStation } from '../helpers/trained-station.js';
import { pollUntil } from '../helpers/poll.js';

type Headers = Record<string, string>;

/** Polls `condition` (every 10 ms of real time, at most `timeoutMs`) and fails the test when it never holds. */
const until = async (condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 5_000): Promise<void> => {
  await pollUntil(what, condition, Boolean, timeoutMs, 10);
};
const ROTATION_SEC = 60;
const NOON = Date.UTC(2026, 0, 15, 12, 0, 0);

const PRESET = {
  name: 'Test Chill',
  genre: 'jazz',
  subgenre: 'cool jazz',
  mood: ['warm', 'relaxed'],
  lifestyle: 'chill',
  tempo_range: [80, 100],
  key_preference: 'minor',
  energy_level: 0.35,
};

describe('module D: context engine endpoints', () => {
  let station: TestStation;
  const clock = new ManualClock(NOON);
  let admin: Headers;
  let listener: Headers;

  beforeAll(async () => {
    station = await buildTestStation({ STATION_CONTEXT_ROTATION_SEC: String(ROTATION_SEC) }, { clock });
    await station.station.contextRotator.stop(); // ticks are driven by hand below
    admin = authHeaders(await staffLogin(station));
    listener = authHeaders(await signupListener(station));
  }, 60_000);
  afterAll(() => station.destroy());

  const current = (headers: Headers = listener) => station.http.inject({ url: '/station/v1/context/current', headers });
  const patch = (payload: unknown, headers: Headers = admin) =>
    station.http.inject({ method: 'PATCH', url: '/station/v1/context/current', headers, payload: payload as Record<string, unknown> });
  const post = (url: string, payload?: Record<string, unknown>, headers: Headers = admin) =>
    station.http.inject({ method: 'POST', url, headers, ...(payload ? { payload } : {}) });
  const get = (url: string, headers: Headers = admin) => station.http.inject({ url, headers });

  it('serves the current context with every field to any station:read caller', async () => {
    const response = await current();
    expect(response.statusCode, response.body).toBe(200);
    const context = response.json();
    expect(Object.keys(context).sort()).toEqual(
      [
        'active_since',
        'auto_rotate',
        'context_id',
        'energy_level',
        'genre',
        'key_preference',
        'lifestyle',
        'mood',
        'next_rotation',
        'subgenre',
        'tempo_range',
        'time_of_day',
      ].sort(),
    );
    expect(context).toMatchObject({ time_of_day: 'afternoon', auto_rotate: true, active_since: new Date(NOON).toISOString() });
    expect(context.next_rotation).toBe(new Date(NOON + ROTATION_SEC * 1000).toISOString());
    expect(context.context_id).toMatch(/^ctx_/);
    // The same context for everyone until something changes it.
    expect((await current(admin)).json()).toEqual(context);
    expect((await station.http.inject({ url: '/station/v1/context/current' })).statusCode).toBe(401);
  });

  it('overrides fields as a new current context, keeping the old one in the history', async () => {
    const before = (await current()).json();
    clock.advance(5_000);
    const response = await patch({ genre: 'synthwave', mood: ['nostalgic', 'driving'], tempo_range: [100, 118], energy_level: 0.65 });
    expect(response.statusCode, response.body).toBe(200);
    const after = response.json();
    expect(after.context_id).not.toBe(before.context_id);
    expect(after).toMatchObject({
      genre: 'synthwave',
      mood: ['nostalgic', 'driving'],
      tempo_range: [100, 118],
      energy_level: 0.65,
      // Fields not named are kept.
      subgenre: before.subgenre,
      lifestyle: before.lifestyle,
      key_preference: before.key_preference,
      auto_rotate: true,
      time_of_day: 'afternoon',
      active_since: clock.date().toISOString(),
      next_rotation: new Date(clock.now() + ROTATION_SEC * 1000).toISOString(),
    });
    expect((await current()).json()).toEqual(after);
    // Two overrides in the same millisecond: the later one is current.
    const first = (await patch({ energy_level: 0.6 })).json();
    const second = (await patch({ energy_level: 0.61 })).json();
    expect(first.active_since).toBe(second.active_since);
    expect((await current()).json().context_id).toBe(second.context_id);

    const history = (await get('/station/v1/context/history')).json();
    expect(history.data.map((h: { context_id: string }) => h.context_id)).toEqual(
      expect.arrayContaining([before.context_id, after.context_id, first.context_id, second.context_id]),
    );
  });

  it('validates overrides: enums, tempo 40..220 with min <= max, energy 0..1, time_of_day values', async () => {
    const before = (await current()).json();
    const bad: unknown[] = [
      { tempo_range: [120, 100] },
      { tempo_range: [30, 100] },
      { tempo_range: [100, 230] },
      { tempo_range: [100] },
      { tempo_range: [90, 100, 110] },
      { energy_level: 1.5 },
      { energy_level: -0.1 },
      { lifestyle: 'dance' },
      { key_preference: 'dorian' },
      { time_of_day: 'noon' },
      { mood: [] },
      { genre: '' },
      { colour: 'blue' },
      {},
    ];
    for (const payload of bad) {
      const response = await patch(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().error.code).toBe('STATION_VALIDATION_FAILED');
    }
    expect((await current()).json()).toEqual(before);
    expect((await patch({ tempo_range: [40, 40] })).statusCode).toBe(200);
    expect((await patch({ tempo_range: [40, 220] })).statusCode).toBe(200);
  });

  it('lets only station:admin override, and only with the CSRF token', async () => {
    const forbidden = await patch({ genre: 'pop' }, listener);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().error.code).toBe('STATION_INSUFFICIENT_SCOPE');
    const noCsrf = await patch({ genre: 'pop' }, { authorization: admin.authorization });
    expect(noCsrf.statusCode).toBe(403);
    expect(noCsrf.json().error.code).toBe('STATION_CSRF_INVALID');
    expect((await current()).json().genre).not.toBe('pop');
  });

  it('creates presets with unique names and lists them paginated', async () => {
    const created = await post('/station/v1/context/presets', PRESET);
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ ...PRESET, time_of_day: null, auto_rotate: true });
    expect(created.json().preset_id).toMatch(/^[0-9a-f-]{36}$/);

    const duplicate = await post('/station/v1/context/presets', { ...PRESET, genre: 'blues' });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().error.code).toBe('STATION_CONFLICT');

    // The current context, as served, can be saved as a preset (bookkeeping fields are ignored).
    const live = (await current()).json();
    const saved = await post('/station/v1/context/presets', { ...live, name: 'Saved Live', time_of_day: 'evening' });
    expect(saved.statusCode, saved.body).toBe(201);
    expect(saved.json()).toMatchObject({ name: 'Saved Live', genre: live.genre, time_of_day: 'evening' });

    for (const payload of [
      { ...PRESET, name: '' },
      { ...PRESET, name: 'No Mood', mood: undefined },
      { ...PRESET, name: 'Bad Tempo', tempo_range: [150, 90] },
      { ...PRESET, name: 'Bad Lifestyle', lifestyle: 'rave' },
      { ...PRESET, name: 'Loud', energy_level: 2 },
    ]) {
      const response = await post('/station/v1/context/presets', payload as Record<string, unknown>);
      expect(response.statusCode, payload.name).toBe(400);
    }

    const page1 = (await get('/station/v1/context/presets?limit=1')).json();
    expect(page1).toMatchObject({ total: 2, page: 1, limit: 1 });
    expect(page1.data).toHaveLength(1);
    const page2 = (await get('/station/v1/context/presets?limit=1&page=2')).json();
    expect(page2.data[0].preset_id).not.toBe(page1.data[0].preset_id);
    expect((await get('/station/v1/context/presets?limit=101')).statusCode).toBe(400);
    expect((await get('/station/v1/context/presets', listener)).statusCode).toBe(403);
    expect((await post('/station/v1/context/presets', { ...PRESET, name: 'Listener' }, listener)).statusCode).toBe(403);
  });

  it('activates a preset as the current context at once (404 for an unknown one)', async () => {
    const presets = (await get('/station/v1/context/presets')).json().data;
    const chill = presets.find((p: { name: string }) => p.name === 'Test Chill');
    clock.advance(1_000);
    const response = await post(`/station/v1/context/presets/${chill.preset_id}/activate`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      genre: 'jazz',
      subgenre: 'cool jazz',
      mood: ['warm', 'relaxed'],
      lifestyle: 'chill',
      tempo_range: [80, 100],
      key_preference: 'minor',
      energy_level: 0.35,
      time_of_day: 'afternoon',
      active_since: clock.date().toISOString(),
    });
    expect((await current()).json().context_id).toBe(response.json().context_id);

    for (const id of ['00000000-0000-4000-8000-000000000000', 'no-such-preset']) {
      const missing = await post(`/station/v1/context/presets/${id}/activate`);
      expect(missing.statusCode).toBe(404);
      expect(missing.json().error.code).toBe('STATION_NOT_FOUND');
    }
    expect((await post(`/station/v1/context/presets/${chill.preset_id}/activate`, undefined, listener)).statusCode).toBe(403);
    expect((await post(`/station/v1/context/presets/${chill.preset_id}/activate`, undefined, { authorization: admin.authorization })).statusCode).toBe(403);
  });

  it('lists the history newest first, with the generation sessions of each context', async () => {
    const db = station.database.db;
    const live = (await current()).json();
    const contextsNow = await db.select().from(stationContexts);
    const older = contextsNow.find((c) => c.contextId !== live.context_id)!;
    const generation = (contextId: string | null, sessionId: string | null, minutes: number) => ({
      // A partial row: only its context id, session and time are read.
      request: {} as StoredGenerationRequest,
      context: {} as MusicContext,
      contextId,
      sessionId,
      seed: 1,
      quality: '128kbps',
      maxDurationSec: 30,
      modelVersion: 'audio-test',
      status: 'complete' as const,
      createdAt: new Date(clock.now() + minutes * 60_000),
    });
    await db
      .insert(generations)
      .values([
        generation(live.context_id, 'session-a', 1),
        generation(live.context_id, 'session-a', 2),
        generation(live.context_id, 'session-b', 3),
        generation(live.context_id, null, 4),
        generation(older.contextId, 'session-old', 0),
      ]);

    const response = await get('/station/v1/context/history');
    expect(response.statusCode, response.body).toBe(200);
    const history = response.json();
    expect(history.total).toBe(contextsNow.length);
    const stamps = history.data.map((h: { active_since: string }) => h.active_since);
    expect([...stamps].sort().reverse()).toEqual(stamps);
    const head = history.data[0];
    expect(head).toMatchObject({ context_id: live.context_id, source: 'preset', preset_name: 'Test Chill', active_until: null, generation_count: 4 });
    expect(head.sessions).toEqual([
      { session_id: 'session-a', generation_count: 2, first_generation_at: expect.any(String), last_generation_at: expect.any(String) },
      { session_id: 'session-b', generation_count: 1, first_generation_at: expect.any(String), last_generation_at: expect.any(String) },
      { session_id: null, generation_count: 1, first_generation_at: expect.any(String), last_generation_at: expect.any(String) },
    ]);
    expect(head.sessions[0].first_generation_at).toBe(new Date(clock.now() + 60_000).toISOString());
    expect(head.sessions[0].last_generation_at).toBe(new Date(clock.now() + 120_000).toISOString());
    const olderEntry = history.data.find((h: { context_id: string }) => h.context_id === older.contextId);
    expect(olderEntry.sessions).toEqual([expect.objectContaining({ session_id: 'session-old', generation_count: 1 })]);
    expect(history.data[1].active_until).toBe(head.active_since);
    expect(history.data.at(-1).source).toBe('initial');

    const paged = (await get('/station/v1/context/history?limit=2&page=2')).json();
    expect(paged.data.map((h: { context_id: string }) => h.context_id)).toEqual(history.data.slice(2, 4).map((h: { context_id: string }) => h.context_id));
    expect(paged.data[0].active_until).toBe(history.data[1].active_since);
    expect((await get('/station/v1/context/history', listener)).statusCode).toBe(403);
  });

  it('keeps the last 30 days of history (and the context that was active when the window opened)', async () => {
    const all = (await get('/station/v1/context/history?limit=100')).json().data;
    clock.advance(31 * 24 * 3600 * 1000);
    const login = authHeaders(await staffLogin(station));
    const fresh = (await patch({ genre: 'new era' }, login)).json();
    const history = (await get('/station/v1/context/history', login)).json();
    expect(history.data.map((h: { context_id: string }) => h.context_id)).toEqual([fresh.context_id, all[0].context_id]);
    expect(history.total).toBe(2);
    admin = login;
    listener = authHeaders(await signupListener(station));
  });

  describe('auto-rotation', () => {
    let rotator: ContextRotator;

    beforeAll(async () => {
      rotator = new ContextRotator({ contexts: station.station.contexts, repo: new ContextRepository(station.database.db), clock });
    });

    it('rotates only once next_rotation has passed, to a preset that fits the part of day', async () => {
      // Evening, 18:30 UTC.
      clock.set(Date.UTC(2026, 2, 1, 18, 30, 0));
      admin = authHeaders(await staffLogin(station));
      const start = (await patch({ genre: 'pop', lifestyle: 'party', auto_rotate: true })).json();
      expect(await rotator.tick(clock.date())).toBeNull();
      clock.advance(ROTATION_SEC * 1000 - 1);
      expect(await rotator.tick(clock.date())).toBeNull();
      expect((await current(admin)).json().context_id).toBe(start.context_id);

      clock.advance(2);
      const rotated = await rotator.tick(clock.date());
      expect(rotated).not.toBeNull();
      const now = (await current(admin)).json();
      expect(now.context_id).toBe(rotated!.contextId);
      // "Saved Live" was saved for the evening: it ranks before the chill preset.
      expect(now).toMatchObject({
        time_of_day: 'evening',
        auto_rotate: true,
        active_since: clock.date().toISOString(),
        next_rotation: new Date(clock.now() + ROTATION_SEC * 1000).toISOString(),
      });
      expect(rotated!.source).toBe('rotation');
      const saved = (await get('/station/v1/context/presets')).json().data.find((p: { name: string }) => p.name === 'Saved Live');
      expect(rotated!.presetId).toBe(saved.preset_id);

      // The next rotation avoids the preset just active: the chill preset fits the evening too.
      clock.advance(ROTATION_SEC * 1000);
      const second = await rotator.tick(clock.date());
      const chill = (await get('/station/v1/context/presets')).json().data.find((p: { name: string }) => p.name === 'Test Chill');
      expect(second!.presetId).toBe(chill.preset_id);
      expect(second!.genre).toBe('jazz');
    });

    it('holds an overridden time_of_day until the next rotation', async () => {
      clock.set(Date.UTC(2026, 2, 2, 12, 0, 0)); // afternoon
      admin = authHeaders(await staffLogin(station));
      const overridden = (await patch({ time_of_day: 'night' })).json();
      expect(overridden.time_of_day).toBe('night');
      clock.advance(10_000);
      // Another override that does not name time_of_day keeps the operator's value.
      const again = (await patch({ energy_level: 0.3 })).json();
      expect(again.time_of_day).toBe('night');
      clock.advance(20_000);
      expect(await rotator.tick(clock.date())).toBeNull();
      expect((await current(admin)).json().time_of_day).toBe('night');
      clock.set(new Date(again.next_rotation).getTime());
      const rotated = await rotator.tick(clock.date());
      expect(rotated!.timeOfDay).toBe('afternoon');
      expect(rotated!.timeOfDayOverride).toBe(false);
      expect((await current(admin)).json().time_of_day).toBe('afternoon');
    });

    it('does not rotate a context whose auto_rotate is off', async () => {
      const pinned = (await patch({ auto_rotate: false })).json();
      expect(pinned.next_rotation).toBeNull();
      clock.advance(24 * 3600 * 1000);
      expect(await rotator.tick(clock.date())).toBeNull();
      admin = authHeaders(await staffLogin(station));
      expect((await current(admin)).json().context_id).toBe(pinned.context_id);
      await patch({ auto_rotate: true });
    });

    it('rotates a context once even when two instances tick together', async () => {
      const other = new ContextRotator({ contexts: station.station.contexts, repo: new ContextRepository(station.database.db), clock });
      clock.advance(ROTATION_SEC * 1000 + 1);
      const results = await Promise.all([rotator.tick(clock.date()), other.tick(clock.date())]);
      expect(results.filter((r) => r !== null)).toHaveLength(1);
    });

    it('runs its timer on the leader only', async () => {
      const timers = new ManualTimers();
      let leader = false;
      let checks = 0;
      const timed = new ContextRotator({
        contexts: station.station.contexts,
        repo: new ContextRepository(station.database.db),
        clock,
        isLeader: () => {
          checks += 1;
          return leader;
        },
        intervalMs: 10,
        timers,
      });
      clock.advance(ROTATION_SEC * 1000 + 1);
      const currentId = async () => (await station.station.contexts.current()).contextId;
      const before = await currentId();
      timed.start();
      expect(timers.periods()).toEqual([10]);
      // A tick starts only once the one before it has ended, so three checks mean two whole ticks as a follower.
      await until(() => {
        timers.advance(10);
        return checks >= 3;
      }, 'three ticks as a follower');
      expect(await currentId()).toBe(before);
      leader = true;
      await until(async () => {
        timers.advance(10);
        return (await currentId()) !== before;
      }, 'a rotation once leading');
      await timed.stop();
      expect(timers.pending()).toBe(0);
    });
  });
});

describe('module D: rotation without presets', () => {
  let station: TestStation;
  const clock = new ManualClock(Date.UTC(2026, 0, 15, 3, 0, 0)); // night

  beforeAll(async () => {
    station = await buildTestStation({ STATION_CONTEXT_ROTATION_SEC: String(ROTATION_SEC) }, { clock });
    await station.station.contextRotator.stop();
  }, 60_000);
  afterAll(() => station.destroy());

  it('nudges genre, mood and energy along the part of day’s path, deterministically', async () => {
    const { contexts } = station.station;
    const rotator = new ContextRotator({ contexts, repo: new ContextRepository(station.database.db), clock });
    const first = await contexts.current();
    expect(first.timeOfDay).toBe('night');
    const seen: string[] = [];
    for (let i = 0; i < 4; i++) {
      clock.advance(ROTATION_SEC * 1000);
      const rotated = await rotator.tick(clock.date());
      expect(rotated).not.toBeNull();
      expect(rotated!.presetId).toBeNull();
      expect(rotated!.timeOfDay).toBe('night');
      seen.push(`${rotated!.genre}/${rotated!.subgenre}/${rotated!.energyLevel}`);
    }
    const path = PERIODS.night.variants.map((v) => `${v.genre}/${v.subgenre}/${v.energy_level}`);
    expect(seen.map((s) => s.replace(/\/([0-9.]+)$/, (_m, e) => `/${Number(Number(e).toFixed(2))}`))).toEqual([...path, path[0]]);

    // Morning comes: the path of the morning starts.
    clock.set(Date.UTC(2026, 0, 15, 7, 0, 0));
    const morning = await rotator.tick(clock.date());
    expect(morning).toMatchObject({ timeOfDay: 'morning', genre: PERIODS.morning.variants[0].genre, lifestyle: 'focus' });
  });

  it('seeds the demo presets once (the demo seed calls this on a fresh station)', async () => {
    expect(await seedDemoPresets(station.station.contexts)).toBe(DEMO_PRESETS.length);
    expect(await seedDemoPresets(station.station.contexts)).toBe(0);
    const listed = await station.station.contexts.listPresets({ limit: 100 });
    expect(listed.total).toBe(DEMO_PRESETS.length);
    expect(DEMO_PRESETS.length).toBeGreaterThanOrEqual(4);
    expect(DEMO_PRESETS.length).toBeLessThanOrEqual(6);
    // Every part of day has a preset to rotate to.
    const candidates = listed.data.map((p) => ({ presetId: p.preset_id, name: p.name, context: p, timeOfDay: p.time_of_day }));
    for (const period of ['night', 'morning', 'afternoon', 'evening'] as const) {
      const chosen = choosePreset(period, candidates, null);
      expect(chosen, period).not.toBeNull();
      expect(chosen!.timeOfDay).toBe(period);
      expect(choosePreset(period, candidates, chosen!.presetId)?.presetId).not.toBe(chosen!.presetId);
    }
  });
});

describe('module D: the next generation follows an override', () => {
  let station: TestStation;
  let admin: Headers;
  let service: Headers;

  beforeAll(async () => {
    // The plan and the generation's context are under test, not its audio: the fake engine renders and trains.
    station = await buildTrainedStation({}, { masters: 3, models: ['audio', 'style_embedding'], fakeEngine: true });
    await station.station.contextRotator.stop();
    admin = authHeaders(await staffLogin(station));
    const csrf = (await station.http.inject({ url: '/api/auth/csrf', headers: { 'x-api-key': SERVICE_KEY } })).json().csrf_token;
    service = { 'x-api-key': SERVICE_KEY, 'x-csrf-token': csrf };
  }, 240_000);
  afterAll(() => station.destroy());

  it('uses the overridden context for a generation created right after the PATCH', async () => {
    const override = await station.http.inject({
      method: 'PATCH',
      url: '/station/v1/context/current',
      headers: admin,
      payload: { genre: 'bossa nova', mood: ['sunny', 'laid-back'], tempo_range: [126, 132], key_preference: 'major', energy_level: 0.55 },
    });
    expect(override.statusCode, override.body).toBe(200);
    // The service key may read the current context (station:read) too.
    expect((await station.http.inject({ url: '/station/v1/context/current', headers: service })).json().context_id).toBe(override.json().context_id);

    const accepted = await station.http.inject({
      method: 'POST',
      url: '/station/v1/generate/track',
      headers: service,
      payload: { max_duration_sec: 10, seed: 11, session_id: 'ctx-session' },
    });
    expect(accepted.statusCode, accepted.body).toBe(202);
    const generationId = accepted.json().generation_id;
    expect(accepted.json().context_id).toBe(override.json().context_id);
    const [row] = await station.database.db.select().from(generations).where(eq(generations.id, generationId));
    expect(row.context).toMatchObject({
      genre: 'bossa nova',
      mood: ['sunny', 'laid-back'],
      tempo_range: [126, 132],
      key_preference: 'major',
      energy_level: 0.55,
    });

    const history = (await station.http.inject({ url: '/station/v1/context/history', headers: admin })).json();
    expect(history.data[0]).toMatchObject({
      context_id: override.json().context_id,
      source: 'override',
      generation_count: 1,
      sessions: [expect.objectContaining({ session_id: 'ctx-session', generation_count: 1 })],
    });
    // Cancel it if still pending, else let it finish, so no job is left running at teardown.
    await station.http.inject({ method: 'DELETE', url: `/station/v1/generate/track/${generationId}`, headers: service });
    await until(
      async () => {
        const { status } = (await station.http.inject({ url: `/station/v1/generate/track/${generationId}`, headers: service })).json();
        return ['complete', 'failed', 'cancelled'].includes(status);
      },
      `generation ${generationId} to end`,
      60_000,
    );
  }, 120_000);
});
