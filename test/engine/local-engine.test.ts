/**
 * LocalEngine end to end on real worker threads: models trained through the engine on small data, then
 * generation, safety, features and influences through the same engine, with an in-memory ArtifactSource.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArtifactRef, ArtifactSource, TrackJob, TrainingEpoch, TrainingSpec } from '../../src/engine/engine.js';
import { EngineError } from '../../src/engine/errors.js';
import { LocalEngine } from '../../src/engine/local-engine.js';
import type { LyricsDocument } from '../../src/engine/types.js';
import { fixtureCorpus } from '../fixtures/lyrics-corpus.js';
import { LOFI_CONTEXT, parseMp3Frames, syntheticCatalog } from './music/helpers.js';
import { labelledItems } from './style/fixtures.js';

class MemoryArtifacts implements ArtifactSource {
  readonly blobs = new Map<string, Buffer>();
  reads = 0;

  put(blobKey: string, value: unknown, version = blobKey): ArtifactRef {
    const bytes = Buffer.from(JSON.stringify(value));
    this.blobs.set(blobKey, bytes);
    return { version, sha256: createHash('sha256').update(bytes).digest('hex'), blobKey };
  }

  async read(ref: ArtifactRef): Promise<Buffer> {
    this.reads++;
    const bytes = this.blobs.get(ref.blobKey);
    if (!bytes) throw new Error(`no blob ${ref.blobKey}`);
    return bytes;
  }
}

const hyperparams = { epochs: 4, learningRate: 0.05, batchSize: 4, warmupSteps: 5 };
const audioItems = syntheticCatalog({ tracksPerGenre: 6, seed: 3 }).map((item, i) => ({ id: `track-${i}`, ...item }));
const styleItems = labelledItems(10, 5);
const corpus: LyricsDocument[] = fixtureCorpus();
const COPIED_LINE = corpus[1].sections[0].lines[0]; // "The ferry leaves at seven from the pier"

const artifacts = new MemoryArtifacts();
const engine = new LocalEngine({ artifacts, poolSize: 2, taskTimeoutMs: 60_000, niceness: 0 });
const safetyRef = artifacts.put('reference/safety.json', { lyrics: corpus, audio: styleItems.map(({ id, features }) => ({ id, features })) });
let audioModel: ArtifactRef;
let lyricsModel: ArtifactRef;
let mp3: Buffer;

function spec(over: Partial<TrainingSpec> & Pick<TrainingSpec, 'modelType' | 'dataset'>): TrainingSpec {
  return { hyperparams, base: null, resumeFrom: null, seed: 9, ...over };
}

beforeAll(async () => {
  const audioDataset = artifacts.put('datasets/audio.json', audioItems);
  const lyricsDataset = artifacts.put('datasets/lyrics.json', corpus);
  const [audio, lyrics] = await Promise.all([
    engine.train(spec({ modelType: 'audio', dataset: audioDataset }), {}),
    engine.train(
      spec({ modelType: 'lyrics', dataset: lyricsDataset, hyperparams: { epochs: 1, learningRate: 0.005, batchSize: 64, warmupSteps: 20 }, seed: 1 }),
      {},
    ),
  ]);
  expect(audio.stopped).toBe(false);
  expect(lyrics.stopped).toBe(false);
  expect(lyrics.metrics.perplexity as number).toBeLessThan(lyrics.metrics.unigramPerplexity as number);
  audioModel = artifacts.put('models/audio-1.json', audio.artifact, 'audio-1');
  lyricsModel = artifacts.put('models/lyrics-1.json', lyrics.artifact, 'lyrics-1');
}, 120_000);

afterAll(() => engine.close());

const trackJob = (): TrackJob => ({ context: LOFI_CONTEXT, seed: 11, maxDurationSec: 8, quality: '128kbps', audioModel, stationName: 'Test FM' });

describe('LocalEngine generation', () => {
  // How long the API thread waits while a track renders (event-loop gaps, utilisation) is measured by
  // bench/engine-responsiveness.ts; here, that the work happens on a worker and the loop keeps turning.
  it('generates an MP3 on a worker thread while the API thread keeps turning', async () => {
    const progress: number[] = [];
    const busy: Promise<number>[] = [];
    const ticksAt: number[] = [];
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 5);
    try {
      const track = await engine.generateTrack(trackJob(), (pct) => {
        progress.push(pct);
        ticksAt.push(ticks);
        busy.push(engine.health().then((health) => health.workers.busy));
      });
      mp3 = track.mp3;
    } finally {
      clearInterval(ticker);
    }
    expect(Buffer.isBuffer(mp3)).toBe(true);
    const frames = parseMp3Frames(mp3);
    expect(frames.allMpeg1Layer3).toBe(true);
    expect([...frames.bitrates]).toEqual([128]);
    expect(Math.abs(frames.durationSec - 8)).toBeLessThan(0.5);
    expect(progress.length).toBeGreaterThan(1);
    expect(progress.at(-1)).toBe(100);
    // Every progress report came while a worker of the pool was busy with the job...
    for (const count of await Promise.all(busy)) expect(count).toBeGreaterThanOrEqual(1);
    // ...and between the first and the last, this thread was free to run its timers.
    expect(ticksAt.at(-1)!).toBeGreaterThan(ticksAt[0]);
  });

  it('gives identical bytes for the same seed, from the cached model', async () => {
    const reads = artifacts.reads;
    const [a, b] = await Promise.all([engine.generateTrack(trackJob()), engine.generateTrack(trackJob())]);
    expect(a.mp3.equals(mp3)).toBe(true);
    expect(b.mp3.equals(mp3)).toBe(true);
    expect(Buffer.isBuffer(a.coverPng)).toBe(true);
    expect(artifacts.reads - reads).toBeLessThanOrEqual(1); // at most the second worker's first read
  });

  it('extracts features from the generated MP3', async () => {
    const features = await engine.extractFeatures(mp3, 'mp3');
    expect(features.durationSec).toBeGreaterThan(7);
    expect(features.chroma).toHaveLength(12);
    expect(features.tempoBpm).toBeGreaterThan(40);
  });

  it('writes lyrics, and reports an unsupported language as EngineError', async () => {
    const job = {
      lyricsModel,
      mood: ['melancholic'],
      theme: 'leaving home',
      language: 'en',
      structure: 'verse-chorus-verse-chorus',
      styleArtistIds: [],
      seed: 4,
    };
    const lyrics = await engine.generateLyrics(job);
    expect(Object.keys(lyrics.structure)).toEqual(['verse_1', 'chorus', 'verse_2']);
    expect(lyrics.order).toEqual(['verse_1', 'chorus', 'verse_2', 'chorus']);
    expect(lyrics.modelVersion).toBe('lyrics-1');
    const error = await engine.generateLyrics({ ...job, language: 'fr' }).catch((e) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect(error.code).toBe('UNSUPPORTED_LANGUAGE');
    expect(error.details.supported).toEqual(expect.arrayContaining(['en', 'es']));
    const artist = await engine.generateLyrics({ ...job, styleArtistIds: ['nobody'] }).catch((e) => e);
    expect(artist.code).toBe('UNKNOWN_ARTIST');
  });
});

describe('LocalEngine safety and influences', () => {
  it('catches a copied corpus line and a duplicated catalog track', async () => {
    const copied = await engine.checkLyrics(safetyRef, `${COPIED_LINE}\nand nothing else was new`, false);
    expect(copied.playable).toBe(false);
    expect(copied.flagged_categories).toContain('copyright_similarity');
    const original = await engine.checkLyrics(safetyRef, 'Copper kettles singing on a borrowed stove\nWe hung a paper moon above the cove', false);
    expect(original.playable).toBe(true);
    const duplicate = await engine.checkAudio(safetyRef, styleItems[3].features);
    expect(duplicate.flagged_categories).toContain('audio_duplicate');
  });

  it('ranks catalog influences in style space', async () => {
    const style = await engine.train(
      spec({
        modelType: 'style_embedding',
        dataset: artifacts.put('datasets/style.json', styleItems),
        hyperparams: { epochs: 3, learningRate: 0.01, batchSize: 16, warmupSteps: 5 },
      }),
      {},
    );
    expect(style.metrics.precisionAtK).toEqual(expect.any(Number));
    const styleModel = artifacts.put('models/style-1.json', style.artifact, 'style-1');
    const query = styleItems.find((i) => i.genre === 'techno')!;
    const influences = await engine.influences(styleModel, safetyRef, query.features, 3);
    expect(influences).toHaveLength(3);
    expect(influences[0]).toEqual({ id: query.id, similarity: expect.closeTo(1, 5) });
    expect(influences[1].similarity).toBeLessThanOrEqual(influences[0].similarity);
  });

  it('refuses an artifact whose bytes do not match its sha256', async () => {
    const ref = artifacts.put('models/tampered.json', { format: 'station-lyrics-v1' }, 'tampered');
    artifacts.blobs.set(ref.blobKey, Buffer.from('{"format":"station-lyrics-v1","evil":true}'));
    const error = await engine
      .generateLyrics({ lyricsModel: ref, mood: [], theme: 'x', language: 'en', structure: 'verse', styleArtistIds: [], seed: 1 })
      .catch((e) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect(error.code).toBe('ARTIFACT_INVALID');
    expect(error.details).toMatchObject({ blobKey: ref.blobKey, expected: ref.sha256 });
  });
});

describe('LocalEngine training', () => {
  it('stops at a checkpoint when asked, and resuming continues the epoch count', async () => {
    const dataset = artifacts.put('datasets/audio.json', audioItems);
    const longer = { ...hyperparams, epochs: 5 };
    const events: string[] = [];
    let checkpoint: unknown = null;
    const stopped = await engine.train(spec({ modelType: 'audio', dataset, hyperparams: longer }), {
      onEpoch: async (e: TrainingEpoch) => {
        await new Promise((resolve) => setTimeout(resolve, 5)); // a slow hook still runs before the next event
        events.push(`epoch ${e.epoch}`);
      },
      onCheckpoint: (c) => {
        events.push('checkpoint');
        checkpoint = c;
      },
      shouldStop: () => events.filter((e) => e.startsWith('epoch')).length >= 2,
    });
    expect(stopped.stopped).toBe(true);
    expect(stopped.artifact).toBeNull();
    expect(events).toEqual(['epoch 1', 'checkpoint', 'epoch 2', 'checkpoint']);
    expect(checkpoint).toMatchObject({ epoch: 2 });

    const epochs: TrainingEpoch[] = [];
    const resumed = await engine.train(spec({ modelType: 'audio', dataset, hyperparams: longer, resumeFrom: checkpoint }), {
      onEpoch: (e) => void epochs.push(e),
    });
    expect(resumed.stopped).toBe(false);
    expect(epochs.map((e) => e.epoch)).toEqual([3, 4, 5]);
    expect(epochs.every((e) => Number.isFinite(e.loss) && e.perplexity === null)).toBe(true);
    expect(resumed.metrics).toMatchObject({ epochsCompleted: 5, finalLoss: epochs[2].loss });
    expect(resumed.artifact).toMatchObject({ format: 'station-audio-model' });
  });

  it('fails the run with the error a training hook threw', async () => {
    class PersistFailed extends Error {}
    const dataset = artifacts.put('datasets/audio.json', audioItems);
    const failure = new PersistFailed('checkpoint store is down');
    const error = await engine.train(spec({ modelType: 'audio', dataset }), { onCheckpoint: () => Promise.reject(failure) }).catch((e) => e);
    expect(error).toBe(failure);
  });

  it('maps bad hyperparameters to INVALID_HYPERPARAMS and reports health', async () => {
    const error = await engine
      .train(spec({ modelType: 'audio', dataset: artifacts.put('datasets/audio.json', audioItems), hyperparams: { ...hyperparams, epochs: 0 } }), {})
      .catch((e) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect(error.code).toBe('INVALID_HYPERPARAMS');
    const health = await engine.health();
    expect(health).toMatchObject({ status: 'ok', workers: { size: 2, busy: 0, queued: 0 } });
  });
});
