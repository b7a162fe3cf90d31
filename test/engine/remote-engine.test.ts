/**
 * RemoteEngine against the real ML service (`npm run ml-service`'s server, in-process on port 0) over real
 * HTTP. Artifacts are served by a small signed-link server, as the station's /media/ route would: the
 * service fetches them, checks their sha256 and caches them. A LocalEngine over the same blobs shows that
 * the protocol changes nothing: same job, same seed, same bytes.
 */
import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import type { ArtifactRef, TrackJob, TrainingEpoch, TrainingSpec } from '../../src/engine/engine.js';
import { EngineError } from '../../src/engine/errors.js';
import { LocalEngine } from '../../src/engine/local-engine.js';
import { RemoteEngine } from '../../src/engine/remote/remote-engine.js';
import type { LyricsDocument } from '../../src/engine/types.js';
import { loadMlServiceConfig } from '../../src/ml-service/config.js';
import { createMlService, type MlService } from '../../src/ml-service/server.js';
import { fixtureCorpus } from '../fixtures/lyrics-corpus.js';
import { ENGINE_AT_TEST_PRIORITY, buildTestStation } from '../helpers/station.js';
import { LOFI_CONTEXT, parseMp3Frames, syntheticCatalog } from './music/helpers.js';
import { labelledItems } from './style/fixtures.js';

const API_KEY = 'ml-test-key-0123456789abcdef';
const LINK_SECRET = 'artifact-link-secret';

/** The station's blob storage and /media/ links, reduced to what the ML service sees. */
class ArtifactServer {
  readonly blobs = new Map<string, Buffer>();
  readonly hits = new Map<string, number>();
  private server: Server | null = null;
  private base = '';

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      const key = decodeURIComponent(url.pathname.replace(/^\/media\//, ''));
      if (url.searchParams.get('sig') !== this.signature(key)) return void response.writeHead(403).end('link invalid');
      const bytes = this.blobs.get(key);
      if (!bytes) return void response.writeHead(404).end('not found');
      this.hits.set(key, (this.hits.get(key) ?? 0) + 1);
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': bytes.length }).end(bytes);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  put(blobKey: string, value: unknown, version = blobKey): ArtifactRef {
    const bytes = Buffer.from(JSON.stringify(value));
    this.blobs.set(blobKey, bytes);
    return { version, sha256: createHash('sha256').update(bytes).digest('hex'), blobKey };
  }

  /** What the station's signer does: a link only this server accepts. */
  sign = (ref: ArtifactRef): string => `${this.base}/media/${encodeURIComponent(ref.blobKey)}?sig=${this.signature(ref.blobKey)}`;

  private signature(key: string): string {
    return createHmac('sha256', LINK_SECRET).update(key).digest('base64url');
  }
}

const hyperparams = { epochs: 3, learningRate: 0.05, batchSize: 4, warmupSteps: 5 };
const audioItems = syntheticCatalog({ tracksPerGenre: 4, seed: 3 }).map((item, i) => ({ id: `track-${i}`, ...item }));
const styleItems = labelledItems(10, 5);
const corpus: LyricsDocument[] = fixtureCorpus();
const COPIED_LINE = corpus[1].sections[0].lines[0];

const artifacts = new ArtifactServer();
const dataDir = mkdtempSync(join(tmpdir(), 'ml-service-'));
let ml: MlService;
let baseUrl: string;
let remote: RemoteEngine;
let local: LocalEngine;
let audioModel: ArtifactRef;
let lyricsModel: ArtifactRef;
let safetyRef: ArtifactRef;
const audioEpochs: TrainingEpoch[] = [];
let audioCheckpoints = 0;

function spec(over: Partial<TrainingSpec> & Pick<TrainingSpec, 'modelType' | 'dataset'>): TrainingSpec {
  return { hyperparams, base: null, resumeFrom: null, seed: 9, ...over };
}

beforeAll(async () => {
  await artifacts.start();
  // The service's engine threads at the test's own priority, as the LocalEngine compared with it (at the default
  // nice 10 they got a few per cent of a core beside the other suites, and its first render took over a minute).
  ml = await createMlService({
    apiKey: API_KEY,
    dataDir,
    poolSize: 2,
    taskTimeoutMs: 60_000,
    logger: false,
    heartbeatMs: 250,
    niceness: Number(ENGINE_AT_TEST_PRIORITY),
  });
  await ml.http.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(ml.http.server.address() as AddressInfo).port}`;
  remote = new RemoteEngine({ baseUrl, apiKey: API_KEY, signArtifact: artifacts.sign, idleTimeoutMs: 5_000 });
  local = new LocalEngine({ artifacts: { read: async (ref) => artifacts.blobs.get(ref.blobKey)! }, poolSize: 1, niceness: Number(ENGINE_AT_TEST_PRIORITY) });
  safetyRef = artifacts.put('reference/safety.json', { lyrics: corpus, audio: styleItems.map(({ id, features }) => ({ id, features })) });

  // Both models are trained through the protocol: epochs and checkpoints cross the wire.
  const [audio, lyrics] = await Promise.all([
    remote.train(spec({ modelType: 'audio', dataset: artifacts.put('datasets/audio.json', audioItems) }), {
      onEpoch: (epoch) => void audioEpochs.push(epoch),
      onCheckpoint: () => void audioCheckpoints++,
    }),
    remote.train(
      spec({
        modelType: 'lyrics',
        dataset: artifacts.put('datasets/lyrics.json', corpus),
        hyperparams: { epochs: 1, learningRate: 0.005, batchSize: 64, warmupSteps: 20 },
        seed: 1,
      }),
      {},
    ),
  ]);
  expect(audio.stopped).toBe(false);
  expect(lyrics.stopped).toBe(false);
  audioModel = artifacts.put('models/audio-1.json', audio.artifact, 'audio-1');
  lyricsModel = artifacts.put('models/lyrics-1.json', lyrics.artifact, 'lyrics-1');
}, 120_000);

afterAll(async () => {
  await remote?.close();
  await local?.close();
  await ml?.close(1_000);
  await artifacts.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const trackJob = (): TrackJob => ({ context: LOFI_CONTEXT, seed: 11, maxDurationSec: 8, quality: '128kbps', audioModel, stationName: 'Test FM' });

describe('the ML service protocol', () => {
  it('documents every route in its OpenAPI and answers health with the key', async () => {
    const document = (await (await fetch(`${baseUrl}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths).sort()).toEqual(
      [
        '/ml/v1/audio:transcode',
        '/ml/v1/features',
        '/ml/v1/health',
        '/ml/v1/influences',
        '/ml/v1/lyrics:generate',
        '/ml/v1/safety/audio',
        '/ml/v1/safety/lyrics',
        '/ml/v1/tracks:generate',
        '/ml/v1/train',
        '/ml/v1/train/{run_id}:ack',
        '/ml/v1/train/{run_id}:stop',
      ].sort(),
    );
    const health = await remote.health();
    expect(health).toMatchObject({ status: 'ok', workers: { size: 2 } });
  });

  it('refuses a missing or wrong API key with the envelope', async () => {
    const anonymous = await fetch(`${baseUrl}/ml/v1/health`);
    expect(anonymous.status).toBe(401);
    const body = (await anonymous.json()) as { error: Record<string, unknown> };
    expect(body.error).toMatchObject({ code: 'ML_AUTH_REQUIRED', http_status: 401, retry_after: null, request_id: expect.any(String) });

    const intruder = new RemoteEngine({ baseUrl, apiKey: 'not-the-key-at-all', signArtifact: artifacts.sign });
    const error = await intruder
      .generateLyrics({ lyricsModel, mood: [], theme: 'x', language: 'en', structure: 'verse', styleArtistIds: [], seed: 1 })
      .catch((e) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect(error.details).toMatchObject({ httpStatus: 401, code: 'ML_INVALID_CREDENTIALS' });
    expect(await intruder.health()).toMatchObject({ status: 'down', detail: expect.stringContaining('refused the API key') });
  });

  it('reports an unreachable service as down, and its calls as SHUTDOWN', async () => {
    const nowhere = new RemoteEngine({ baseUrl: 'http://127.0.0.1:1', apiKey: API_KEY, signArtifact: artifacts.sign });
    expect(await nowhere.health()).toMatchObject({ status: 'down', workers: { size: 0, busy: 0, queued: 0 } });
    const error = await nowhere.checkLyrics(safetyRef, 'hello', false).catch((e) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect(error.code).toBe('SHUTDOWN');
  });
});

describe('RemoteEngine generation', () => {
  it('streamed training epochs and checkpoints in order', () => {
    expect(audioEpochs.map((e) => e.epoch)).toEqual([1, 2, 3]);
    expect(audioCheckpoints).toBe(3);
  });

  it('generates a track with progress, byte-identical to LocalEngine, fetching the model once; transcodes it', async () => {
    const progress: number[] = [];
    const track = await remote.generateTrack(trackJob(), (pct) => progress.push(pct));
    expect(Buffer.isBuffer(track.mp3)).toBe(true);
    expect(Buffer.isBuffer(track.coverPng)).toBe(true);
    const frames = parseMp3Frames(track.mp3);
    expect(frames.allMpeg1Layer3).toBe(true);
    expect(Math.abs(frames.durationSec - 8)).toBeLessThan(0.5);
    expect(progress.length).toBeGreaterThan(1);
    expect(progress.at(-1)).toBe(100);

    const [again, inProcess] = await Promise.all([remote.generateTrack(trackJob()), local.generateTrack(trackJob())]);
    expect(inProcess.mp3.equals(track.mp3)).toBe(true);
    expect(inProcess.coverPng.equals(track.coverPng)).toBe(true);
    expect(again.mp3.equals(track.mp3)).toBe(true);
    // The rest is equal as JSON (the waveform's -0 peaks come back as 0, as they would from the station's API).
    const metadata = (t: typeof track) => JSON.parse(JSON.stringify({ ...t, mp3: null, coverPng: null, timings: null }));
    expect(metadata(track)).toEqual(metadata(inProcess));
    expect(artifacts.hits.get(audioModel.blobKey)).toBe(1); // the service cached it by sha256

    const [features, rendition] = await Promise.all([remote.extractFeatures(track.mp3, 'mp3'), remote.transcode(track.mp3, '192kbps')]);
    expect(features.durationSec).toBeGreaterThan(7);
    expect(features.chroma).toHaveLength(12);
    expect([...parseMp3Frames(rendition).bitrates]).toEqual([192]);
    expect(rendition.equals(await local.transcode(track.mp3, '192kbps'))).toBe(true);
  });

  it('sings lyrics over the wire: the vocal stem and notes come back as LocalEngine gives them', async () => {
    const lyrics = { language: 'en', order: ['chorus'], sections: { chorus: 'Stay with me until the morning\nHold the night and never let it go' } };
    const job = { ...trackJob(), maxDurationSec: 10, lyrics };
    const [track, inProcess] = await Promise.all([remote.generateTrack(job), local.generateTrack(job)]);
    expect(track.vocals).toBeTruthy();
    expect(Buffer.isBuffer(track.vocals!.stemMp3)).toBe(true);
    expect(track.vocals!.stemMp3.equals(inProcess.vocals!.stemMp3)).toBe(true);
    expect(track.mp3.equals(inProcess.mp3)).toBe(true);
    expect(track.vocals!.lines[0]).toMatchObject({ text: 'Stay with me until the morning', syllables: 8 });
    expect(track.vocals!.notes).toEqual(inProcess.vocals!.notes);
  });

  it('writes lyrics, and rebuilds an unsupported language as EngineError on the client', async () => {
    const job = {
      lyricsModel,
      mood: ['melancholic'],
      theme: 'leaving home',
      language: 'en',
      structure: 'verse-chorus-verse-chorus',
      styleArtistIds: [],
      seed: 4,
    };
    const lyrics = await remote.generateLyrics(job);
    expect(lyrics).toEqual(await local.generateLyrics(job));
    expect(lyrics.modelVersion).toBe('lyrics-1');
    const error = await remote.generateLyrics({ ...job, language: 'fr' }).catch((e) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect(error.code).toBe('UNSUPPORTED_LANGUAGE');
    expect(error.details.supported).toEqual(expect.arrayContaining(['en']));
  });

  it('checks safety and ranks influences', async () => {
    const copied = await remote.checkLyrics(safetyRef, `${COPIED_LINE}\nand nothing else was new`, false);
    expect(copied.playable).toBe(false);
    expect(copied.flagged_categories).toContain('copyright_similarity');
    const duplicate = await remote.checkAudio(safetyRef, styleItems[3].features);
    expect(duplicate.flagged_categories).toContain('audio_duplicate');

    const style = await remote.train(
      spec({
        modelType: 'style_embedding',
        dataset: artifacts.put('datasets/style.json', styleItems),
        hyperparams: { epochs: 2, learningRate: 0.01, batchSize: 16, warmupSteps: 5 },
      }),
      {},
    );
    const styleModel = artifacts.put('models/style-1.json', style.artifact, 'style-1');
    const query = styleItems.find((i) => i.genre === 'techno')!;
    const influences = await remote.influences(styleModel, safetyRef, query.features, 3);
    expect(influences).toHaveLength(3);
    expect(influences[0]).toEqual({ id: query.id, similarity: expect.closeTo(1, 5) });
  });

  it('refuses an artifact whose bytes do not match its sha256, and caches nothing of it', async () => {
    const ref = artifacts.put('models/tampered.json', { format: 'station-lyrics-v1' }, 'tampered');
    artifacts.blobs.set(ref.blobKey, Buffer.from('{"format":"station-lyrics-v1","evil":true}'));
    const job = { lyricsModel: ref, mood: [], theme: 'x', language: 'en', structure: 'verse', styleArtistIds: [], seed: 1 };
    const error = await remote.generateLyrics(job).catch((e) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect(error.code).toBe('ARTIFACT_INVALID');
    expect(error.details).toMatchObject({ blobKey: ref.blobKey, expected: ref.sha256 });
    const again = await remote.generateLyrics(job).catch((e) => e);
    expect(again.code).toBe('ARTIFACT_INVALID');
    expect(artifacts.hits.get(ref.blobKey)).toBe(2);
  });
});

describe('RemoteEngine training control', () => {
  it('stops at the checkpoint where shouldStop turned true, with that checkpoint delivered', async () => {
    const dataset = artifacts.put('datasets/audio.json', audioItems);
    const events: string[] = [];
    let checkpoint: unknown = null;
    const stopped = await remote.train(spec({ modelType: 'audio', dataset, hyperparams: { ...hyperparams, epochs: 5 } }), {
      onEpoch: async (e) => {
        await new Promise((resolve) => setTimeout(resolve, 5)); // a slow hook still runs before the next event
        events.push(`epoch ${e.epoch}`);
      },
      onCheckpoint: (c) => {
        events.push('checkpoint');
        checkpoint = c;
      },
      shouldStop: () => events.filter((e) => e.startsWith('epoch')).length >= 2,
    });
    expect(stopped).toMatchObject({ stopped: true, artifact: null });
    expect(events).toEqual(['epoch 1', 'checkpoint', 'epoch 2', 'checkpoint']);
    expect(checkpoint).toMatchObject({ epoch: 2 });

    const epochs: number[] = [];
    const resumed = await remote.train(spec({ modelType: 'audio', dataset, hyperparams: { ...hyperparams, epochs: 5 }, resumeFrom: checkpoint }), {
      onEpoch: (e) => void epochs.push(e.epoch),
    });
    expect(resumed.stopped).toBe(false);
    expect(epochs).toEqual([3, 4, 5]);
  });

  it('speaks the raw protocol: :stop between events, every event acknowledged in order', async () => {
    const headers = { 'x-api-key': API_KEY, 'content-type': 'application/json' };
    const dataset = { ...artifacts.put('datasets/audio.json', audioItems), url: '' };
    dataset.url = artifacts.sign(dataset);
    const response = await fetch(`${baseUrl}/ml/v1/train`, {
      method: 'POST',
      headers,
      body: JSON.stringify(spec({ modelType: 'audio', dataset, hyperparams: { ...hyperparams, epochs: 5 } })),
    });
    expect(response.headers.get('content-type')).toContain('application/x-ndjson');
    const seen: string[] = [];
    let runId = '';
    let buffered = '';
    for await (const chunk of response.body!) {
      buffered += Buffer.from(chunk).toString('utf8');
      for (let newline = buffered.indexOf('\n'); newline !== -1; newline = buffered.indexOf('\n')) {
        const line = JSON.parse(buffered.slice(0, newline));
        buffered = buffered.slice(newline + 1);
        if (line.type !== 'heartbeat') seen.push(line.type);
        if (line.type === 'started') {
          runId = line.run_id;
          const stop = await fetch(`${baseUrl}/ml/v1/train/${runId}:stop`, { method: 'POST', headers: { 'x-api-key': API_KEY } });
          expect(stop.status).toBe(202);
        } else if (line.type === 'epoch' || line.type === 'checkpoint') {
          const early = await fetch(`${baseUrl}/ml/v1/train/${runId}:ack`, { method: 'POST', headers, body: JSON.stringify({ seq: line.seq + 1 }) });
          expect(early.status).toBe(409);
          const ack = await fetch(`${baseUrl}/ml/v1/train/${runId}:ack`, { method: 'POST', headers, body: JSON.stringify({ seq: line.seq }) });
          expect(ack.status).toBe(204);
        } else if (line.type === 'result') {
          expect(line.result).toMatchObject({ stopped: true, artifact: null });
        }
      }
    }
    // Stopped within the first epoch: that epoch's checkpoint is still delivered before the result.
    expect(seen).toEqual(['started', 'epoch', 'checkpoint', 'result']);
    const gone = await fetch(`${baseUrl}/ml/v1/train/${runId}:stop`, { method: 'POST', headers: { 'x-api-key': API_KEY } });
    expect(gone.status).toBe(404);
  });

  it('passes a hook error through as thrown and aborts the run on the service', async () => {
    class PersistFailed extends Error {}
    const failure = new PersistFailed('checkpoint store is down');
    const dataset = artifacts.put('datasets/audio.json', audioItems);
    const error = await remote.train(spec({ modelType: 'audio', dataset }), { onCheckpoint: () => Promise.reject(failure) }).catch((e) => e);
    expect(error).toBe(failure);
    await expect.poll(async () => (await remote.health()).workers.busy, { timeout: 10_000 }).toBe(0);
  });

  it('maps bad hyperparameters to INVALID_HYPERPARAMS from the stream', async () => {
    const dataset = artifacts.put('datasets/audio.json', audioItems);
    const error = await remote.train(spec({ modelType: 'audio', dataset, hyperparams: { ...hyperparams, epochs: 0 } }), {}).catch((e) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect(error.code).toBe('INVALID_HYPERPARAMS');
  });
});

describe('the station on an ML service', () => {
  it('needs ML_API_KEY with ML_URL; the service needs its own key', () => {
    expect(loadConfig({}).ml).toBeNull();
    expect(() => loadConfig({ ML_URL: 'http://ml:8090' })).toThrow(ConfigError);
    expect(() => loadConfig({ ML_URL: 'http://ml:8090' })).toThrow(/ML_API_KEY/);
    expect(() => loadConfig({ ML_URL: 'ftp://ml', ML_API_KEY: 'k' })).toThrow(/ML_URL/);
    expect(loadConfig({ ML_URL: 'http://ml:8090/', ML_API_KEY: 'k' }).ml).toEqual({ url: 'http://ml:8090', apiKey: 'k' });
    expect(() => loadMlServiceConfig({})).toThrow(/ML_SERVICE_API_KEY/);
    expect(loadMlServiceConfig({ ML_SERVICE_API_KEY: API_KEY })).toMatchObject({ port: 8090, dataDir: null });
  });

  it('uses RemoteEngine when ML_URL is set, and the service reads models through signed /media/ links', async () => {
    const port = await freePort();
    const station = await buildTestStation({ PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, ML_URL: baseUrl, ML_API_KEY: API_KEY });
    try {
      await station.http.listen({ port, host: '127.0.0.1' });
      expect(station.engine.kind).toBe('remote');
      expect(await station.engine.health()).toMatchObject({ status: 'ok' });
      const bytes = Buffer.from(JSON.stringify({ lyrics: corpus, audio: [] }));
      await station.blobs.put('references/station-safety.json', bytes);
      const ref = { version: 'ref-1', sha256: createHash('sha256').update(bytes).digest('hex'), blobKey: 'references/station-safety.json' };
      const verdict = await station.engine.checkLyrics(ref, `${COPIED_LINE}\nand nothing else was new`, false);
      expect(verdict.flagged_categories).toContain('copyright_similarity');
    } finally {
      await station.destroy();
    }
  });
});

async function freePort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
