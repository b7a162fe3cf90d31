import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { id3TagLength } from '../../src/engine/music/id3.js';
import { GENERATION_PROGRESS_CHANNEL, STATION_EVENTS_CHANNEL } from '../../src/station/events/station-events.js';
import { artists } from '../../src/infra/db/schema/index.js';
import { parseMp3Frames } from '../engine/music/helpers.js';
import { authHeaders, signupListener, staffLogin, type TestStation } from '../helpers/station.js';
import { SERVICE_KEY, buildTrainedStation } from '../helpers/trained-station.js';

describe('modules E and F: generation and lyrics endpoints', () => {
  let station: TestStation;
  let service: Record<string, string>;
  let admin: Record<string, string>;
  const events: { event: string; data: Record<string, unknown> }[] = [];
  const progress: { generation_id: string; progress_pct: number }[] = [];

  beforeAll(async () => {
    station = await buildTrainedStation();
    const csrf = (await station.http.inject({ url: '/api/auth/csrf', headers: { 'x-api-key': SERVICE_KEY } })).json().csrf_token;
    service = { 'x-api-key': SERVICE_KEY, 'x-csrf-token': csrf };
    admin = authHeaders(await staffLogin(station));
    await station.bus.subscribe(STATION_EVENTS_CHANNEL, (m) => events.push(m as (typeof events)[number]));
    await station.bus.subscribe(GENERATION_PROGRESS_CHANNEL, (m) => progress.push(m as (typeof progress)[number]));
  }, 240_000);
  afterAll(() => station.destroy());

  const generate = (payload: Record<string, unknown>, headers = service) =>
    station.http.inject({ method: 'POST', url: '/station/v1/generate/track', headers, payload });
  const poll = (id: string, headers = service) => station.http.inject({ url: `/station/v1/generate/track/${id}`, headers });

  async function waitFor(id: string, statuses = ['complete', 'failed', 'cancelled']) {
    for (let i = 0; i < 600; i++) {
      const body = (await poll(id)).json();
      if (statuses.includes(body.status)) return body;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`generation ${id} did not finish`);
  }

  async function mediaBytes(url: string): Promise<Buffer> {
    const response = await station.http.inject({ url: url.replace('http://station.test', '') });
    expect(response.statusCode).toBe(200);
    return response.rawPayload;
  }

  it('answers at once with a pending generation, then completes with a playable, registered track', async () => {
    const accepted = await generate({ max_duration_sec: 10, seed: 7, quality: '192kbps', include_lyrics: true, session_id: 'session-e2e' });
    expect(accepted.statusCode).toBe(202);
    expect(accepted.json()).toMatchObject({ status: 'pending', seed: 7, quality: '192kbps', include_lyrics: true });
    const done = await waitFor(accepted.json().generation_id);
    expect(done).toMatchObject({ status: 'complete', track_origin: 'ai_generated', duration_sec: 10, session_id: 'session-e2e' });
    expect(done.station_track_id).toMatch(/^stn_/);
    expect(done.title.length).toBeGreaterThan(0);
    expect(done.duration_ms).toBeGreaterThan(0);
    expect(new Date(done.stream_url_expires).getTime() - Date.now()).toBeGreaterThan(23.9 * 3600 * 1000);

    const mp3 = await mediaBytes(done.stream_url);
    const frames = parseMp3Frames(mp3);
    expect(frames.allMpeg1Layer3).toBe(true);
    expect([...frames.bitrates]).toEqual([192]);
    expect(Math.abs(frames.durationSec - 10)).toBeLessThan(0.5);
    expect(mp3.subarray(0, id3TagLength(mp3)).toString('latin1')).toContain(done.station_track_id);

    const waveform = JSON.parse((await mediaBytes(done.waveform_url)).toString());
    expect(waveform.data.length).toBeGreaterThan(10);
    expect((await mediaBytes(done.cover_art_url)).subarray(1, 4).toString()).toBe('PNG');

    const record = await station.station.registry.get(done.station_track_id);
    expect(record).toMatchObject({ generationId: done.generation_id, modelVersion: done.model_version, sessionId: 'session-e2e', radioOnly: true });
    expect(record.lyricsModelVersion).toBe(done.lyrics_model_version);
    expect(record.trainingDatasetHash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(record.audioSha256).toBe(createHash('sha256').update(mp3).digest('hex'));

    const complete = events.find((e) => e.event === 'station.track.generation_complete' && e.data.generation_id === done.generation_id);
    expect(complete?.data).toMatchObject({ station_track_id: done.station_track_id, duration_sec: 10, model_version: done.model_version });
    expect(progress.some((p) => p.generation_id === done.generation_id && p.progress_pct > 0)).toBe(true);
  }, 180_000);

  it('gives byte-identical audio for the same seed and context, different audio for another seed', async () => {
    const ids = [];
    for (const seed of [11, 11, 12]) ids.push((await generate({ max_duration_sec: 10, seed, context_override: { genre: 'synthwave', tempo_range: [110, 118] } })).json().generation_id);
    const audio = [];
    for (const id of ids) {
      const done = await waitFor(id);
      const mp3 = await mediaBytes(done.stream_url);
      audio.push(mp3.subarray(id3TagLength(mp3)));
      expect(done.bpm).toBeGreaterThanOrEqual(110);
      expect(done.bpm).toBeLessThanOrEqual(118);
    }
    expect(audio[0].equals(audio[1])).toBe(true);
    expect(audio[0].equals(audio[2])).toBe(false);
  }, 180_000);

  it('validates the request', async () => {
    for (const payload of [
      { max_duration_sec: 5 },
      { max_duration_sec: 100000 },
      { max_duration_sec: 30, quality: '999kbps' },
      { max_duration_sec: 30, context_override: { tempo_range: [120, 80] } },
      { max_duration_sec: 30, unknown_field: true },
    ]) {
      const response = await generate(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().error.code).toBe('STATION_VALIDATION_FAILED');
    }
    await station.station.stationConfig.update({ maxTrackLengthSec: 20 });
    const tooLong = await generate({ max_duration_sec: 30 });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error.detail).toContain('max_track_length_sec');
    await station.station.stationConfig.update({ maxTrackLengthSec: 240 });
    expect((await generate({ max_duration_sec: 30, context_id: 'ctx_nope' })).statusCode).toBe(404);
    expect((await generate({ max_duration_sec: 30, model_version: 'audio-v0' })).statusCode).toBe(404);
    expect((await poll('7b1c5b8e-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });

  it('needs station:generate and the CSRF token', async () => {
    const listener = await signupListener(station);
    const asListener = await generate({ max_duration_sec: 10 }, authHeaders(listener));
    expect(asListener.statusCode).toBe(403);
    expect(asListener.json().error.code).toBe('STATION_INSUFFICIENT_SCOPE');
    const noCsrf = await generate({ max_duration_sec: 10 }, { 'x-api-key': SERVICE_KEY });
    expect(noCsrf.statusCode).toBe(403);
    expect(noCsrf.json().error.code).toBe('STATION_CSRF_INVALID');
  });

  it('allows 4 generations in flight, refuses the 5th with 429, cancels pending ones only', async () => {
    const accepted = [];
    for (let i = 0; i < 4; i++) {
      const response = await generate({ max_duration_sec: 30, seed: 100 + i });
      expect(response.statusCode).toBe(202);
      accepted.push(response.json().generation_id as string);
    }
    const fifth = await generate({ max_duration_sec: 30 });
    expect(fifth.statusCode).toBe(429);
    expect(fifth.json().error.code).toBe('STATION_RATE_LIMITED');
    expect(fifth.json().error.retry_after).toBeGreaterThan(0);
    expect(Number(fifth.headers['retry-after'])).toBe(fifth.json().error.retry_after);

    const queue = await station.http.inject({ url: '/station/v1/generate/queue', headers: admin });
    expect(queue.statusCode).toBe(200);
    expect(queue.json().data).toHaveLength(4);
    expect(queue.json().max_concurrent).toBe(4);
    expect(queue.json().data.every((j: { estimated_wait_seconds: number }) => j.estimated_wait_seconds >= 0)).toBe(true);
    expect((await station.http.inject({ url: '/station/v1/generate/queue', headers: service })).statusCode).toBe(403);

    // Wait until one is running; cancel it -> 409; cancel the pending others -> cancelled.
    let running: string | undefined;
    for (let i = 0; i < 300 && !running; i++) {
      for (const id of accepted) if ((await poll(id)).json().status === 'in_progress') running = id;
      if (!running) await new Promise((r) => setTimeout(r, 100));
    }
    expect(running).toBeDefined();
    const conflict = await station.http.inject({ method: 'DELETE', url: `/station/v1/generate/track/${running}`, headers: service });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json().error.code).toBe('STATION_CONFLICT');
    for (const id of accepted.filter((id) => id !== running)) {
      const body = (await poll(id)).json();
      if (body.status !== 'pending') continue;
      const cancelled = await station.http.inject({ method: 'DELETE', url: `/station/v1/generate/track/${id}`, headers: service });
      expect(cancelled.statusCode).toBe(200);
      expect(cancelled.json().status).toBe('cancelled');
      const again = await station.http.inject({ method: 'DELETE', url: `/station/v1/generate/track/${id}`, headers: service });
      expect(again.statusCode).toBe(409);
    }
    await waitFor(running!);
  }, 240_000);

  it('regenerates with the same context and another seed (admin only)', async () => {
    const first = await waitFor((await generate({ max_duration_sec: 10, seed: 5, context_override: { genre: 'jazz', mood: ['warm'] } })).json().generation_id);
    expect((await station.http.inject({ method: 'POST', url: `/station/v1/generate/track/${first.generation_id}/regenerate`, headers: service })).statusCode).toBe(403);
    const again = await station.http.inject({ method: 'POST', url: `/station/v1/generate/track/${first.generation_id}/regenerate`, headers: admin });
    expect(again.statusCode).toBe(202);
    expect(again.json().seed).not.toBe(5);
    expect(again.json().regenerated_from).toBe(first.generation_id);
    const done = await waitFor(again.json().generation_id);
    expect(done).toMatchObject({ status: 'complete', genre: 'jazz', mood: ['warm'] });
  }, 180_000);

  describe('lyrics', () => {
    const lyrics = (payload: Record<string, unknown>) => station.http.inject({ method: 'POST', url: '/station/v1/generate/lyrics', headers: service, payload });

    it('generates lyrics in the asked structure with a safety score', async () => {
      const response = await lyrics({ mood: ['hopeful'], theme: 'the sea', language: 'en', structure: 'verse-chorus-verse-chorus-bridge-chorus', seed: 3 });
      expect(response.statusCode).toBe(201);
      const body = response.json();
      expect(Object.keys(body.structure).sort()).toEqual(['bridge', 'chorus', 'verse_1', 'verse_2']);
      expect(body.order).toEqual(['verse_1', 'chorus', 'verse_2', 'chorus', 'bridge', 'chorus']);
      expect(body.safety_score).toBeGreaterThanOrEqual(0);
      expect(body.safety_score).toBeLessThanOrEqual(1);
      const fetched = await station.http.inject({ url: `/station/v1/generate/lyrics/${body.lyric_id}`, headers: service });
      expect(fetched.json().structure).toEqual(body.structure);
      const check = await station.http.inject({ method: 'POST', url: `/station/v1/generate/lyrics/${body.lyric_id}/safety-check`, headers: service });
      expect(check.statusCode).toBe(200);
      expect(check.json()).toMatchObject({ lyric_id: body.lyric_id, explicit_allowed: false });
      const same = await lyrics({ mood: ['hopeful'], theme: 'the sea', language: 'en', structure: 'verse-chorus-verse-chorus-bridge-chorus', seed: 3 });
      expect(same.json().structure).toEqual(body.structure);
    });

    it('refuses an untrained language, unknown or non-platform style artists, and unknown ids', async () => {
      expect((await lyrics({ mood: ['calm'], theme: 'rain', language: 'fr' })).statusCode).toBe(400);
      expect((await lyrics({ mood: ['calm'], theme: 'rain', language: 'en', style_artist_ids: ['no-such-artist'] })).statusCode).toBe(400);
      const [outsider] = await station.database.db.insert(artists).values({ slug: 'outside-band', name: 'Outside Band', genre: 'rock', platformOwned: false }).returning();
      expect((await lyrics({ mood: ['calm'], theme: 'rain', language: 'en', style_artist_ids: [outsider.id] })).statusCode).toBe(400);
      const [platform] = await station.database.db.select().from(artists).where(eq(artists.slug, 'quiet-radiator'));
      expect((await lyrics({ mood: ['calm'], theme: 'rain', language: 'en', style_artist_ids: [platform.id] })).statusCode).toBe(201);
      expect((await lyrics({ mood: ['calm'], theme: 'rain', language: 'en', structure: 'verse-solo' })).statusCode).toBe(400);
      expect((await station.http.inject({ url: '/station/v1/generate/lyrics/7b1c5b8e-0000-4000-8000-000000000000', headers: service })).statusCode).toBe(404);
    });

    it('is off when lyrics_generation is false', async () => {
      await station.station.stationConfig.update({ lyricsGeneration: false });
      const response = await lyrics({ mood: ['calm'], theme: 'rain', language: 'en' });
      expect(response.statusCode).toBe(409);
      await station.station.stationConfig.update({ lyricsGeneration: true });
    });
  });
});
