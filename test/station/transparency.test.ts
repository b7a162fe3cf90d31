/**
 * Module I: the transparency records. Most records are made through RegistryService directly; the last
 * suite follows one real generation (trained models, rendered audio) end to end.
 */
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { seedDemoCatalog } from '../../src/demo/seed-catalog.js';
import { TRAINED_ALGORITHMIC_MEDIA, id3TagLength } from '../../src/engine/audio/id3.js';
import { artists, lyricGenerations, safetyFlags, songwriters, tracks } from '../../src/infra/db/schema/index.js';
import { publishDataset } from '../../src/station/dataset/training-data.js';
import { newStationTrackId, type RegisterInput } from '../../src/station/registry/registry.service.js';
import { authHeaders, buildTestStation, signupListener, staffLogin, type TestStation } from '../helpers/station.js';
import { SERVICE_KEY, buildTrainedStation } from '../helpers/trained-station.js';

describe('module I: transparency', () => {
  let station: TestStation;
  let reader: Record<string, string>;
  let admin: Record<string, string>;
  let service: Record<string, string>;
  let audioHash: string;
  let thirdPartyHash: string;
  let lyricsHash: string;
  let catalogTrackId: string;
  let datasetSize: number;

  beforeAll(async () => {
    station = await buildTestStation({ STATION_SERVICE_API_KEY: SERVICE_KEY });
    reader = authHeaders(await signupListener(station));
    admin = authHeaders(await staffLogin(station));
    const csrf = (await station.http.inject({ url: '/api/auth/csrf', headers: { 'x-api-key': SERVICE_KEY } })).json().csrf_token;
    service = { 'x-api-key': SERVICE_KEY, 'x-csrf-token': csrf };
    const db = station.database.db;
    await seedDemoCatalog(db);

    const catalog = await db.select({ id: tracks.id, genre: tracks.genre, mood: tracks.mood }).from(tracks).limit(8);
    catalogTrackId = catalog[0].id;
    datasetSize = catalog.length;
    audioHash = (
      await publishDataset(
        station.blobs,
        'audio',
        catalog.map((t) => ({ ...t, features: {} })),
      )
    ).datasetHash;

    // A dataset that (wrongly) contains a master by an artist the platform does not own.
    const [outsider] = await db.insert(artists).values({ slug: 'outside-band', name: 'Outside Band', genre: 'rock', platformOwned: false }).returning();
    const [foreign] = await db
      .insert(tracks)
      .values({ slug: 'outside-song', title: 'Outside Song', artistId: outsider.id, genre: 'rock', durationSec: 200 })
      .returning();
    thirdPartyHash = (
      await publishDataset(
        station.blobs,
        'audio',
        [...catalog, foreign].map((t) => ({ id: t.id, genre: t.genre, mood: t.mood, features: {} })),
      )
    ).datasetHash;

    const writers = await db
      .select({ songwriter: songwriters.slug, artist: artists.slug })
      .from(songwriters)
      .innerJoin(artists, eq(artists.id, songwriters.artistId))
      .limit(3);
    lyricsHash = (
      await publishDataset(
        station.blobs,
        'lyrics',
        writers.map((w, i) => ({ id: `lyric-${i}`, songwriterId: w.songwriter, artistId: w.artist })),
      )
    ).datasetHash;

    const models = [
      { version: 'audio-v1-t', modelType: 'audio' as const, datasetHash: audioHash },
      { version: 'audio-v1-3p', modelType: 'audio' as const, datasetHash: thirdPartyHash },
      { version: 'audio-v1-elsewhere', modelType: 'audio' as const, datasetHash: `sha256:${'9'.repeat(64)}` },
      { version: 'lyrics-v1-t', modelType: 'lyrics' as const, datasetHash: lyricsHash },
    ];
    for (const m of models) {
      const row = await station.station.modelsRepo.insert({
        ...m,
        artifactBlobKey: `models/${m.modelType}/${m.version}.json`,
        artifactSha256: '0'.repeat(64),
        metrics: {},
        lineage: { source: 'test', items: 42 },
      });
      if (m.version !== 'audio-v1-3p' && m.version !== 'audio-v1-elsewhere') await station.station.modelsRepo.deploy(row.id);
    }
  });
  afterAll(() => station?.destroy());

  function register(overrides: Partial<RegisterInput> = {}) {
    return station.station.registry.register({
      stationTrackId: newStationTrackId(),
      generationId: randomUUID(),
      sessionId: 'session-t',
      radioOnly: true,
      modelVersion: 'audio-v1-t',
      lyricsModelVersion: null,
      trainingDatasetHash: audioHash,
      contextSnapshot: { context_id: 'ctx_t', genre: 'lofi', subgenre: 'jazzhop', mood: ['calm', 'warm'], lifestyle: 'chill', tempo_range: [70, 90] },
      title: 'Slow Tide',
      genre: 'lofi',
      mood: ['calm', 'warm'],
      bpm: 78,
      durationSec: 140,
      audioBlobKey: 'ai/slow-tide.mp3',
      audioSha256: createHash('sha256').update('slow tide').digest('hex'),
      waveformBlobKey: null,
      coverBlobKey: null,
      lyricId: null,
      influencedBy: [{ track_id: catalogTrackId, title: 'Catalog Song', artist: 'Catalog Artist', similarity: 0.31 }],
      safetyScore: 0.95,
      generatedAt: new Date(),
      ...overrides,
    });
  }
  const transparency = (id: string, headers = reader) => station.http.inject({ url: `/station/v1/transparency/${id}`, headers });

  it('discloses an instrumental AI track: model, training data, influences, label', async () => {
    const record = await register();
    const response = await transparency(record.stationTrackId);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      station_track_id: record.stationTrackId,
      is_ai_generated: true,
      track_origin: 'ai_generated',
      model_version: 'audio-v1-t',
      influencing_genre: 'lofi',
      influencing_mood: ['calm', 'warm'],
      influencing_lifestyle: 'chill',
      lyrics_source: null,
      lyrics_model_version: null,
      lyrics: null,
      no_third_party_content: true,
      generated_at: record.generatedAt.toISOString(),
      policy_url: 'http://station.test/policy/ai',
      radio_only: true,
      influenced_by: record.influencedBy,
    });
    expect(body.training_data_source).toContain(audioHash);
    expect(body.training_data_source).toMatch(/platform/);
    expect(body.training_dataset_summary.audio).toEqual({
      dataset_hash: audioHash,
      model_version: 'audio-v1-t',
      items: datasetSize,
      platform_owned_items: datasetSize,
      other_items: 0,
      verified: true,
    });
    expect(body.training_dataset_summary.lyrics).toBeNull();
    expect(JSON.stringify(body.training_dataset_summary)).not.toContain(catalogTrackId);
    expect(body.ai_label).toEqual({
      carried_in: expect.stringContaining('ID3'),
      digital_source_type: TRAINED_ALGORITHMIC_MEDIA,
      track_origin: 'ai_generated',
      station: 'Station',
      model_version: 'audio-v1-t',
      station_track_id: record.stationTrackId,
    });
  });

  it('names the lyrics source and the lyrics model when the track has lyrics', async () => {
    const generationId = randomUUID();
    const [lyric] = await station.database.db
      .insert(lyricGenerations)
      .values({
        request: {},
        theme: 'summer',
        language: 'en',
        mood: ['warm'],
        structure: { verse: 'long light\non the water', chorus: 'sun' },
        modelVersion: 'lyrics-v1-t',
        seed: 2,
        generationId,
        safetyScore: 0.99,
        explicitDetected: false,
        safety: { order: ['verse', 'chorus', 'verse'] },
      })
      .returning();
    const record = await register({ generationId, lyricId: lyric.id, lyricsModelVersion: 'lyrics-v1-t' });
    const body = (await transparency(record.stationTrackId)).json();
    expect(body.lyrics_source).toMatch(/lyrics model.*platform's own songwriters/);
    expect(body.lyrics_model_version).toBe('lyrics-v1-t');
    // The words themselves, in the order they are sung, so a listener can read what they hear.
    expect(body.lyrics).toEqual({
      language: 'en',
      sections: [
        { name: 'verse', text: 'long light\non the water' },
        { name: 'chorus', text: 'sun' },
        { name: 'verse', text: 'long light\non the water' },
      ],
    });
    expect(body.training_dataset_summary.lyrics).toMatchObject({
      dataset_hash: lyricsHash,
      model_version: 'lyrics-v1-t',
      items: 3,
      other_items: 0,
      verified: true,
    });
    expect(body.no_third_party_content).toBe(true);
  });

  it('says no_third_party_content false when the dataset held third-party items or a similarity flag was raised', async () => {
    const tainted = await register({ modelVersion: 'audio-v1-3p', trainingDatasetHash: thirdPartyHash });
    const body = (await transparency(tainted.stationTrackId)).json();
    expect(body.no_third_party_content).toBe(false);
    expect(body.training_dataset_summary.audio).toMatchObject({ items: datasetSize + 1, platform_owned_items: datasetSize, other_items: 1, verified: true });

    const similar = await register();
    await station.database.db
      .insert(safetyFlags)
      .values({ stationTrackId: similar.stationTrackId, generationId: similar.generationId, flagType: 'lyrics_similarity', safetyScore: 0.6, detail: {} });
    expect((await transparency(similar.stationTrackId)).json().no_third_party_content).toBe(false);

    const explicit = await register();
    await station.database.db.insert(safetyFlags).values({
      stationTrackId: explicit.stationTrackId,
      generationId: explicit.generationId,
      flagType: 'explicit_lyrics',
      safetyScore: 0.4,
      detail: { lyrics: ['explicit_language'] },
    });
    expect((await transparency(explicit.stationTrackId)).json().no_third_party_content).toBe(true);
  });

  it('reports an unverifiable dataset as such, with the item count from the model lineage', async () => {
    const record = await register({ modelVersion: 'audio-v1-elsewhere', trainingDatasetHash: `sha256:${'9'.repeat(64)}` });
    const body = (await transparency(record.stationTrackId)).json();
    expect(body.training_dataset_summary.audio).toMatchObject({ verified: false, items: 42, platform_owned_items: null });
    expect(body.no_third_party_content).toBe(true);
  });

  it('answers 404 STATION_TRACK_NOT_FOUND for unknown ids and catalog tracks, and needs a credential', async () => {
    for (const id of ['stn_unknown', catalogTrackId]) {
      const response = await transparency(id);
      expect(response.statusCode, id).toBe(404);
      expect(response.json().error.code).toBe('STATION_TRACK_NOT_FOUND');
    }
    expect((await station.http.inject({ url: '/station/v1/transparency/stn_unknown' })).statusCode).toBe(401);
    const record = await register();
    expect((await transparency(record.stationTrackId, service)).statusCode).toBe(200);
    expect((await transparency(record.stationTrackId, admin)).statusCode).toBe(200);
  });

  it('gives the station-level statement with real totals, current models and the chain head', async () => {
    const played = await register();
    await station.station.registry.countPlayback(played.stationTrackId);
    await station.station.registry.countPlayback(played.stationTrackId);
    const response = await station.http.inject({ url: '/station/v1/transparency/station', headers: reader });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    const records = (await station.http.inject({ url: '/station/v1/registry/tracks?limit=100', headers: admin })).json();
    const playedRecords = records.data.filter((r: { playback_count: number }) => r.playback_count > 0);
    expect(body).toMatchObject({
      station: 'Station',
      total_ai_tracks_generated: records.total,
      total_ai_tracks_played: playedRecords.length,
      total_ai_plays: playedRecords.reduce((n: number, r: { playback_count: number }) => n + r.playback_count, 0),
      policy_url: 'http://station.test/policy/ai',
    });
    expect(body.total_ai_plays).toBeGreaterThanOrEqual(2);
    expect(body.system_description).toMatch(/AI/);
    expect(Object.keys(body.legal_compliance)).toEqual(expect.arrayContaining(['ai_labelling', 'registry', 'radio_only']));
    expect(body.legal_compliance.ai_labelling).toContain('trainedAlgorithmicMedia');
    expect(body.training_data_policy.audio).toMatch(/platform/);
    expect(body.current_models.map((m: { version: string }) => m.version).sort()).toEqual(['audio-v1-t', 'lyrics-v1-t']);
    const head = (await station.http.inject({ url: '/station/v1/registry/chain/head', headers: admin })).json();
    // the head anyone can keep: the admin's chain head, stamped with when it was read
    expect(body.registry_chain_head).toEqual({ ...head, computed_at: expect.any(String) });
    expect(new Date(body.registry_chain_head.computed_at).toISOString()).toBe(body.registry_chain_head.computed_at);
  });

  it('serves the public AI policy as HTML and JSON', async () => {
    const html = await station.http.inject({ url: '/policy/ai' });
    expect(html.statusCode).toBe(200);
    expect(html.headers['content-type']).toMatch(/^text\/html/);
    expect(html.body).toContain('AI music policy');
    const json = await station.http.inject({ url: '/policy/ai', headers: { accept: 'application/json' } });
    expect(json.json()).toMatchObject({ url: 'http://station.test/policy/ai', training_data_policy: { audio: expect.any(String) } });
  });

  it('documents module I in OpenAPI', async () => {
    const doc = (await station.http.inject({ url: '/openapi.json' })).json();
    expect(doc.paths['/station/v1/transparency/{station_track_id}'].get.tags).toEqual(['station-transparency']);
    expect(doc.paths['/station/v1/transparency/station']).toBeDefined();
  });
});

describe('module I with a real generation', () => {
  let station: TestStation;
  let service: Record<string, string>;
  let admin: Record<string, string>;

  beforeAll(async () => {
    // Every model (the track sings), trained on three masters: the record is under test, not the model's quality.
    station = await buildTrainedStation({}, { masters: 3 });
    const csrf = (await station.http.inject({ url: '/api/auth/csrf', headers: { 'x-api-key': SERVICE_KEY } })).json().csrf_token;
    service = { 'x-api-key': SERVICE_KEY, 'x-csrf-token': csrf };
    admin = authHeaders(await staffLogin(station));
  }, 240_000);
  afterAll(() => station?.destroy());

  it('registers, discloses and labels a generated track consistently', async () => {
    const accepted = await station.http.inject({
      method: 'POST',
      url: '/station/v1/generate/track',
      headers: service,
      payload: {
        max_duration_sec: 10,
        seed: 21,
        include_lyrics: true,
        session_id: 'session-real',
        context_override: { genre: 'synthwave', mood: ['dreamy'], lifestyle: 'focus' },
      },
    });
    expect(accepted.statusCode).toBe(202);
    let done: Record<string, unknown> = {};
    for (let i = 0; i < 600; i++) {
      done = (await station.http.inject({ url: `/station/v1/generate/track/${accepted.json().generation_id}`, headers: service })).json();
      if (['complete', 'failed'].includes(String(done.status))) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(done.status).toBe('complete');
    const id = String(done.station_track_id);

    // Module E registered it already: the registry endpoint answers that record, never a second one.
    const again = await station.http.inject({
      method: 'POST',
      url: '/station/v1/registry/tracks',
      headers: service,
      payload: { generation_id: done.generation_id },
    });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ station_track_id: id, created: false });

    const detail = (await station.http.inject({ url: `/station/v1/registry/tracks/${id}`, headers: admin })).json();
    expect(detail.model_lineage.map((m: { role: string }) => m.role)).toEqual(['audio', 'lyrics', 'style_embedding']);
    expect(detail.attribution.lyrics).toMatchObject({ model_version: done.lyrics_model_version });

    const record = (await station.http.inject({ url: `/station/v1/transparency/${id}`, headers: service })).json();
    expect(record).toMatchObject({
      station_track_id: id,
      is_ai_generated: true,
      model_version: done.model_version,
      lyrics_model_version: done.lyrics_model_version,
      influencing_genre: 'synthwave',
      influencing_mood: ['dreamy'],
      influencing_lifestyle: 'focus',
      no_third_party_content: true,
    });
    expect(record.lyrics_source).toEqual(expect.any(String));
    expect(record.training_dataset_summary.audio.verified).toBe(true);
    expect(record.training_dataset_summary.audio.other_items).toBe(0);
    expect(record.training_dataset_summary.audio.items).toBeGreaterThan(0);
    expect(record.training_dataset_summary.lyrics).toMatchObject({ verified: true, other_items: 0 });
    for (const influence of record.influenced_by) {
      const [row] = await station.database.db
        .select({ owned: artists.platformOwned })
        .from(tracks)
        .innerJoin(artists, eq(artists.id, tracks.artistId))
        .where(eq(tracks.id, influence.track_id));
      expect(row.owned).toBe(true);
    }

    // What the transparency record says the label carries is what the MP3's ID3 tag carries.
    const mp3 = (await station.http.inject({ url: String(done.stream_url).replace('http://station.test', '') })).rawPayload;
    const tag = mp3.subarray(0, id3TagLength(mp3)).toString('utf8');
    for (const value of [record.ai_label.digital_source_type, record.ai_label.station_track_id, record.ai_label.model_version, record.ai_label.station]) {
      expect(tag).toContain(value);
    }
  }, 180_000);
});
