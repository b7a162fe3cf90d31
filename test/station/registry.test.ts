/**
 * Module G: the AI track registry. Records are made through RegistryService directly (fast, no audio
 * rendering); transparency.test.ts covers one record made by a real generation.
 */
import { createHash, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { generations, lyricGenerations, registryTracks, safetyFlags, stationPlays, type StoredGenerationRequest } from '../../src/infra/db/schema/index.js';
import type { MusicContext } from '../../src/engine/types.js';
import { ManualClock } from '../../src/infra/clock/clock.js';
import { STATION_EVENTS_CHANNEL } from '../../src/station/events/station-events.js';
import { newStationTrackId, type RegisterInput } from '../../src/station/registry/registry.service.js';
import { csvField, csvLine } from '../../src/station/registry/chain-audit.js';
import { recordHash } from '../../src/station/registry/hash-chain.js';
import { authHeaders, stationForSuite, signupListener, staffLogin, type TestStation } from '../helpers/station.js';

const SERVICE_KEY = 'svc_test_registry_key_0123456789abcdef';
const AUDIO_HASH = `sha256:${'a1'.repeat(32)}`;
const LYRICS_HASH = `sha256:${'b2'.repeat(32)}`;
const STYLE_HASH = `sha256:${'c3'.repeat(32)}`;

let counter = 0;
function recordInput(overrides: Partial<RegisterInput> = {}): RegisterInput {
  counter += 1;
  return {
    stationTrackId: newStationTrackId(),
    generationId: randomUUID(),
    sessionId: 'session-a',
    radioOnly: true,
    modelVersion: 'audio-v20260101.1-test',
    lyricsModelVersion: null,
    trainingDatasetHash: AUDIO_HASH,
    contextSnapshot: {
      context_id: 'ctx_test',
      genre: 'synthwave',
      mood: ['dreamy', 'nostalgic'],
      lifestyle: 'focus',
      tempo_range: [100, 120],
      energy_level: 0.6,
    },
    title: `Neon Harbor ${counter}`,
    genre: 'synthwave',
    mood: ['dreamy', 'nostalgic'],
    bpm: 112,
    durationSec: 150,
    audioBlobKey: `ai/test-${counter}.mp3`,
    audioSha256: createHash('sha256').update(`audio ${counter}`).digest('hex'),
    waveformBlobKey: null,
    coverBlobKey: null,
    lyricId: null,
    influencedBy: [{ track_id: randomUUID(), title: 'Harbor Lights', artist: 'The Tidewater', similarity: 0.412 }],
    safetyScore: 0.93,
    generatedAt: new Date(),
    ...overrides,
  };
}

/** Installs audio, lyrics and style model versions (deployed) so lineage has something to show. */
async function installModels(station: TestStation) {
  const repo = station.station.modelsRepo;
  const models = [
    { version: 'audio-v20260101.1-test', modelType: 'audio' as const, datasetHash: AUDIO_HASH, metrics: { final_loss: 0.42, epochs: 5, loss_curve: [1, 0.5] } },
    { version: 'lyrics-v20260101.1-test', modelType: 'lyrics' as const, datasetHash: LYRICS_HASH, metrics: { perplexity: 31.5 } },
    { version: 'style-v20260101.1-test', modelType: 'style_embedding' as const, datasetHash: STYLE_HASH, metrics: { precision_at_5: 0.8 } },
  ];
  for (const m of models) {
    const row = await repo.insert({
      ...m,
      artifactBlobKey: `models/${m.modelType}/${m.version}.json`,
      artifactSha256: '0'.repeat(64),
      lineage: { source: 'test', snapshot_id: null, job_id: null, base_model_id: null, dataset_hash: m.datasetHash, items: 12 },
    });
    await repo.deploy(row.id);
  }
}

/** A tiny RFC 4180 reader (quoted fields, doubled quotes, CRLF inside quotes). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += 1;
    } else field += c;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

describe('module G: registry', () => {
  const clock = new ManualClock(Date.UTC(2026, 0, 15, 12, 0, 0));
  let admin: Record<string, string>;
  let service: Record<string, string>;
  let listener: Record<string, string>;
  const events: { event: string; data: Record<string, unknown> }[] = [];

  const station = stationForSuite({ STATION_SERVICE_API_KEY: SERVICE_KEY }, { clock });
  beforeAll(async () => {
    admin = authHeaders(await staffLogin(station));
    const csrf = (await station.http.inject({ url: '/api/auth/csrf', headers: { 'x-api-key': SERVICE_KEY } })).json().csrf_token;
    service = { 'x-api-key': SERVICE_KEY, 'x-csrf-token': csrf };
    listener = authHeaders(await signupListener(station));
    await installModels(station);
    await station.bus.subscribe(STATION_EVENTS_CHANNEL, (m) => events.push(m as (typeof events)[number]));
  });

  const register = (input: Partial<RegisterInput> = {}) => station.station.registry.register(recordInput(input));
  const db = () => station.database.db;
  const get = (url: string, headers = admin) => station.http.inject({ url, headers });

  describe('POST /registry/tracks', () => {
    async function finishedGeneration(fields: Partial<typeof generations.$inferInsert> = {}) {
      const stationTrackId = newStationTrackId();
      const audioKey = `ai/${stationTrackId}.mp3`;
      await station.blobs.put(audioKey, Buffer.from(`mp3 bytes of ${stationTrackId}`));
      const [row] = await db()
        .insert(generations)
        .values({
          status: 'complete',
          // A partial row: the test reads only what it sets.
          request: { max_duration_sec: 30 } as StoredGenerationRequest,
          context: { genre: 'lofi', mood: ['calm'], lifestyle: 'chill', tempo_range: [70, 90] } as MusicContext,
          contextId: 'ctx_gen',
          seed: 42,
          quality: '128kbps',
          maxDurationSec: 30,
          sessionId: 'session-post',
          modelVersion: 'audio-v20260101.1-test',
          title: 'Quiet Window',
          bpm: 82,
          durationSec: 29.6,
          audioBlobKey: audioKey,
          stationTrackId,
          completedAt: new Date(),
          ...fields,
        })
        .returning();
      return row;
    }
    const post = (payload: unknown, headers = service) =>
      station.http.inject({ method: 'POST', url: '/station/v1/registry/tracks', headers, payload: payload as object });

    it('registers a finished generation once: 201, then 200 with the same record', async () => {
      const generation = await finishedGeneration();
      const first = await post({ generation_id: generation.id, safety_score: 0.91 });
      expect(first.statusCode).toBe(201);
      const body = first.json();
      expect(body.created).toBe(true);
      expect(body.station_track_id).toBe(generation.stationTrackId);
      expect(body.record).toMatchObject({
        generation_id: generation.id,
        track_type: 'ai_generated',
        session_id: 'session-post',
        radio_only: true,
        model_version: 'audio-v20260101.1-test',
        lyrics_model_version: null,
        training_dataset_hash: AUDIO_HASH,
        title: 'Quiet Window',
        genre: 'lofi',
        mood: ['calm'],
        bpm: 82,
        duration_sec: 30,
        safety_score: 0.91,
        playback_count: 0,
        first_played_at: null,
      });
      expect(body.record.context_snapshot).toMatchObject({ context_id: 'ctx_gen', genre: 'lofi' });
      expect(body.record.audio_sha256).toBe(createHash('sha256').update(`mp3 bytes of ${generation.stationTrackId}`).digest('hex'));

      const second = await post({ generation_id: generation.id, safety_score: 0.5, title: 'Something else' });
      expect(second.statusCode).toBe(200);
      expect(second.json()).toMatchObject({ station_track_id: body.station_track_id, created: false });
      expect(second.json().record).toEqual(body.record);
    });

    it('never creates a duplicate under concurrent calls', async () => {
      const generation = await finishedGeneration();
      const answers = await Promise.all(Array.from({ length: 6 }, () => post({ generation_id: generation.id, safety_score: 0.9 })));
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 200, 200, 200, 201]);
      expect(new Set(answers.map((a) => a.json().station_track_id)).size).toBe(1);
      const rows = await db().select().from(registryTracks).where(eq(registryTracks.generationId, generation.id));
      expect(rows).toHaveLength(1);
    });

    it('answers the record module E already registered', async () => {
      const record = await register();
      const answer = await post({ generation_id: record.generationId });
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toMatchObject({ station_track_id: record.stationTrackId, created: false });
    });

    it('takes the safety score from recorded safety flags, and needs one otherwise', async () => {
      const generation = await finishedGeneration({ status: 'failed', errorCode: 'STATION_SAFETY_BLOCK' });
      expect((await post({ generation_id: generation.id })).json().error.detail).toContain('safety_score');
      await db().insert(safetyFlags).values({ generationId: generation.id, stationTrackId: null, flagType: 'audio_duplicate', safetyScore: 0.5, detail: {} });
      const answer = await post({ generation_id: generation.id });
      expect(answer.statusCode).toBe(201);
      expect(answer.json().record.safety_score).toBe(0.5);
    });

    it('refuses unknown, unfinished and audio-less generations, and a body that contradicts the generation', async () => {
      const unknown = await post({ generation_id: randomUUID(), safety_score: 0.9 });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().error.code).toBe('STATION_NOT_FOUND');
      // ids are opaque: any string that names no generation is a 404, not a validation error
      expect((await post({ generation_id: 'not-a-uuid', safety_score: 0.9 })).json().error).toMatchObject({ code: 'STATION_NOT_FOUND', http_status: 404 });
      const running = await finishedGeneration({ status: 'in_progress', completedAt: null });
      expect((await post({ generation_id: running.id, safety_score: 0.9 })).statusCode).toBe(409);
      const pending = await finishedGeneration({ status: 'pending', completedAt: null });
      expect((await post({ generation_id: pending.id, safety_score: 0.9 })).json().error.code).toBe('STATION_CONFLICT');
      const noAudio = await finishedGeneration({ audioBlobKey: 'ai/missing-file.mp3' });
      const missing = await post({ generation_id: noAudio.id, safety_score: 0.9 });
      expect(missing.statusCode).toBe(409);
      expect(missing.json().error.detail).toContain('ai/missing-file.mp3');

      const generation = await finishedGeneration();
      for (const payload of [
        { generation_id: generation.id, safety_score: 0.9, model_version: 'audio-v9-other' },
        { generation_id: generation.id, safety_score: 0.9, training_dataset_hash: LYRICS_HASH },
        { generation_id: generation.id, safety_score: 0.9, session_id: 'another-session' },
        { generation_id: generation.id, safety_score: 0.9, lyrics_model_version: 'lyrics-v20260101.1-test' },
        { generation_id: generation.id, safety_score: 1.5 },
        { generation_id: generation.id, safety_score: 0.9, training_dataset_hash: 'md5:abc' },
        { generation_id: generation.id, safety_score: 0.9, station_track_id: 'stn_mine' },
        {},
      ]) {
        const answer = await post(payload);
        expect(answer.statusCode, JSON.stringify(payload)).toBe(400);
        expect(answer.json().error.code).toBe('STATION_VALIDATION_FAILED');
      }
      expect(await db().select().from(registryTracks).where(eq(registryTracks.generationId, generation.id))).toHaveLength(0);
    });

    it('needs station:generate, a credential and the CSRF token', async () => {
      const generation = await finishedGeneration();
      const asListener = await post({ generation_id: generation.id, safety_score: 0.9 }, listener);
      expect(asListener.statusCode).toBe(403);
      expect(asListener.json().error.code).toBe('STATION_INSUFFICIENT_SCOPE');
      const noCsrf = await post({ generation_id: generation.id, safety_score: 0.9 }, { 'x-api-key': SERVICE_KEY });
      expect(noCsrf.statusCode).toBe(403);
      expect(noCsrf.json().error.code).toBe('STATION_CSRF_INVALID');
      expect((await post({ generation_id: generation.id, safety_score: 0.9 }, {})).statusCode).toBe(401);
      // station:admin staff hold station:generate too
      expect((await post({ generation_id: generation.id, safety_score: 0.9 }, admin)).statusCode).toBe(201);
    });
  });

  describe('GET /registry/tracks', () => {
    const ids: Record<string, string> = {};
    beforeAll(async () => {
      ids.old = (await register({ sessionId: 'filter-s1', generatedAt: new Date('2025-03-01T10:00:00Z'), modelVersion: 'audio-vOLD' })).stationTrackId;
      ids.mid = (await register({ sessionId: 'filter-s1', generatedAt: new Date('2025-03-02T23:59:59.500Z') })).stationTrackId;
      ids.newer = (await register({ sessionId: 'filter-s2', generatedAt: new Date('2025-03-03T00:00:00Z') })).stationTrackId;
      ids.latest = (await register({ sessionId: 'filter-s2', generatedAt: new Date('2025-03-05T08:30:00Z') })).stationTrackId;
      await station.station.registryModule.admin.update(ids.mid, { reuse_eligible: true }, { userId: null, credentialId: null });
      await station.station.registryModule.admin.update(ids.latest, { flag_for_review: true }, { userId: null, credentialId: null });
    });
    const list = async (query: string) => {
      const response = await get(`/station/v1/registry/tracks?${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json();
    };
    const idsOf = (body: { data: { station_track_id: string }[] }) => body.data.map((r) => r.station_track_id);

    it('lists newest first, paginated', async () => {
      const all = await list('session_id=filter-s1&limit=100');
      expect(idsOf(all)).toEqual([ids.mid, ids.old]);
      const everything = await list('limit=100');
      const times = everything.data.map((r: { generated_at: string }) => r.generated_at);
      expect([...times].sort().reverse()).toEqual(times);
      const page1 = await list('date_from=2025-03-01&date_to=2025-03-31&limit=3&page=1');
      const page2 = await list('date_from=2025-03-01&date_to=2025-03-31&limit=3&page=2');
      expect(page1).toMatchObject({ total: 4, page: 1, limit: 3 });
      expect(idsOf(page1)).toEqual([ids.latest, ids.newer, ids.mid]);
      expect(idsOf(page2)).toEqual([ids.old]);
      expect((await list('')).limit).toBe(20);
      expect(page1.data[0]).toMatchObject({
        track_type: 'ai_generated',
        radio_only: true,
        seq: expect.any(Number),
        record_hash: expect.stringMatching(/^sha256:/),
      });
    });

    it('filters on session, dates, model version, reuse and review flags', async () => {
      expect(idsOf(await list('session_id=filter-s2'))).toEqual([ids.latest, ids.newer]);
      // a date-only date_to covers its whole day; date_from is inclusive
      expect(idsOf(await list('date_from=2025-03-02&date_to=2025-03-02'))).toEqual([ids.mid]);
      expect(idsOf(await list('date_from=2025-03-02T23:59:59.500Z&date_to=2025-03-03T00:00:00Z'))).toEqual([ids.newer, ids.mid]);
      expect(idsOf(await list('date_from=2025-03-03T00:00:00.001Z&date_to=2025-04-01'))).toEqual([ids.latest]);
      expect(idsOf(await list('date_to=2025-03-01'))).toEqual([ids.old]);
      expect(idsOf(await list('model_version=audio-vOLD'))).toEqual([ids.old]);
      expect(idsOf(await list('reuse_eligible=true'))).toEqual([ids.mid]);
      expect(idsOf(await list('session_id=filter-s1&reuse_eligible=false'))).toEqual([ids.old]);
      expect(idsOf(await list('flag_for_review=true'))).toEqual([ids.latest]);
      expect(idsOf(await list('session_id=filter-s2&flag_for_review=false'))).toEqual([ids.newer]);
      expect((await list('session_id=nobody')).total).toBe(0);
    });

    it('refuses bad queries and non-admins', async () => {
      for (const query of [
        'date_from=yesterday',
        'date_from=2025-02-30',
        'date_from=2025-03-05&date_to=2025-03-01',
        'limit=101',
        'page=0',
        'reuse_eligible=maybe',
        'color=red',
      ]) {
        const response = await get(`/station/v1/registry/tracks?${query}`);
        expect(response.statusCode, query).toBe(400);
        expect(response.json().error.code).toBe('STATION_VALIDATION_FAILED');
      }
      expect((await get('/station/v1/registry/tracks', service)).json().error.code).toBe('STATION_INSUFFICIENT_SCOPE');
      expect((await get('/station/v1/registry/tracks', listener)).statusCode).toBe(403);
      expect((await get('/station/v1/registry/tracks', {})).statusCode).toBe(401);
    });
  });

  describe('GET /registry/tracks/{id}', () => {
    it('gives the full record with attribution, lineage and safety flags', async () => {
      const generationId = randomUUID();
      const [lyric] = await db()
        .insert(lyricGenerations)
        .values({
          request: {},
          theme: 'city nights',
          language: 'en',
          mood: ['dreamy'],
          structure: { verse_1: 'la la', chorus: 'oh oh' },
          modelVersion: 'lyrics-v20260101.1-test',
          seed: 1,
          generationId,
          safetyScore: 0.97,
          explicitDetected: false,
          safety: {},
        })
        .returning();
      const record = await register({ generationId, lyricId: lyric.id, lyricsModelVersion: 'lyrics-v20260101.1-test' });
      await db()
        .insert(safetyFlags)
        .values({
          stationTrackId: record.stationTrackId,
          generationId,
          flagType: 'explicit_lyrics',
          safetyScore: 0.4,
          detail: { lyrics: ['explicit_language'] },
        });

      const response = await get(`/station/v1/registry/tracks/${record.stationTrackId}`);
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body).toMatchObject({
        station_track_id: record.stationTrackId,
        generation_id: generationId,
        playback_count: 0,
        safety_score: 0.93,
        lyrics_model_version: 'lyrics-v20260101.1-test',
        record_hash: record.recordHash,
      });
      expect(body.attribution).toMatchObject({ track_origin: 'ai_generated', artist: 'Station', radio_only: true, influenced_by: record.influencedBy });
      expect(body.attribution.lyrics).toMatchObject({
        lyric_id: lyric.id,
        model_version: 'lyrics-v20260101.1-test',
        safety_score: 0.97,
        explicit_detected: false,
      });
      expect(body.attribution.lyrics.source).toMatch(/platform's own songwriters/);
      expect(body.model_lineage.map((m: { role: string }) => m.role)).toEqual(['audio', 'lyrics', 'style_embedding']);
      const audio = body.model_lineage[0];
      expect(audio).toMatchObject({
        version: 'audio-v20260101.1-test',
        dataset_hash: AUDIO_HASH,
        status: 'production',
        inferred: false,
        metrics_summary: { final_loss: 0.42, epochs: 5 },
      });
      expect(audio.metrics_summary.loss_curve).toBeUndefined();
      expect(audio.lineage).toMatchObject({ items: 12, dataset_hash: AUDIO_HASH });
      expect(audio.deployed_at).toEqual(expect.any(String));
      expect(body.model_lineage[2]).toMatchObject({ version: 'style-v20260101.1-test', inferred: true });
      expect(body.safety_flags).toEqual([expect.objectContaining({ flag_type: 'explicit_lyrics', safety_score: 0.4 })]);
    });

    it('answers 404 STATION_TRACK_NOT_FOUND for an unknown id, 403 for non-admins', async () => {
      const response = await get('/station/v1/registry/tracks/stn_doesnotexist');
      expect(response.statusCode).toBe(404);
      expect(response.json().error).toMatchObject({ code: 'STATION_TRACK_NOT_FOUND', http_status: 404 });
      const record = await register();
      expect((await get(`/station/v1/registry/tracks/${record.stationTrackId}`, service)).statusCode).toBe(403);
    });
  });

  describe('PATCH /registry/tracks/{id}', () => {
    const patch = (id: string, payload: unknown, headers = admin) =>
      station.http.inject({ method: 'PATCH', url: `/station/v1/registry/tracks/${id}`, headers, payload: payload as object });

    it('sets reuse_eligible and flag_for_review; flagging queues a safety review and emits flag_raised once', async () => {
      const record = await register();
      const reuse = await patch(record.stationTrackId, { reuse_eligible: true });
      expect(reuse.statusCode).toBe(200);
      expect(reuse.json()).toMatchObject({ reuse_eligible: true, flag_for_review: false, record_hash: record.recordHash });

      const flagged = await patch(record.stationTrackId, { flag_for_review: true, reuse_eligible: false });
      expect(flagged.json()).toMatchObject({ reuse_eligible: false, flag_for_review: true, withheld: true, withheld_reason: 'admin_flag' });
      expect(await station.station.registry.isWithheld(record.stationTrackId)).toBe(true);
      const queue = await db().select().from(safetyFlags).where(eq(safetyFlags.stationTrackId, record.stationTrackId));
      expect(queue).toHaveLength(1);
      expect(queue[0]).toMatchObject({ flagType: 'manual_review', generationId: record.generationId, safetyScore: expect.closeTo(0.93, 5) });
      expect(queue[0].createdBy).toEqual(expect.any(String));
      await expect
        .poll(() => events.filter((e) => e.event === 'station.safety.flag_raised' && e.data.station_track_id === record.stationTrackId))
        .toHaveLength(1);
      expect(events.find((e) => e.data.station_track_id === record.stationTrackId)?.data).toMatchObject({ flag_type: 'manual_review' });

      // already flagged: no second queue entry
      expect((await patch(record.stationTrackId, { flag_for_review: true })).statusCode).toBe(200);
      expect(await db().select().from(safetyFlags).where(eq(safetyFlags.stationTrackId, record.stationTrackId))).toHaveLength(1);
      expect((await patch(record.stationTrackId, { flag_for_review: false })).json()).toMatchObject({
        flag_for_review: false,
        withheld: false,
        withheld_reason: null,
      });
      expect(await station.station.registry.isWithheld(record.stationTrackId)).toBe(false);
      const verify = await get('/station/v1/registry/chain/verify');
      expect(verify.json().valid).toBe(true);
    });

    it('refuses any other field, an empty body, unknown ids and non-admins, changing nothing', async () => {
      const record = await register();
      for (const payload of [{ title: 'Renamed' }, { reuse_eligible: true, title: 'Renamed' }, { playback_count: 99 }, { reuse_eligible: 'yes' }, {}, []]) {
        const response = await patch(record.stationTrackId, payload);
        expect(response.statusCode, JSON.stringify(payload)).toBe(400);
        expect(response.json().error.code).toBe('STATION_VALIDATION_FAILED');
      }
      const noBody = await station.http.inject({ method: 'PATCH', url: `/station/v1/registry/tracks/${record.stationTrackId}`, headers: admin });
      expect(noBody.statusCode).toBe(400);
      const [after] = await db().select().from(registryTracks).where(eq(registryTracks.stationTrackId, record.stationTrackId));
      expect(after).toEqual(record);

      const unknown = await patch('stn_nope', { reuse_eligible: true });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().error.code).toBe('STATION_TRACK_NOT_FOUND');
      expect((await patch(record.stationTrackId, { reuse_eligible: true }, service)).statusCode).toBe(403);
      const noCsrf = await patch(record.stationTrackId, { reuse_eligible: true }, { authorization: admin.authorization });
      expect(noCsrf.json().error.code).toBe('STATION_CSRF_INVALID');
    });
  });

  describe('POST /registry/tracks/{id}/playback', () => {
    const play = (id: string, payload?: unknown, headers = service) =>
      station.http.inject({
        method: 'POST',
        url: `/station/v1/registry/tracks/${id}/playback`,
        headers,
        ...(payload === undefined ? {} : { payload: payload as object }),
      });

    it('counts plays and keeps the first play time', async () => {
      const record = await register();
      const first = await play(record.stationTrackId);
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json()).toMatchObject({ station_track_id: record.stationTrackId, playback_count: 1 });
      const firstPlayedAt = first.json().first_played_at;
      expect(firstPlayedAt).toBe(clock.date().toISOString());
      // The same caller again within the track's length (150 s) counts nothing: the count as it stands.
      clock.advance(60_000);
      const repeats = await Promise.all([1, 2, 3].map(() => play(record.stationTrackId, { listener_count: 40, session_id: 'session-a' })));
      for (const repeat of repeats) expect(repeat.json()).toMatchObject({ playback_count: 1, first_played_at: firstPlayedAt });
      clock.advance(90_000);
      const second = await play(record.stationTrackId, { listener_count: 40, session_id: 'session-a' });
      expect(second.json()).toMatchObject({ playback_count: 2, first_played_at: firstPlayedAt });
      const plays = await db().select().from(stationPlays).where(eq(stationPlays.stationTrackId, record.stationTrackId));
      expect(plays).toHaveLength(1);
      expect(plays[0]).toMatchObject({ origin: 'ai_generated', listenerCount: 40, durationSec: 150, sessionId: 'session-a' });
      const detail = (await get(`/station/v1/registry/tracks/${record.stationTrackId}`)).json();
      expect(detail).toMatchObject({ playback_count: 2, first_played_at: firstPlayedAt });
    });

    it('answers 404 for unknown tracks and refuses callers without station:generate or CSRF', async () => {
      const unknown = await play('stn_unknown');
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().error.code).toBe('STATION_TRACK_NOT_FOUND');
      const record = await register();
      expect((await play(record.stationTrackId, undefined, listener)).statusCode).toBe(403);
      expect((await play(record.stationTrackId, undefined, { 'x-api-key': SERVICE_KEY })).json().error.code).toBe('STATION_CSRF_INVALID');
      expect((await play(record.stationTrackId, { listener_count: -1 })).statusCode).toBe(400);
      expect((await play(record.stationTrackId, { extra: 1 })).statusCode).toBe(400);
    });
  });

  describe('GET /registry/sessions', () => {
    it('aggregates tracks, plays, listener hours and generation success per session', async () => {
      const at = (s: string) => new Date(`2025-06-01T${s}Z`);
      const a1 = await register({ sessionId: 'agg-1', generatedAt: at('10:00:00') });
      await register({ sessionId: 'agg-1', generatedAt: at('10:05:00') });
      await register({ sessionId: 'agg-2', generatedAt: at('09:00:00') });
      await station.station.registry.countPlayback(a1.stationTrackId);
      await station.station.registry.countPlayback(a1.stationTrackId);
      const plays = station.station.registryModule.plays;
      await plays.recordPlay({
        origin: 'ai_generated',
        stationTrackId: a1.stationTrackId,
        sessionId: 'agg-1',
        startedAt: at('10:10:00'),
        durationSec: 1800,
        listenerCount: 4,
      });
      await plays.recordPlay({ origin: 'catalog', trackId: randomUUID(), sessionId: 'agg-1', startedAt: at('10:40:00'), durationSec: 900, listenerCount: 8 });
      const generation = (status: 'complete' | 'failed' | 'pending', sessionId: string) => ({
        status,
        // A partial row: only its status and session are read.
        request: {} as StoredGenerationRequest,
        context: {} as MusicContext,
        seed: 1,
        quality: '128kbps',
        maxDurationSec: 30,
        sessionId,
        modelVersion: 'audio-v20260101.1-test',
        createdAt: at('09:30:00'),
      });
      await db()
        .insert(generations)
        .values([
          generation('complete', 'agg-1'),
          generation('complete', 'agg-1'),
          generation('complete', 'agg-1'),
          generation('failed', 'agg-1'),
          generation('pending', 'agg-1'),
          generation('pending', 'agg-3'),
        ]);

      const response = await get('/station/v1/registry/sessions?limit=100');
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json();
      const byId = new Map(body.data.map((s: { session_id: string }) => [s.session_id, s]));
      expect(byId.get('agg-1')).toEqual({
        session_id: 'agg-1',
        tracks_generated: 2,
        tracks_played: 1,
        total_plays: 2,
        ai_plays: 1,
        listener_hours: 4, // (1800 s x 4 + 900 s x 8) / 3600
        generation_success_rate: 0.75,
        generations_complete: 3,
        generations_failed: 1,
        first_activity_at: '2025-06-01T09:30:00.000Z',
        last_activity_at: '2025-06-01T10:55:00.000Z',
      });
      expect(byId.get('agg-2')).toMatchObject({ tracks_generated: 1, tracks_played: 0, total_plays: 0, listener_hours: 0, generation_success_rate: null });
      expect(byId.get('agg-3')).toMatchObject({ tracks_generated: 0, generation_success_rate: null });
      expect(body.total).toBe(body.data.length);

      const page = (await get('/station/v1/registry/sessions?limit=1&page=2')).json();
      expect(page).toMatchObject({ page: 2, limit: 1, total: body.total });
      expect(page.data[0].session_id).toBe(body.data[1].session_id);
      expect((await get('/station/v1/registry/sessions', service)).statusCode).toBe(403);
      expect((await get('/station/v1/registry/sessions?limit=0')).statusCode).toBe(400);
    });
  });

  describe('append-only enforcement in the database', () => {
    const run = (query: string) => db().execute(sql.raw(query));

    it(`refuses UPDATE of recorded fields, DELETE and TRUNCATE; allows the four mutable columns`, async () => {
      const record = await register();
      const where = `where station_track_id = '${record.stationTrackId}'`;
      for (const statement of [
        `update registry_tracks set title = 'Forged' ${where}`,
        `update registry_tracks set safety_score = 1 ${where}`,
        `update registry_tracks set record_hash = 'sha256:${'f'.repeat(64)}' ${where}`,
        `update registry_tracks set reuse_eligible = true, model_version = 'audio-vX' ${where}`,
        `delete from registry_tracks ${where}`,
        'delete from registry_tracks',
        'truncate registry_tracks cascade',
      ]) {
        const error = await run(statement).then(
          () => null,
          (e: Error & { cause?: Error }) => e,
        );
        expect(error, statement).not.toBeNull();
        expect(`${error!.message} ${error!.cause?.message ?? ''}`, statement).toMatch(/append-only/);
      }
      await run(`update registry_tracks set reuse_eligible = true, flag_for_review = true, playback_count = 7, first_played_at = now() ${where}`);
      const [after] = await db().select().from(registryTracks).where(eq(registryTracks.stationTrackId, record.stationTrackId));
      expect(after).toMatchObject({ title: record.title, reuseEligible: true, flagForReview: true, playbackCount: 7, recordHash: record.recordHash });
      expect(after.firstPlayedAt).toBeInstanceOf(Date);
      expect(station.database.driver).toBe(process.env.DATABASE_URL ? 'postgres' : 'pglite');
    });
  });

  it('neutralises formula-like cells in the CSV export only; JSON and NDJSON stay exact', async () => {
    const titles = ['=HYPERLINK("http://evil.example","x")', '+1+1', '-2+3', '@SUM(A1)', '\tTabbed', '\rReturn', 'Plain -title', "'Quoted"];
    const records = [];
    for (const title of titles) records.push(await register({ title }));
    const ids = new Set(records.map((r) => r.stationTrackId));

    const csv = parseCsv((await get('/station/v1/registry/audit-export?format=csv')).body);
    const header = csv[0];
    const byId = new Map(csv.filter((row) => ids.has(row[header.indexOf('station_track_id')])).map((row) => [row[header.indexOf('station_track_id')], row]));
    const csvTitles = records.map((r) => byId.get(r.stationTrackId)![header.indexOf('title')]);
    expect(csvTitles).toEqual([`'${titles[0]}`, "'+1+1", "'-2+3", "'@SUM(A1)", "'\tTabbed", "'\rReturn", 'Plain -title', "'Quoted"]);
    expect(csvField('=1')).toBe("'=1");
    expect(csvField('-5')).toBe("'-5");
    expect(csvField('a=1')).toBe('a=1');
    expect(csvField('=a,b')).toBe('"\'=a,b"');

    const json = JSON.parse((await get('/station/v1/registry/audit-export')).body);
    expect(records.map((r) => json.records.find((x: { station_track_id: string }) => x.station_track_id === r.stationTrackId).title)).toEqual(titles);
    const ndjson = (await get('/station/v1/registry/audit-export?format=ndjson')).body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(records.map((r) => ndjson.find((x) => x.station_track_id === r.stationTrackId).title)).toEqual(titles);
  });

  it('documents the registry endpoints in OpenAPI', async () => {
    const doc = (await station.http.inject({ url: '/openapi.json' })).json();
    for (const path of [
      '/station/v1/registry/tracks',
      '/station/v1/registry/tracks/{station_track_id}',
      '/station/v1/registry/sessions',
      '/station/v1/registry/audit-export',
      '/station/v1/registry/chain/verify',
    ]) {
      expect(doc.paths[path], path).toBeDefined();
    }
    expect(doc.paths['/station/v1/registry/tracks'].post.tags).toEqual(['station-registry']);
  });
});

describe('module G: audit trail (chain head, verification, export)', () => {
  let admin: Record<string, string>;
  // Three pages of the chain walk (CHAIN_PAGE_SIZE, 500 records), the record the tamper test alters (Track 1234)
  // on the last. Registering them one by one is most of this file's CPU time (11 s for 2,000 on PGlite).
  const TOTAL = 1_250;
  const tricky = 'Rain, "Neon"\r\nHarbor; 100%';

  const station = stationForSuite();
  beforeAll(async () => {
    admin = authHeaders(await staffLogin(station));
    const start = Date.parse('2025-01-01T00:00:00Z');
    for (let i = 0; i < TOTAL; i++) {
      // one record per hour; the 11th carries a title that needs CSV quoting
      await station.station.registry.register(recordInput({ generatedAt: new Date(start + i * 3_600_000), title: i === 10 ? tricky : `Track ${i}` }));
    }
  }, 300_000);

  const get = (url: string) => station.http.inject({ url, headers: admin });

  it('reports the chain head', async () => {
    const head = (await get('/station/v1/registry/chain/head')).json();
    const last = await station.database.db.select().from(registryTracks).where(eq(registryTracks.seq, head.seq));
    expect(head).toMatchObject({ count: TOTAL, record_hash: last[0].recordHash, computed_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) });
  });

  it('exports the whole log as CSV with a header row and RFC 4180 quoting', async () => {
    const response = await get('/station/v1/registry/audit-export?format=csv');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="station-registry-audit-.+\.csv"$/);
    const rows = parseCsv(response.body);
    expect(rows).toHaveLength(TOTAL + 2);
    const header = rows[0];
    expect(header.slice(0, 3)).toEqual(['seq', 'station_track_id', 'generation_id']);
    expect(rows.every((r) => r.length === header.length)).toBe(true);
    const title = header.indexOf('title');
    expect(rows[11][title]).toBe(tricky);
    expect(csvLine([tricky, null, 3, true, ['a']])).toBe('"Rain, ""Neon""\r\nHarbor; 100%",,3,true,"[""a""]"\r\n');
    const records = rows.slice(1, -1);
    const seqs = records.map((r) => Number(r[0]));
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
    expect(JSON.parse(rows[1][header.indexOf('context_snapshot')])).toMatchObject({ genre: 'synthwave' });
    // the trailer row carries the head the export was cut at: the last record's hash
    const trailer = rows[rows.length - 1];
    expect(trailer.slice(0, 4)).toEqual([
      '#chain_head',
      String(seqs[seqs.length - 1]),
      records[records.length - 1][header.indexOf('record_hash')],
      String(TOTAL),
    ]);
    expect(new Date(trailer[4]).toISOString()).toBe(trailer[4]);
    expect(trailer.slice(5).every((cell) => cell === '')).toBe(true);
    expect(response.headers['x-registry-head-seq']).toBe(String(seqs[seqs.length - 1]));
    expect(response.headers['x-registry-head-hash']).toBe(trailer[2]);
    expect(response.headers['x-registry-head-computed-at']).toBe(trailer[4]);
  });

  it('exports JSON (the default: the head, then the records) and NDJSON (the records, then the head)', async () => {
    const json = await get('/station/v1/registry/audit-export');
    expect(json.headers['content-type']).toMatch(/^application\/json/);
    expect(json.headers['content-disposition']).toMatch(/\.json"$/);
    const body = JSON.parse(json.body);
    expect(Object.keys(body)).toEqual(['chain_head', 'records']);
    const records = body.records;
    expect(records).toHaveLength(TOTAL);
    expect(records[10].title).toBe(tricky);
    expect(records[0]).toMatchObject({ track_type: 'ai_generated', prev_hash: `sha256:${'0'.repeat(64)}` });
    expect(records[1].prev_hash).toBe(records[0].record_hash);
    expect(body.chain_head).toEqual({
      seq: records[TOTAL - 1].seq,
      record_hash: records[TOTAL - 1].record_hash,
      count: TOTAL,
      computed_at: json.headers['x-registry-head-computed-at'],
    });

    const ndjson = await get('/station/v1/registry/audit-export?format=ndjson');
    const lines = ndjson.body.trim().split('\n');
    expect(lines).toHaveLength(TOTAL + 1);
    expect(JSON.parse(lines[TOTAL - 1]).record_hash).toBe(records[TOTAL - 1].record_hash);
    expect(JSON.parse(lines[TOTAL])).toEqual({ chain_head: { ...body.chain_head, computed_at: expect.any(String) } });
  });

  it('exports a generated_at range', async () => {
    // 2025-01-02 is hours 24..47
    const day = JSON.parse((await get('/station/v1/registry/audit-export?date_from=2025-01-02&date_to=2025-01-02')).body);
    expect(day.records).toHaveLength(24);
    expect(day.records[0].generated_at).toBe('2025-01-02T00:00:00.000Z');
    // the head is the whole chain's, whatever the range
    expect(day.chain_head.count).toBeGreaterThanOrEqual(TOTAL);
    const csv = parseCsv((await get('/station/v1/registry/audit-export?format=csv&date_from=2025-01-02T12:00:00Z&date_to=2025-01-02T13:00:00Z')).body);
    expect(csv).toHaveLength(4);
    expect(csv[3][0]).toBe('#chain_head');
    const empty = await get('/station/v1/registry/audit-export?date_from=2030-01-01');
    expect(JSON.parse(empty.body).records).toEqual([]);
    expect((await get('/station/v1/registry/audit-export?format=xml')).statusCode).toBe(400);
    expect((await station.http.inject({ url: '/station/v1/registry/audit-export' })).statusCode).toBe(401);
  });

  it("verifies the chain, then detects a record altered behind the database's back", async () => {
    const ok = (await get('/station/v1/registry/chain/verify')).json();
    expect(ok).toMatchObject({ valid: true, checked: TOTAL, first_invalid: null });
    const db = station.database.db;
    const [target] = await db.select().from(registryTracks).where(eq(registryTracks.title, 'Track 1234'));
    await db.execute(sql.raw('ALTER TABLE registry_tracks DISABLE TRIGGER registry_tracks_append_only'));
    await db.execute(sql.raw(`UPDATE registry_tracks SET title = 'x' WHERE seq = ${target.seq}`));
    await db.execute(sql.raw('ALTER TABLE registry_tracks ENABLE TRIGGER registry_tracks_append_only'));
    const tampered = (await get('/station/v1/registry/chain/verify')).json();
    expect(tampered).toMatchObject({
      valid: false,
      first_invalid: { seq: target.seq, station_track_id: target.stationTrackId, reason: 'record_hash_mismatch' },
    });
    expect(tampered.checked).toBe(1235);
  });

  it('detects a record removed from the chain', async () => {
    const db = station.database.db;
    const [victim] = await db.select().from(registryTracks).where(eq(registryTracks.title, 'Track 100'));
    const [next] = await db.select().from(registryTracks).where(eq(registryTracks.title, 'Track 101'));
    await db.execute(sql.raw('ALTER TABLE registry_tracks DISABLE TRIGGER registry_tracks_append_only'));
    await db.execute(sql.raw(`DELETE FROM registry_tracks WHERE seq = ${victim.seq}`));
    await db.execute(sql.raw('ALTER TABLE registry_tracks ENABLE TRIGGER registry_tracks_append_only'));
    const result = (await get('/station/v1/registry/chain/verify')).json();
    expect(result.first_invalid).toMatchObject({ seq: next.seq, reason: 'prev_hash_mismatch' });
  });
});

describe('module G: the published chain head', () => {
  let admin: Record<string, string>;
  let listener: Record<string, string>;

  const station = stationForSuite();
  beforeAll(async () => {
    admin = authHeaders(await staffLogin(station));
    listener = authHeaders(await signupListener(station));
    for (let i = 0; i < 6; i++) await station.station.registry.register(recordInput({ title: `Anchor ${i}` }));
  });

  const get = (url: string, headers = admin) => station.http.inject({ url, headers });

  it('cuts an export at the head it read first: records appended while it streams are left out', async () => {
    const audit = station.station.registryModule.audit;
    const { head, chunks } = await audit.export('ndjson');
    const appended = await station.station.registry.register(recordInput({ generatedAt: new Date('2025-06-01T00:00:00Z') }));
    let text = '';
    for await (const chunk of chunks) text += chunk;
    const lines = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const records = lines.slice(0, -1);
    expect(records.map((r) => r.station_track_id)).not.toContain(appended.stationTrackId);
    expect(records[records.length - 1]).toMatchObject({ seq: head.seq, record_hash: head.record_hash });
    expect(lines[lines.length - 1].chain_head).toEqual(head);
    expect(appended.seq).toBeGreaterThan(head.seq!);
  });

  it('lets anyone holding a published head detect a rewrite that re-hashed the whole chain after it', async () => {
    // An outsider (a listener) keeps the head the station publishes.
    const statement = (await get('/station/v1/transparency/station', listener)).json();
    const held = statement.registry_chain_head;
    expect(held).toMatchObject({ seq: expect.any(Number), record_hash: expect.stringMatching(/^sha256:/), computed_at: expect.any(String) });
    const anchor = `anchor_seq=${held.seq}&anchor_hash=${encodeURIComponent(held.record_hash)}`;
    expect((await get(`/station/v1/registry/chain/verify?${anchor}`)).json()).toMatchObject({ valid: true, anchor: { seq: held.seq, matches: true } });

    // Someone with the owner's rights rewrites a record and recomputes every hash after it, so each link holds.
    const db = station.database.db;
    const rows = await db.select().from(registryTracks).orderBy(registryTracks.seq);
    const from = rows.findIndex((r) => r.title === 'Anchor 2');
    await db.execute(sql.raw('ALTER TABLE registry_tracks DISABLE TRIGGER registry_tracks_append_only'));
    let prev = rows[from - 1].recordHash;
    for (const row of rows.slice(from)) {
      const rewritten = { ...row, title: row.title === 'Anchor 2' ? 'Anchor 2 (rewritten)' : row.title, prevHash: prev };
      const hash = recordHash(rewritten);
      await db.execute(sql`UPDATE registry_tracks SET title = ${rewritten.title}, prev_hash = ${prev}, record_hash = ${hash} WHERE seq = ${row.seq}`);
      prev = hash;
    }
    await db.execute(sql.raw('ALTER TABLE registry_tracks ENABLE TRIGGER registry_tracks_append_only'));

    // The chain is consistent in itself...
    expect((await get('/station/v1/registry/chain/verify')).json()).toMatchObject({ valid: true, first_invalid: null });
    // ...but not with the head held outside.
    const checked = (await get(`/station/v1/registry/chain/verify?${anchor}`)).json();
    expect(checked).toMatchObject({ valid: false, anchor: { seq: held.seq, matches: false }, first_invalid: { seq: held.seq, reason: 'anchor_mismatch' } });
    expect((await get('/station/v1/transparency/station', listener)).json().registry_chain_head.record_hash).not.toBe(held.record_hash);
    // A recomputation over a fresh export reaches a different hash at the held seq.
    const exported = JSON.parse((await get('/station/v1/registry/audit-export')).body);
    const atHeld = exported.records.find((r: { seq: number }) => r.seq === held.seq);
    expect(atHeld.record_hash).not.toBe(held.record_hash);
    expect(exported.chain_head.seq).toBe(held.seq);
  });

  it('refuses half an anchor, and names a missing anchor record', async () => {
    expect((await get('/station/v1/registry/chain/verify?anchor_seq=1')).statusCode).toBe(400);
    expect((await get('/station/v1/registry/chain/verify?anchor_hash=x')).statusCode).toBe(400);
    const far = (await get(`/station/v1/registry/chain/verify?anchor_seq=999999&anchor_hash=sha256:${'0'.repeat(64)}`)).json();
    expect(far).toMatchObject({ valid: false, first_invalid: { seq: 999999, station_track_id: null, reason: 'anchor_mismatch' } });
  });
});
