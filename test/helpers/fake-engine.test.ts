/** The fake engine's promises to the suites that use it: real MP3 bytes of the asked length, stable features, honest training. */
import { describe, expect, it } from 'vitest';
import { parseMp3 } from '../../src/engine/audio/mp3-frames.js';
import type { TrackJob, TrainingSpec } from '../../src/engine/engine.js';
import { FakeEngine, MAX_TRACK_SEC } from './fake-engine.js';

const job = (seed: number, maxDurationSec = 4): TrackJob => ({
  context: { genre: 'jazz', subgenre: 'bebop', mood: ['calm'], lifestyle: 'chill', tempo_range: [100, 120], key_preference: 'minor', energy_level: 0.5 },
  seed,
  maxDurationSec,
  quality: '128kbps',
  audioModel: { version: 'v', sha256: 'x', blobKey: 'k' },
  stationName: 'Test',
});

describe('FakeEngine', () => {
  it('renders a valid CBR MP3 of the asked length (capped), other bytes for another seed', async () => {
    const engine = new FakeEngine();
    const track = await engine.generateTrack(job(1));
    const parsed = parseMp3(track.mp3);
    expect(parsed.frames.length).toBeGreaterThan(100);
    expect(parsed.frames.every((f) => f.bitrateKbps === 128)).toBe(true);
    expect(track.durationSec).toBeGreaterThanOrEqual(4);
    expect(track.durationSec).toBeLessThan(4.2);
    expect(track.mp3[0]).toBe(0xff);
    expect(track.mode).toBe('minor');
    expect((await engine.generateTrack(job(2))).mp3.equals(track.mp3)).toBe(false);
    expect((await engine.generateTrack(job(3, 600))).durationSec).toBeLessThan(MAX_TRACK_SEC + 0.2);
    expect(engine.calls.generateTrack).toBe(3);
  });

  it('derives the same features from the same bytes, and the duration from the frames', async () => {
    const engine = new FakeEngine();
    const { mp3 } = await engine.generateTrack(job(5));
    const features = await engine.extractFeatures(mp3, 'mp3');
    expect(await engine.extractFeatures(mp3, 'mp3')).toEqual(features);
    expect(features.durationSec).toBeCloseTo(parseMp3(mp3).durationMs / 1000, 3);
    expect(features.chroma.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 6);
    expect(features.mfccMean).toHaveLength(13);
    expect(features.mfccStd).toHaveLength(13);
    const transcoded = await engine.transcode(mp3, '192kbps');
    expect(parseMp3(transcoded).frames.every((f) => f.bitrateKbps === 192)).toBe(true);
  });

  it('trains epoch by epoch with checkpoints, stops when asked, and resumes from a checkpoint', async () => {
    const engine = new FakeEngine();
    const spec: TrainingSpec = {
      modelType: 'audio',
      dataset: { version: 'd', sha256: 'abc', blobKey: 'd' },
      hyperparams: { epochs: 4, learningRate: 0.1, batchSize: 4, warmupSteps: 1 },
      base: null,
      resumeFrom: null,
      seed: 1,
    };
    const epochs: number[] = [];
    const checkpoints: unknown[] = [];
    const stopped = await engine.train(spec, {
      onEpoch: (e) => void epochs.push(e.epoch),
      onCheckpoint: (c) => void checkpoints.push(c),
      shouldStop: () => epochs.length >= 2,
    });
    expect(stopped).toMatchObject({ artifact: null, stopped: true });
    expect(epochs).toEqual([1, 2]);
    const resumed = await engine.train({ ...spec, resumeFrom: checkpoints.at(-1) }, { onEpoch: (e) => void epochs.push(e.epoch) });
    expect(resumed.stopped).toBe(false);
    expect(resumed.artifact).toMatchObject({ modelType: 'audio' });
    expect(epochs).toEqual([1, 2, 3, 4]);
  });
});
