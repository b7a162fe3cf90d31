import { createHash } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { ArtifactRef, TrackJob } from '../../../src/engine/engine.js';
import { EngineError } from '../../../src/engine/errors.js';
import { emptyAudioModel, serialiseAudioModel } from '../../../src/engine/compose/audio-model.js';
import { EngineWorkerPool } from '../../../src/engine/worker/engine-worker-pool.js';
import { LOFI_CONTEXT, parseMp3Frames } from './helpers.js';

const modelBytes = Buffer.from(serialiseAudioModel(emptyAudioModel()));
const audioModel: ArtifactRef = { version: 'audio-test-1', sha256: createHash('sha256').update(modelBytes).digest('hex'), blobKey: 'models/audio-test-1.json' };
let reads = 0;
const artifacts = { read: async () => (reads++, modelBytes) };

const job: TrackJob = { context: LOFI_CONTEXT, seed: 7, maxDurationSec: 8, quality: '128kbps', audioModel, stationName: 'Test FM' };

describe('engine worker pool (generateTrack)', () => {
  const pool = new EngineWorkerPool({ artifacts, size: 1, allowFaultInjection: true, taskTimeoutMs: 60_000, niceness: 0 });
  afterAll(() => pool.close());

  it('renders in a worker thread with progress, reading the model once', async () => {
    const progress: number[] = [];
    const track = await pool.run('generateTrack', job, { onProgress: (pct) => progress.push(pct) });
    expect(track.mp3).toBeInstanceOf(Uint8Array);
    expect(Math.abs(parseMp3Frames(track.mp3).durationSec - 8)).toBeLessThan(0.5);
    expect(progress.at(-1)).toBe(100);
    await pool.run('generateTrack', { ...job, seed: 8, maxDurationSec: 2 });
    expect(reads).toBe(1); // the worker kept the parsed model
  });

  it('fails only the crashed task; the queued task runs on a replacement worker', async () => {
    const crashed = pool.run('generateTrack', job, { injectFault: 'crash' });
    const next = pool.run('generateTrack', { ...job, seed: 8 });
    const error = await crashed.catch((e) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect(error.code).toBe('CRASHED');
    const track = await next;
    expect(track.mp3.length).toBeGreaterThan(10_000);
    expect(pool.stats().workers).toBe(1);
    expect(pool.stats().recentCrashes).toBe(1);
  });

  it('times out a task that runs too long, then keeps serving', async () => {
    const slow = pool.run('generateTrack', { ...job, maxDurationSec: 120 }, { timeoutMs: 300 });
    const error = await slow.catch((e) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect(error.code).toBe('TIMEOUT');
    const track = await pool.run('generateTrack', { ...job, seed: 9 });
    expect(track.mp3.length).toBeGreaterThan(10_000);
  });

  it('reports a pipeline error as a failed task without killing the worker', async () => {
    const before = pool.stats().workers;
    const error = await pool.run('generateTrack', { ...job, maxDurationSec: -1 }).catch((e) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.stage).toBe('generateTrack');
    expect(pool.stats().workers).toBe(before);
  });

  it('rejects tasks after close with SHUTDOWN', async () => {
    const closing = new EngineWorkerPool({ artifacts, size: 1, niceness: 0 });
    await closing.close();
    const error = await closing.run('generateTrack', job).catch((e) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect(error.code).toBe('SHUTDOWN');
  });
});
