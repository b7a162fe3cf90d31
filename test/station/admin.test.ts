/**
 * Module A (station control): configuration rules, the radio switch and its events, the status view,
 * the safety test, scopes, CSRF and the config-update rate limit. Runs on PGlite, or PostgreSQL/Redis
 * when DATABASE_URL/REDIS_URL are set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/infra/clock/clock.js';
import { safetyFlags, trackFeatures } from '../../src/infra/db/schema/index.js';
import { RADIO_CONTROL_CHANNEL, STATION_EVENTS_CHANNEL } from '../../src/station/events/station-events.js';
import { configViolations } from '../../src/station/admin/config.service.js';
import { StationStatusService } from '../../src/station/admin/status.service.js';
import { GenerationRepository } from '../../src/station/generation/generation.repository.js';
import { authHeaders, buildTestStation, signupListener, staffLogin, type TestStation } from '../helpers/station.js';
import { buildTrainedStation } from '../helpers/trained-station.js';
import { pollUntil } from '../helpers/poll.js';

type Headers = Record<string, string>;

const eventually = async <T>(probe: () => T | undefined, what: string, timeoutMs = 5_000): Promise<T> =>
  (await pollUntil(what, probe, (value) => value !== undefined, timeoutMs, 20)) as T;

const DEFAULTS = {
  radio_enabled: false,
  generation_mode: 'hybrid',
  catalog_ratio: 0.7,
  ai_generation_ratio: 0.3,
  lyrics_generation: true,
  explicit_allowed: false,
  max_track_length_sec: 240,
  generation_lead_time: 120,
  fallback_mode: 'catalog_only',
  stream_quality: '128kbps',
  crossfade_sec: 3,
  report_threshold: 3,
};

describe('module A: station control', () => {
  let station: TestStation;
  const clock = new ManualClock(Date.UTC(2026, 0, 15, 12, 0, 0));
  let admin: Headers;
  let adminId: string;
  let listener: Headers;
  const events: { event: string; data: Record<string, unknown> }[] = [];
  const control: { type: string; [k: string]: unknown }[] = [];

  beforeAll(async () => {
    station = await buildTestStation({}, { clock });
    const login = await staffLogin(station);
    admin = authHeaders(login);
    adminId = login.userId;
    listener = authHeaders(await signupListener(station));
    await station.bus.subscribe(STATION_EVENTS_CHANNEL, (m) => events.push(m as (typeof events)[number]));
    await station.bus.subscribe(RADIO_CONTROL_CHANNEL, (m) => control.push(m as (typeof control)[number]));
  }, 60_000);
  afterAll(() => station.destroy());

  const getConfig = (headers: Headers = admin) => station.http.inject({ url: '/station/v1/admin/config', headers });
  const patchConfig = (payload: unknown, headers: Headers = admin) =>
    station.http.inject({ method: 'PATCH', url: '/station/v1/admin/config', headers, payload: payload as Record<string, unknown> });
  const post = (url: string, payload?: Record<string, unknown>, headers: Headers = admin) =>
    station.http.inject({ method: 'POST', url, headers, ...(payload ? { payload } : {}) });

  async function expectInvalid(payload: unknown, detail?: RegExp) {
    const before = (await getConfig()).json();
    const response = await patchConfig(payload);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().error.code).toBe('STATION_INVALID_CONFIG');
    if (detail) expect(response.json().error.detail).toMatch(detail);
    expect((await getConfig()).json()).toEqual(before);
  }

  describe('configuration', () => {
    it('returns every field of the configuration with its defaults', async () => {
      const response = await getConfig();
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual(DEFAULTS);
    });

    it('applies a partial update, keeps the other fields and tells the scheduler', async () => {
      const mark = control.length;
      const response = await patchConfig({ stream_quality: '320kbps', explicit_allowed: true, generation_lead_time: 90 });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ ...DEFAULTS, stream_quality: '320kbps', explicit_allowed: true, generation_lead_time: 90 });
      expect((await getConfig()).json()).toEqual(response.json());
      const message = await eventually(() => control.slice(mark).find((m) => m.type === 'config_changed'), 'config_changed');
      expect(message.fields).toEqual(expect.arrayContaining(['stream_quality', 'explicit_allowed', 'generation_lead_time']));
      await patchConfig({ stream_quality: '128kbps', explicit_allowed: false, generation_lead_time: 120 });
    });

    it('validates and persists crossfade_sec and report_threshold', async () => {
      const response = await patchConfig({ crossfade_sec: 0, report_threshold: 5 });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ ...DEFAULTS, crossfade_sec: 0, report_threshold: 5 });
      expect((await getConfig()).json()).toMatchObject({ crossfade_sec: 0, report_threshold: 5 });
      expect((await patchConfig({ crossfade_sec: 10 })).json()).toMatchObject({ crossfade_sec: 10, report_threshold: 5 });
      await patchConfig({ crossfade_sec: 3, report_threshold: 3 });
    });

    it('does not announce a patch that changes nothing', async () => {
      await patchConfig({ lyrics_generation: false });
      await eventually(() => control.find((m) => m.type === 'config_changed' && (m.fields as string[]).includes('lyrics_generation')), 'first change');
      const mark = control.length;
      expect((await patchConfig({ lyrics_generation: false })).statusCode).toBe(200);
      // A real change as a barrier: one publisher, so an announcement of the no-op would arrive before it.
      expect((await patchConfig({ crossfade_sec: 4 })).statusCode).toBe(200);
      await eventually(() => control.slice(mark).find((m) => m.type === 'config_changed' && (m.fields as string[]).includes('crossfade_sec')), 'the barrier');
      expect(control.slice(mark)).toEqual([{ type: 'config_changed', fields: ['crossfade_sec'] }]);
      await patchConfig({ lyrics_generation: true, crossfade_sec: 3 });
    });

    it('requires the ratios to sum to 1.0 within 1e-9', async () => {
      expect((await patchConfig({ catalog_ratio: 0.5, ai_generation_ratio: 0.5 })).json()).toMatchObject({ catalog_ratio: 0.5, ai_generation_ratio: 0.5 });
      // One ratio alone breaks the sum with the stored other one.
      await expectInvalid({ catalog_ratio: 0.8 }, /sum|equal 1\.0/);
      await expectInvalid({ catalog_ratio: 0.6, ai_generation_ratio: 0.3 }, /must equal 1\.0/);
      // Within the tolerance: accepted, and stored exactly (double precision).
      const within = await patchConfig({ catalog_ratio: 0.6, ai_generation_ratio: 0.4 + 5e-10 });
      expect(within.statusCode, within.body).toBe(200);
      expect(within.json().ai_generation_ratio).toBe(0.4 + 5e-10);
      // A later, unrelated partial update still validates against the stored values.
      expect((await patchConfig({ max_track_length_sec: 200 })).statusCode).toBe(200);
      // Outside it: refused.
      await expectInvalid({ catalog_ratio: 0.6, ai_generation_ratio: 0.4 + 2e-9 }, /must equal 1\.0/);
      // Values that do not add up in binary floating point exactly, but within tolerance.
      expect((await patchConfig({ catalog_ratio: 0.1 + 0.2, ai_generation_ratio: 0.7 })).statusCode).toBe(200);
      await patchConfig({ catalog_ratio: 0.7, ai_generation_ratio: 0.3, max_track_length_sec: 240 });
    });

    it('refuses ratios outside 0..1 and non-numbers', async () => {
      await expectInvalid({ catalog_ratio: 1.5, ai_generation_ratio: -0.5 });
      await expectInvalid({ catalog_ratio: 'lots', ai_generation_ratio: 0.3 });
    });

    it('keeps generation_mode consistent with the ratios', async () => {
      await expectInvalid({ generation_mode: 'catalog_only' }, /catalog_only requires ai_generation_ratio 0/);
      await expectInvalid({ generation_mode: 'ai_only' }, /ai_only requires catalog_ratio 0/);
      await expectInvalid({ generation_mode: 'catalog_only', catalog_ratio: 0.9, ai_generation_ratio: 0.1 });
      const catalogOnly = await patchConfig({ generation_mode: 'catalog_only', catalog_ratio: 1, ai_generation_ratio: 0 });
      expect(catalogOnly.statusCode, catalogOnly.body).toBe(200);
      // Ratios alone cannot drift away from the mode either.
      await expectInvalid({ catalog_ratio: 0.5, ai_generation_ratio: 0.5 }, /catalog_only/);
      const aiOnly = await patchConfig({ generation_mode: 'ai_only', catalog_ratio: 0, ai_generation_ratio: 1 });
      expect(aiOnly.json()).toMatchObject({ generation_mode: 'ai_only', catalog_ratio: 0, ai_generation_ratio: 1 });
      await patchConfig({ generation_mode: 'hybrid', catalog_ratio: 0.7, ai_generation_ratio: 0.3 });
    });

    it('answers STATION_INVALID_CONFIG for enum values, unknown fields and bad types, changing nothing', async () => {
      await expectInvalid({ generation_mode: 'radio_only' });
      await expectInvalid({ stream_quality: '256kbps' });
      await expectInvalid({ fallback_mode: 'ai_only' });
      await expectInvalid({ fallback_mode: 'silence' });
      await expectInvalid({ stream_quality: '192kbps', colour: 'blue' });
      await expectInvalid({ max_track_length_sec: 5 });
      await expectInvalid({ max_track_length_sec: 120.5 });
      await expectInvalid({ generation_lead_time: -1 });
      await expectInvalid({ crossfade_sec: 11 });
      await expectInvalid({ crossfade_sec: -1 });
      await expectInvalid({ crossfade_sec: 1.5 });
      await expectInvalid({ report_threshold: 0 });
      await expectInvalid({ report_threshold: 2.5 });
      await expectInvalid({ report_threshold: '3' });
      await expectInvalid([{ stream_quality: '192kbps' }]);
      // One bad field spoils the whole patch: the good one is not applied either.
      await expectInvalid({ stream_quality: '192kbps', generation_mode: 'nonsense' });
    });

    it('accepts both documented fallback modes', async () => {
      expect((await patchConfig({ fallback_mode: 'hybrid' })).json().fallback_mode).toBe('hybrid');
      expect((await patchConfig({ fallback_mode: 'catalog_only' })).json().fallback_mode).toBe('catalog_only');
    });

    it('switches radio_enabled only through enable/disable (repeating the current value is allowed)', async () => {
      await expectInvalid({ radio_enabled: true }, /radio\/enable/);
      const same = await patchConfig({ ...DEFAULTS, radio_enabled: false });
      expect(same.statusCode, same.body).toBe(200);
      expect(same.json()).toEqual(DEFAULTS);
    });

    it('rejects malformed JSON with STATION_VALIDATION_FAILED', async () => {
      const response = await station.http.inject({
        method: 'PATCH',
        url: '/station/v1/admin/config',
        headers: { ...admin, 'content-type': 'application/json' },
        payload: '{"stream_quality":',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('STATION_VALIDATION_FAILED');
    });
  });

  describe('radio switch', () => {
    it('enables the radio: event, scheduler message, then 409 when already on', async () => {
      const mark = control.length;
      const response = await post('/station/v1/admin/radio/enable');
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({
        radio_enabled: true,
        changed_at: clock.date().toISOString(),
        changed_by: adminId,
        reason: null,
        effective: 'next_scheduler_cycle',
      });
      expect((await getConfig()).json().radio_enabled).toBe(true);
      const event = await eventually(() => events.find((e) => e.event === 'station.radio.enabled'), 'station.radio.enabled');
      expect(event.data).toEqual({ enabled_by: adminId, at: clock.date().toISOString() });
      await eventually(() => control.slice(mark).find((m) => m.type === 'enable'), 'enable control message');

      const again = await post('/station/v1/admin/radio/enable');
      expect(again.statusCode).toBe(409);
      expect(again.json().error).toMatchObject({ code: 'STATION_RADIO_ALREADY_ENABLED', http_status: 409 });
      expect(events.filter((e) => e.event === 'station.radio.enabled')).toHaveLength(1);
    });

    it('lets exactly one of two simultaneous enables through', async () => {
      await post('/station/v1/admin/radio/disable', { reason: 'race test' });
      const answers = await Promise.all([post('/station/v1/admin/radio/enable'), post('/station/v1/admin/radio/enable')]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    });

    it('needs a reason to disable', async () => {
      for (const payload of [undefined, {}, { reason: '' }, { reason: 'x'.repeat(501) }, { reason: 'ok', extra: 1 }]) {
        const response = await post('/station/v1/admin/radio/disable', payload);
        expect(response.statusCode, JSON.stringify(payload)).toBe(400);
        expect(response.json().error.code).toBe('STATION_VALIDATION_FAILED');
      }
      const blank = await post('/station/v1/admin/radio/disable', { reason: '   ' });
      expect(blank.statusCode).toBe(400);
      expect((await getConfig()).json().radio_enabled).toBe(true);
    });

    it('disables the radio with a reason: event, scheduler message, then 409 when already off', async () => {
      const mark = control.length;
      const eventMark = events.length;
      const response = await post('/station/v1/admin/radio/disable', { reason: 'Maintenance window' });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({
        radio_enabled: false,
        changed_at: clock.date().toISOString(),
        changed_by: adminId,
        reason: 'Maintenance window',
        effective: 'after_current_track',
      });
      const event = await eventually(() => events.slice(eventMark).find((e) => e.event === 'station.radio.disabled'), 'station.radio.disabled');
      expect(event.data).toMatchObject({ reason: 'Maintenance window', disabled_by: adminId });
      expect(await eventually(() => control.slice(mark).find((m) => m.type === 'disable'), 'disable control message')).toMatchObject({
        reason: 'Maintenance window',
      });
      const status = (await station.http.inject({ url: '/station/v1/admin/status', headers: admin })).json();
      expect(status).toMatchObject({ radio_enabled: false, disabled_reason: 'Maintenance window', radio_changed_at: clock.date().toISOString() });

      const again = await post('/station/v1/admin/radio/disable', { reason: 'again' });
      expect(again.statusCode).toBe(409);
      expect(again.json().error.code).toBe('STATION_CONFLICT');
    });
  });

  describe('status', () => {
    it('reports every field, with neutral values before the scheduler and training exist', async () => {
      clock.advance(95_000);
      const response = await station.http.inject({ url: '/station/v1/admin/status', headers: admin });
      expect(response.statusCode, response.body).toBe(200);
      const status = response.json();
      expect(status).toMatchObject({
        radio_enabled: false,
        listener_count: 0,
        current_track: null,
        queue_depth: 0,
        training_status: 'idle',
        model_version: null,
        lyrics_model_version: null,
        safety_status: 'ok',
        safety_flags_24h: 0,
        generation_queue_depth: 0,
        generation_mode: 'hybrid',
        fallback_active: false,
      });
      expect(status.uptime_seconds).toBeGreaterThanOrEqual(95);
      expect(['ok', 'degraded', 'down']).toContain(status.ml_service_health);
    });

    it('reads the radio and training through replaceable ports, and counts recent safety flags', async () => {
      // The ports are given at construction: a status service of this station's data with stand-in radio and training.
      const status = new StationStatusService({
        config: station.station.stationConfig,
        generationQueueDepth: () => new GenerationRepository(station.database.db).queueDepth(),
        safetyFlagsSince: (since) => station.station.registryModule.repo.safetyFlagsSince(since),
        models: station.station.models,
        engine: station.engine,
        clock,
        startedAt: clock.now(),
        radio: {
          currentTrack: async () => ({ station_track_id: 'stn_test', track_origin: 'ai_generated', title: 'Test Tune', progress_pct: 42 }),
          queueDepth: async () => 3,
          listenerCount: async () => 17,
          fallbackActive: async () => true,
        },
        training: { status: async () => 'running' },
      });
      await station.database.db.insert(safetyFlags).values({ flagType: 'explicit_language', safetyScore: 0.2, detail: {}, createdAt: clock.date() });
      const view = await status.status();
      expect(view).toMatchObject({
        current_track: { station_track_id: 'stn_test', track_origin: 'ai_generated', title: 'Test Tune', progress_pct: 42 },
        queue_depth: 3,
        listener_count: 17,
        fallback_active: true,
        training_status: 'running',
        safety_status: 'flags_pending',
        safety_flags_24h: 1,
      });
      // A day later the flag no longer counts as pending.
      clock.advance(24 * 3600 * 1000 + 1000);
      const later = await status.status();
      expect(later).toMatchObject({ safety_status: 'ok', safety_flags_24h: 0 });
      clock.advance(-(24 * 3600 * 1000 + 1000));
    });
  });

  describe('safety test (empty catalog)', () => {
    const safetyTest = (payload: Record<string, unknown>, headers: Headers = admin) => post('/station/v1/admin/safety/test', payload, headers);

    it('flags explicit lyrics unless explicit content is allowed', async () => {
      const flagged = await safetyTest({ lyrics: 'walking down the road, what the fuck is this' });
      expect(flagged.statusCode, flagged.body).toBe(200);
      expect(flagged.json()).toMatchObject({ explicit_detected: true, playable: false, explicit_allowed: false });
      expect(flagged.json().flagged_categories).toContain('explicit_language');
      expect(flagged.json().safety_score).toBeLessThan(0.8);
      expect(flagged.json().checks.lyrics).toBeDefined();
      expect(flagged.json().checks.audio).toBeUndefined();

      const allowed = await safetyTest({ lyrics: { verse_1: 'what the fuck is this' }, explicit_allowed: true });
      expect(allowed.json()).toMatchObject({ explicit_detected: true, playable: true, explicit_allowed: true });
      expect(allowed.json().flagged_categories).not.toContain('explicit_language');

      const clean = await safetyTest({ lyrics: 'morning light on the harbour, coffee and a quiet street' });
      expect(clean.json()).toMatchObject({ explicit_detected: false, playable: true, flagged_categories: [] });
      expect(clean.json().safety_score).toBeGreaterThanOrEqual(0.8);
    });

    it('needs something to test, and a catalog track that has features', async () => {
      const empty = await safetyTest({});
      expect(empty.statusCode).toBe(400);
      expect(empty.json().error.code).toBe('STATION_VALIDATION_FAILED');
      expect((await safetyTest({ lyrics: '   ' })).statusCode).toBe(400);
      expect((await safetyTest({ lyrics: 'x', unknown: true })).statusCode).toBe(400);
      const missing = await safetyTest({ audio_track_id: '00000000-0000-4000-8000-000000000000' });
      expect(missing.statusCode).toBe(404);
      expect(missing.json().error.code).toBe('STATION_NOT_FOUND');
      expect((await safetyTest({ audio_track_id: 'not-a-uuid' })).statusCode).toBe(404);
    });
  });

  describe('access control', () => {
    const routes: { method: 'GET' | 'PATCH' | 'POST'; url: string; payload?: Record<string, unknown> }[] = [
      { method: 'GET', url: '/station/v1/admin/config' },
      { method: 'PATCH', url: '/station/v1/admin/config', payload: { stream_quality: '128kbps' } },
      { method: 'POST', url: '/station/v1/admin/radio/enable' },
      { method: 'POST', url: '/station/v1/admin/radio/disable', payload: { reason: 'x' } },
      { method: 'GET', url: '/station/v1/admin/status' },
      { method: 'POST', url: '/station/v1/admin/safety/test', payload: { lyrics: 'hello' } },
    ];

    it('refuses callers without a token (401) and without station:admin (403)', async () => {
      for (const route of routes) {
        const anonymous = await station.http.inject({ method: route.method, url: route.url, payload: route.payload });
        expect(anonymous.statusCode, route.url).toBe(401);
        expect(anonymous.json().error.code).toBe('STATION_AUTH_REQUIRED');
        const asListener = await station.http.inject({ method: route.method, url: route.url, payload: route.payload, headers: listener });
        expect(asListener.statusCode, route.url).toBe(403);
        expect(asListener.json().error.code).toBe('STATION_INSUFFICIENT_SCOPE');
      }
    });

    it('requires the CSRF token on every mutation', async () => {
      for (const route of routes.filter((r) => r.method !== 'GET')) {
        for (const csrf of [undefined, 'wrong-token']) {
          const headers: Headers = { authorization: admin.authorization, ...(csrf ? { 'x-csrf-token': csrf } : {}) };
          const response = await station.http.inject({ method: route.method, url: route.url, payload: route.payload, headers });
          expect(response.statusCode, route.url).toBe(403);
          expect(response.json().error.code).toBe('STATION_CSRF_INVALID');
        }
      }
      expect((await getConfig()).json().radio_enabled).toBe(false);
    });
  });

  it('checks the whole configuration in one pure function', () => {
    expect(configViolations({ ...DEFAULTS } as never)).toEqual([]);
    expect(configViolations({ ...DEFAULTS, catalog_ratio: 0.7 + 1e-9 + 1e-12 } as never)).toHaveLength(1);
    expect(configViolations({ ...DEFAULTS, catalog_ratio: 0.7 + 0.9e-9 } as never)).toEqual([]);
  });
});

describe('module A: config update rate limit', () => {
  let station: TestStation;
  let admin: Headers;

  beforeAll(async () => {
    station = await buildTestStation();
    admin = authHeaders(await staffLogin(station));
  }, 60_000);
  afterAll(() => station.destroy());

  it('allows 60 PATCH /admin/config per minute; the 61st answers 429 STATION_RATE_LIMITED with Retry-After', async () => {
    for (let i = 0; i < 60; i++) {
      const response = await station.http.inject({
        method: 'PATCH',
        url: '/station/v1/admin/config',
        headers: admin,
        payload: { stream_quality: i % 2 ? '192kbps' : '128kbps' },
      });
      expect(response.statusCode, `request ${i + 1}`).toBe(200);
    }
    const limited = await station.http.inject({ method: 'PATCH', url: '/station/v1/admin/config', headers: admin, payload: { stream_quality: '320kbps' } });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe('STATION_RATE_LIMITED');
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.json().error.retry_after).toBe(retryAfter);
    // The refused update was not applied; reads are not limited.
    const config = await station.http.inject({ url: '/station/v1/admin/config', headers: admin });
    expect(config.statusCode).toBe(200);
    expect(config.json().stream_quality).toBe('192kbps');
  }, 60_000);
});

describe('module A: safety test against a trained station', () => {
  let station: TestStation;
  let admin: Headers;

  beforeAll(async () => {
    // The safety filter runs on the real engine against the catalog's masters and lyrics (the safety reference);
    // the models only need to be deployed (the status names them), never run: trained by the fake engine.
    station = await buildTrainedStation({}, { masters: 3, fakeTraining: true });
    admin = authHeaders(await staffLogin(station));
  }, 240_000);
  afterAll(() => station.destroy());

  it('runs the real filter: a catalog master is an audio duplicate of itself, copied catalog lyrics are flagged', async () => {
    const [master] = await station.database.db.select({ trackId: trackFeatures.trackId, features: trackFeatures.features }).from(trackFeatures).limit(1);
    expect(master).toBeDefined();
    const byId = await station.http.inject({
      method: 'POST',
      url: '/station/v1/admin/safety/test',
      headers: admin,
      payload: { audio_track_id: master.trackId },
    });
    expect(byId.statusCode, byId.body).toBe(200);
    expect(byId.json()).toMatchObject({ playable: false, flagged_categories: ['audio_duplicate'] });
    expect(byId.json().checks.audio.safety_score).toBeLessThan(0.8);
    expect(byId.json().reference_version).toMatch(/^reference-/);

    const byFeatures = await station.http.inject({
      method: 'POST',
      url: '/station/v1/admin/safety/test',
      headers: admin,
      payload: { audio_features: master.features },
    });
    expect(byFeatures.json().flagged_categories).toContain('audio_duplicate');

    const reference = await station.station.safetyReference.load();
    const song = reference.lyrics[0];
    const copied = song.sections
      .flatMap((s) => s.lines)
      .slice(0, 8)
      .join('\n');
    const lyrics = await station.http.inject({ method: 'POST', url: '/station/v1/admin/safety/test', headers: admin, payload: { lyrics: copied } });
    expect(lyrics.statusCode, lyrics.body).toBe(200);
    expect(lyrics.json().flagged_categories).toContain('copyright_similarity');
    expect(lyrics.json().playable).toBe(false);

    const both = await station.http.inject({
      method: 'POST',
      url: '/station/v1/admin/safety/test',
      headers: admin,
      payload: { lyrics: 'a brand new line about the quiet sea', audio_track_id: master.trackId },
    });
    expect(both.json().checks.lyrics.playable).toBe(true);
    expect(both.json().checks.audio.playable).toBe(false);
    expect(both.json().playable).toBe(false);
    expect(both.json().safety_score).toBe(Math.min(both.json().checks.lyrics.safety_score, both.json().checks.audio.safety_score));

    const status = (await station.http.inject({ url: '/station/v1/admin/status', headers: admin })).json();
    expect(status.model_version).toMatch(/^audio-/);
    expect(status.lyrics_model_version).toMatch(/^lyrics-/);
  }, 120_000);
});
