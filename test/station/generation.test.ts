import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { EngineError } from '../../src/engine/errors.js';
import { eq } from 'drizzle-orm';
import { id3TagLength } from '../../src/engine/audio/id3.js';
import { GENERATION_PROGRESS_CHANNEL, STATION_EVENTS_CHANNEL } from '../../src/station/events/station-events.js';
import { artists, demoSeed, lyricGenerations, modelVersions } from '../../src/infra/db/schema/index.js';
import { ManualClock } from '../../src/infra/clock/clock.js';
import { ManualTimers } from '../../src/infra/clock/timers.js';
import { seedDemoCatalog } from '../../src/demo/seed-catalog.js';
import { renderDemoMasters } from '../../src/demo/seed-audio.js';
import { trainDemoModels } from '../../src/demo/seed-models.js';
import { buildTestStation } from '../helpers/station.js';
import { DEMO_SEED_GRACE_MS } from '../../src/station/models/model-availability.js';
import { parseMp3Frames } from '../engine/music/helpers.js';
import { encodeFlac, encodeMp3, tonePcm } from './playout-support.js';
import { decodePcm } from '../../src/engine/audio/pcm.js';
import { authHeaders, signupListener, staffLogin, type TestStation } from '../helpers/station.js';
import { SERVICE_KEY, buildTrainedStation } from '../helpers/trained-station.js';
import { FakeEngine } from '../helpers/fake-engine.js';
import type { LyricsJob, LyricsResult, TrackJob } from '../../src/engine/engine.js';
import type { ProgressFn } from '../../src/engine/types.js';
import { parseStructure } from '../../src/engine/lyrics/structure.js';

/** Moves only when a test moves it: expiries and timestamps are asserted exactly. */
const POLL_MS = 200;

/**
 * The FakeEngine with the real engine's section keys (verse_1, chorus, ...: src/engine/lyrics/structure.ts),
 * for the suite about waiting for the first models: what it asserts of lyrics is that the asked structure
 * arrives once a model is deployed, not what a model writes.
 */
class SectionedFakeEngine extends FakeEngine {
  override async generateLyrics(job: LyricsJob): Promise<LyricsResult> {
    const { keys, order } = parseStructure(job.structure);
    const structure = Object.fromEntries(keys.map((key) => [key, `${job.theme}, ${key} (${job.seed})\nsung in ${job.mood.join(' and ') || 'calm'}`]));
    return { structure, title: job.theme, order, modelVersion: job.lyricsModel.version };
  }
}

describe('modules E and F: generation and lyrics endpoints', () => {
  const clock = new ManualClock(Date.UTC(2026, 0, 15, 12, 0, 0));
  let station: TestStation;
  let service: Record<string, string>;
  let admin: Record<string, string>;
  const events: { event: string; data: Record<string, unknown> }[] = [];
  const progress: { generation_id: string; progress_pct: number }[] = [];

  beforeAll(async () => {
    // Three masters to train on: nothing here counts them, and each is a real render.
    station = await buildTrainedStation({}, { clock, masters: 3 });
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

  /**
   * For the running test, the station's renders by the FakeEngine (a tone as long as asked, up to its cap),
   * each once `gate` opens: for the tests about the queue, regeneration, a session's lyrics and the station's
   * own checks on a render. The rest of the pipeline (lyrics, features, safety, influences, registry) stays
   * the real engine's.
   */
  const fake = new FakeEngine();
  function fakeRenders(gate: Promise<unknown> = Promise.resolve()): void {
    const real = station.engine.generateTrack.bind(station.engine);
    station.engine.generateTrack = async (job: TrackJob, onProgress?: ProgressFn) => {
      await gate;
      return fake.generateTrack(job, onProgress);
    };
    onTestFinished(() => {
      station.engine.generateTrack = real;
    });
  }

  /** Polls until the generation reaches one of `statuses`; the station's clock moves one poll interval per poll. */
  async function waitFor(id: string, statuses = ['complete', 'failed', 'cancelled']) {
    return vi.waitFor(
      async () => {
        clock.advance(POLL_MS);
        const body = (await poll(id)).json();
        if (!statuses.includes(body.status)) throw new Error(`generation ${id} is ${body.status}`);
        return body;
      },
      // Generous: on a loaded CI machine (two suites side by side on two cores) a render can take minutes.
      { timeout: 300_000, interval: POLL_MS },
    );
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
    expect(done.duration_ms).toBe(Date.parse(done.completed_at) - Date.parse(done.started_at));
    // Signed when the view is built, at the station's (fixed) now: 24 hours from then, rounded up to the
    // signer's 10-minute step (links stay stable, and cacheable, within a step).
    const step = 600_000;
    expect(done.stream_url_expires).toBe(new Date(Math.ceil((clock.now() + 24 * 3600 * 1000) / step) * step).toISOString());

    const mp3 = await mediaBytes(done.stream_url);
    const frames = parseMp3Frames(mp3);
    expect(frames.allMpeg1Layer3).toBe(true);
    expect([...frames.bitrates]).toEqual([192]);
    expect(Math.abs(frames.durationSec - 10)).toBeLessThan(0.5);
    expect(mp3.subarray(0, id3TagLength(mp3)).toString('latin1')).toContain(done.station_track_id);

    const waveform = JSON.parse((await mediaBytes(done.waveform_url)).toString());
    expect(waveform.data.length).toBeGreaterThan(10);
    expect((await mediaBytes(done.cover_art_url)).subarray(1, 4).toString()).toBe('PNG');
    // With lyrics the track is sung: the vocal stem (mono MP3, as long as the master) is kept beside it.
    const stem = parseMp3Frames(await mediaBytes(done.vocal_stem_url));
    expect(stem.allMpeg1Layer3).toBe(true);
    expect(Math.abs(stem.durationSec - 10)).toBeLessThan(0.5);

    const record = await station.station.registry.get(done.station_track_id);
    expect(record).toMatchObject({ generationId: done.generation_id, modelVersion: done.model_version, sessionId: 'session-e2e', radioOnly: true });
    expect(record.lyricsModelVersion).toBe(done.lyrics_model_version);
    expect(record.trainingDatasetHash).toMatch(/^sha256:[0-9a-f]{64}$/);
    // The track's audio is the lossless master; the stream_url's MP3 was encoded once from it, beside it.
    expect(record.audioBlobKey).toBe(`ai/${done.station_track_id}.flac`);
    const master = await station.blobs.get(record.audioBlobKey);
    expect(master.subarray(0, 4).toString('latin1')).toBe('fLaC');
    expect(record.audioSha256).toBe(createHash('sha256').update(master).digest('hex'));
    expect(done.stream_url).toContain(`ai/${done.station_track_id}.192k.mp3`);
    let masterFrames = 0;
    for await (const chunk of decodePcm(master, 'flac')) masterFrames += chunk.frames;
    expect(masterFrames).toBe(10 * 44100);

    const complete = events.find((e) => e.event === 'station.track.generation_complete' && e.data.generation_id === done.generation_id);
    expect(complete?.data).toMatchObject({ station_track_id: done.station_track_id, duration_sec: 10, model_version: done.model_version });
    expect(progress.some((p) => p.generation_id === done.generation_id && p.progress_pct > 0)).toBe(true);
  }, 180_000);

  it('never sings a line its session sang in its last songs; another session gets the same song again', async () => {
    fakeRenders(); // the lines are the real lyrics model's, written before the render; the audio is not examined
    const request = { max_duration_sec: 10, seed: 11, include_lyrics: true, context_override: { genre: 'synthwave', mood: ['dreamy'], lifestyle: 'focus' } };
    const linesOf = async (generationId: string) => {
      const [row] = await station.database.db.select().from(lyricGenerations).where(eq(lyricGenerations.generationId, generationId));
      return Object.values(row.structure ?? {}).flatMap((text) =>
        text
          .split('\n')
          .map((line) => line.trim())
          .filter(Boolean),
      );
    };
    const run = async (session: string) => {
      const accepted = await generate({ ...request, session_id: session });
      expect(accepted.statusCode, accepted.body).toBe(202);
      const done = await waitFor(accepted.json().generation_id);
      expect(done.status).toBe('complete');
      return linesOf(done.generation_id);
    };
    const first = await run('session-lines-a');
    const second = await run('session-lines-a');
    expect(first.length).toBeGreaterThan(4);
    expect(second.filter((line) => first.includes(line))).toEqual([]);
    // The same request and seed in a session of its own: the first song again, line for line.
    expect(await run('session-lines-b')).toEqual(first);
  }, 600_000);

  it('gives byte-identical audio for the same seed and context, different audio for another seed', async () => {
    const ids = [];
    for (const seed of [11, 11, 12])
      ids.push((await generate({ max_duration_sec: 10, seed, context_override: { genre: 'synthwave', tempo_range: [110, 118] } })).json().generation_id);
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
    // Renders held until the rules are checked: the running one stays in progress however fast it renders.
    let openGate = () => {};
    fakeRenders(new Promise<void>((resolve) => (openGate = resolve)));
    onTestFinished(() => openGate());
    const accepted: string[] = [];
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
    const running = await vi.waitFor(
      async () => {
        for (const id of accepted) if ((await poll(id)).json().status === 'in_progress') return id;
        throw new Error('none is running yet');
      },
      { timeout: 60_000, interval: 100 },
    );
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
    openGate();
    // All of them done (rendered or cancelled): none is left rendering into the next test.
    for (const id of accepted) await waitFor(id);
  }, 420_000);

  it('regenerates with the same context and another seed (admin only)', async () => {
    fakeRenders(); // about the request and its context, not the audio
    const first = await waitFor((await generate({ max_duration_sec: 10, seed: 5, context_override: { genre: 'jazz', mood: ['warm'] } })).json().generation_id);
    expect(
      (await station.http.inject({ method: 'POST', url: `/station/v1/generate/track/${first.generation_id}/regenerate`, headers: service })).statusCode,
    ).toBe(403);
    const again = await station.http.inject({ method: 'POST', url: `/station/v1/generate/track/${first.generation_id}/regenerate`, headers: admin });
    expect(again.statusCode).toBe(202);
    expect(again.json().seed).not.toBe(5);
    expect(again.json().regenerated_from).toBe(first.generation_id);
    const done = await waitFor(again.json().generation_id);
    expect(done).toMatchObject({ status: 'complete', genre: 'jazz', mood: ['warm'] });
  }, 420_000);

  it("keeps an internal failure's own text to the server: the generation and its event carry a coarse message", async () => {
    const secret = 'connect ECONNREFUSED 10.0.0.5:5432 reading /var/lib/station/keys/jwt.key (password=hunter2)';
    const real = station.engine.generateTrack.bind(station.engine);
    station.engine.generateTrack = async () => {
      throw new Error(secret);
    };
    try {
      const failed = await waitFor((await generate({ max_duration_sec: 10, seed: 11 })).json().generation_id, ['failed']);
      expect(failed.error.code).toBe('STATION_GENERATION_FAILED');
      expect(JSON.stringify(failed)).not.toMatch(/ECONNREFUSED|10\.0\.0\.5|jwt\.key|hunter2/);
      const event = await vi.waitFor(() => {
        const found = events.find((e) => e.event === 'station.track.generation_failed' && e.data.generation_id === failed.generation_id);
        if (!found) throw new Error('no generation_failed event yet');
        return found;
      });
      expect(JSON.stringify(event)).not.toMatch(/ECONNREFUSED|10\.0\.0\.5|jwt\.key|hunter2/);
    } finally {
      station.engine.generateTrack = real;
    }
  }, 120_000);

  it('rejects a render with more than 1 s under -50 dBFS after its first sound: it fails and never reaches the radio', async () => {
    const real = station.engine.generateTrack.bind(station.engine);
    const tone = (seconds: number) => tonePcm({ frequencyHz: 440, amplitude: 0.25, seconds });
    const holed = Float32Array.from([...tone(2), ...new Float32Array(Math.round(1.5 * 44100)), ...tone(2)]);
    // The render's audio is replaced by the holed one: the rest of the result needs no real render.
    station.engine.generateTrack = async (job, onProgress) => ({
      ...(await fake.generateTrack(job, onProgress)),
      master: encodeFlac(holed),
      mp3: await encodeMp3(holed),
    });
    try {
      const failed = await waitFor((await generate({ max_duration_sec: 10, seed: 13 })).json().generation_id, ['failed']);
      expect(failed.error.code).toBe('STATION_GENERATION_FAILED');
      expect(failed.station_track_id ?? null).toBeNull();
    } finally {
      station.engine.generateTrack = real;
    }
  }, 420_000);

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

    it("answers an internal engine failure with a coarse 500 that keeps the engine's words to the server", async () => {
      const real = station.engine.generateLyrics.bind(station.engine);
      station.engine.generateLyrics = async () => {
        throw new EngineError('INTERNAL', 'worker died reading /var/lib/station/models/lyrics.json (token=hunter2)');
      };
      try {
        const response = await lyrics({ mood: ['hopeful'], theme: 'the sea', language: 'en', seed: 4 });
        expect(response.statusCode).toBe(500);
        expect(response.json().error.code).toBe('STATION_GENERATION_FAILED');
        expect(response.body).not.toMatch(/var\/lib|lyrics\.json|hunter2|worker died/);
      } finally {
        station.engine.generateLyrics = real;
      }
    });

    it('refuses an untrained language, unknown or non-platform style artists, and unknown ids', async () => {
      expect((await lyrics({ mood: ['calm'], theme: 'rain', language: 'fr' })).statusCode).toBe(400);
      expect((await lyrics({ mood: ['calm'], theme: 'rain', language: 'en', style_artist_ids: ['no-such-artist'] })).statusCode).toBe(400);
      const [outsider] = await station.database.db
        .insert(artists)
        .values({ slug: 'outside-band', name: 'Outside Band', genre: 'rock', platformOwned: false })
        .returning();
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

describe('modules E and F before the first model is deployed (issue 8, item 9)', () => {
  const clock = new ManualClock(Date.UTC(2026, 0, 15, 12, 0, 0));
  const timers = new ManualTimers();
  let station: TestStation;
  let service: Record<string, string>;

  beforeAll(async () => {
    // About when work waits for a model and when it runs, not about what the models make: the FakeEngine
    // renders the masters, trains the models and runs the work (test/station/generation's first suite and
    // test/engine cover the real ones).
    station = await buildTestStation({ STATION_SERVICE_API_KEY: SERVICE_KEY }, { clock, timers, engine: new SectionedFakeEngine() });
    const db = station.database.db;
    await seedDemoCatalog(db);
    let rendered = 0;
    await renderDemoMasters(
      { db, blobs: station.blobs, engine: station.engine },
      4,
      () => rendered >= 3,
      () => (rendered += 1),
    );
    const csrf = (await station.http.inject({ url: '/api/auth/csrf', headers: { 'x-api-key': SERVICE_KEY } })).json().csrf_token;
    service = { 'x-api-key': SERVICE_KEY, 'x-csrf-token': csrf };
  }, 240_000);
  afterAll(() => station.destroy());

  const generate = (payload: Record<string, unknown>) => station.http.inject({ method: 'POST', url: '/station/v1/generate/track', headers: service, payload });
  const lyrics = (payload: Record<string, unknown>) => station.http.inject({ method: 'POST', url: '/station/v1/generate/lyrics', headers: service, payload });
  const poll = (id: string) => station.http.inject({ url: `/station/v1/generate/track/${id}`, headers: service });
  const pollLyrics = (id: string) => station.http.inject({ url: `/station/v1/generate/lyrics/${id}`, headers: service });
  /** The demo seed as another instance would leave it: lease held until `leaseSec` from now, models expected at the given offsets. */
  const seedInProgress = async (leaseSec: number, expectedSec: Record<string, number>) => {
    const expected = Object.fromEntries(Object.entries(expectedSec).map(([type, sec]) => [type, new Date(clock.now() + sec * 1000).toISOString()]));
    const row = { id: 1, holder: 'other-instance', leaseExpiresAt: new Date(clock.now() + leaseSec * 1000), step: 'rendering', expected };
    await station.database.db.insert(demoSeed).values(row).onConflictDoUpdate({ target: demoSeed.id, set: row });
  };

  it('answers 409 STATION_CONFLICT saying what to do when no model exists and none is coming; an unknown version stays 404', async () => {
    const track = await generate({ max_duration_sec: 10 });
    expect(track.statusCode).toBe(409);
    expect(track.json().error.code).toBe('STATION_CONFLICT');
    expect(track.json().error.message).toContain('POST /station/v1/training/jobs');
    expect(track.json().error.message).toContain('deploy');
    const lyric = await lyrics({ mood: ['calm'], theme: 'rain', language: 'en' });
    expect(lyric.statusCode).toBe(409);
    expect(lyric.json().error.code).toBe('STATION_CONFLICT');
    expect(lyric.json().error.message).toContain('lyrics');
    expect((await generate({ max_duration_sec: 10, model_version: 'audio-v0' })).statusCode).toBe(404);
    expect((await lyrics({ mood: ['calm'], theme: 'rain', language: 'en', model_version: 'lyrics-v0' })).statusCode).toBe(404);
  });

  it('fails a waiting generation with STATION_CONFLICT when the model it waited for stops coming', async () => {
    await seedInProgress(60, { audio: 90 });
    const accepted = await generate({ max_duration_sec: 10 });
    expect(accepted.statusCode).toBe(202);
    // The seeding instance dies; within one more lease period (it may be restarting) the work keeps waiting...
    await seedInProgress(-1, { audio: 90 });
    await station.station.modelWaiter!.tick();
    expect((await poll(accepted.json().generation_id)).json().status).toBe('pending');
    // ...after that nobody resumed the seed: nothing is coming.
    const events: Array<{ event: string; data: Record<string, unknown> }> = [];
    const unsubscribe = await station.bus.subscribe(STATION_EVENTS_CHANNEL, (message) => void events.push(message as (typeof events)[number]));
    clock.advance(DEMO_SEED_GRACE_MS);
    await station.station.modelWaiter!.tick();
    const failed = (await poll(accepted.json().generation_id)).json();
    expect(failed.status).toBe('failed');
    expect(failed.error.code).toBe('STATION_CONFLICT');
    // Subscribers (the scheduler, webhooks) hear about it like any other failed generation.
    const event = await vi.waitFor(() => {
      const found = events.find((e) => e.event === 'station.track.generation_failed' && e.data.generation_id === failed.generation_id);
      if (!found) throw new Error('no generation_failed event yet');
      return found;
    });
    expect(event.data).toMatchObject({ error_code: 'STATION_CONFLICT', message: failed.error.message });
    await unsubscribe();
  });

  it('accepts work while the seed trains the first models, keeps it pending with an honest ETA, and runs it once they are deployed', async () => {
    await seedInProgress(60, { lyrics: 30, audio: 90 });
    const accepted = await generate({ max_duration_sec: 10, seed: 4, include_lyrics: true });
    expect(accepted.statusCode).toBe(202);
    // 90 s until the model, plus the render itself (10 s of audio at the assumed 8x real time: 1 s).
    expect(accepted.json()).toMatchObject({ status: 'pending', model_version: null, waiting_for_model: true, eta_seconds: 91 });
    const id = accepted.json().generation_id as string;

    const pendingLyrics = await lyrics({ mood: ['hopeful'], theme: 'the sea', language: 'en', structure: 'verse-chorus', seed: 3 });
    expect(pendingLyrics.statusCode).toBe(202);
    expect(pendingLyrics.json()).toMatchObject({ status: 'pending', model_version: null, structure: null, eta_seconds: 31 });
    const lyricId = pendingLyrics.json().lyric_id as string;
    const check = await station.http.inject({ method: 'POST', url: `/station/v1/generate/lyrics/${lyricId}/safety-check`, headers: service });
    expect(check.statusCode).toBe(409);

    // Time passes; the ETA follows the seed's expectation. Nothing runs before a model is deployed.
    clock.advance(20_000);
    await station.station.modelWaiter!.tick();
    expect((await poll(id)).json()).toMatchObject({ status: 'pending', eta_seconds: 71 });
    expect((await pollLyrics(lyricId)).json()).toMatchObject({ status: 'pending', eta_seconds: 11 });

    const db = station.database.db;
    await trainDemoModels(
      { db, blobs: station.blobs, engine: station.engine, models: station.station.models, modelsRepo: station.station.modelsRepo },
      ['lyrics', 'audio'],
      () => undefined,
      () => false,
      { lyrics: { epochs: 1, learningRate: 0.01, batchSize: 64, warmupSteps: 5 }, audio: { epochs: 3, learningRate: 0.05, batchSize: 4, warmupSteps: 1 } },
    );
    const audioModel = await station.station.models.production('audio');
    const lyricsModel = await station.station.models.production('lyrics');
    await station.station.modelWaiter!.tick();

    const lyricDone = (await pollLyrics(lyricId)).json();
    expect(lyricDone).toMatchObject({ status: 'complete', model_version: lyricsModel!.version, eta_seconds: 0 });
    expect(Object.keys(lyricDone.structure).sort()).toEqual(['chorus', 'verse_1']);

    const done = await vi.waitFor(
      async () => {
        const body = (await poll(id)).json();
        if (body.status !== 'complete' && body.status !== 'failed') throw new Error(`still ${body.status}`);
        return body;
      },
      { timeout: 120_000, interval: 200 },
    );
    expect(done).toMatchObject({ status: 'complete', model_version: audioModel!.version, lyrics_model_version: lyricsModel!.version });
    expect(done.waiting_for_model).toBeUndefined();

    // With a production model, new work binds it at once and lyrics answer synchronously again.
    const now = await generate({ max_duration_sec: 10 });
    expect(now.json().model_version).toBe(audioModel!.version);
    expect((await lyrics({ mood: ['calm'], theme: 'rain', language: 'en' })).statusCode).toBe(201);
    await vi.waitFor(
      async () => {
        if (['pending', 'in_progress'].includes((await poll(now.json().generation_id)).json().status)) throw new Error('running');
      },
      { timeout: 120_000, interval: 200 },
    );
  }, 240_000);

  it('keeps a generation that sings waiting for the lyrics model, never making it instrumental; 409 when lyrics cannot come', async () => {
    const db = station.database.db;
    const lyricsModel = (await station.station.models.production('lyrics'))!;
    const audioModel = (await station.station.models.production('audio'))!;
    const setLyricsStatus = (status: 'ready' | 'production') => db.update(modelVersions).set({ status }).where(eq(modelVersions.id, lyricsModel.id));
    // The audio model is deployed; the lyrics model is not yet, but the seed will deploy one in 30 s.
    await setLyricsStatus('ready');
    await seedInProgress(60, { lyrics: 30 });
    const sung = await generate({ max_duration_sec: 10, seed: 5, include_lyrics: true });
    expect(sung.statusCode, sung.body).toBe(202);
    expect(sung.json()).toMatchObject({ status: 'pending', model_version: null, waiting_for_model: true, eta_seconds: 31 });
    // An instrumental request needs no lyrics model: it binds the audio model at once.
    const instrumental = await generate({ max_duration_sec: 10, seed: 6 });
    expect(instrumental.json()).toMatchObject({ model_version: audioModel.version });
    expect(instrumental.json().waiting_for_model).toBeUndefined();
    await station.station.modelWaiter!.tick();
    expect((await poll(sung.json().generation_id)).json()).toMatchObject({ status: 'pending', waiting_for_model: true });

    await setLyricsStatus('production');
    await station.station.modelWaiter!.tick();
    const done = await vi.waitFor(
      async () => {
        const body = (await poll(sung.json().generation_id)).json();
        if (body.status !== 'complete' && body.status !== 'failed') throw new Error(`still ${body.status}`);
        return body;
      },
      { timeout: 120_000, interval: 200 },
    );
    expect(done).toMatchObject({ status: 'complete', model_version: audioModel.version, lyrics_model_version: lyricsModel.version });

    // Lyrics switched off in the configuration: the request says why.
    await station.station.stationConfig.update({ lyricsGeneration: false });
    const off = await generate({ max_duration_sec: 10, include_lyrics: true });
    expect(off.statusCode).toBe(409);
    expect(off.json().error.message).toContain('lyrics_generation');
    await station.station.stationConfig.update({ lyricsGeneration: true });

    // No lyrics model deployed and none coming (the seed stopped long ago): 409 saying what to do.
    await setLyricsStatus('ready');
    await seedInProgress(-(DEMO_SEED_GRACE_MS / 1000 + 60), { lyrics: 30 });
    const none = await generate({ max_duration_sec: 10, include_lyrics: true });
    expect(none.statusCode).toBe(409);
    expect(none.json().error.code).toBe('STATION_CONFLICT');
    expect(none.json().error.message).toContain('lyrics');
    await setLyricsStatus('production');
    await vi.waitFor(
      async () => {
        if (['pending', 'in_progress'].includes((await poll(instrumental.json().generation_id)).json().status)) throw new Error('running');
      },
      { timeout: 120_000, interval: 200 },
    );
  }, 240_000);
});
