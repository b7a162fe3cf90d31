import { afterAll, describe, expect, it } from 'vitest';
import { RenderWorkerPool } from '../../../src/engine/music/worker-pool.js';
import { GenerationFailedError } from '../../../src/engine/music/errors.js';
import { emptyAudioModel } from '../../../src/engine/music/audio-model.js';
import type { GenerateTrackRequest } from '../../../src/engine/music/pipeline.js';
import { LOFI_CONTEXT, parseMp3Frames } from './helpers.js';

const request: GenerateTrackRequest = {
  context: LOFI_CONTEXT,
  seed: 7,
  maxDurationSec: 8,
  quality: '128kbps',
  model: emptyAudioModel(),
  modelVersion: 'audio-test-1',
};

describe('render worker pool', () => {
  const pool = new RenderWorkerPool({ size: 1, allowFaultInjection: true, jobTimeoutMs: 60_000 });
  afterAll(() => pool.close());

  it('renders in a worker thread with progress', async () => {
    const progress: number[] = [];
    const track = await pool.generate(request, (pct) => progress.push(pct));
    expect(Buffer.isBuffer(track.mp3)).toBe(true);
    expect(Math.abs(parseMp3Frames(track.mp3!).durationSec - 8)).toBeLessThan(0.5);
    expect(progress.at(-1)).toBe(100);
  });

  it('fails only the crashed job; the queued job runs on a replacement worker', async () => {
    const crashed = pool.generate(request, undefined, { injectFault: 'crash' });
    const next = pool.generate({ ...request, seed: 8 });
    const error = await crashed.catch((e) => e);
    expect(error).toBeInstanceOf(GenerationFailedError);
    expect(error.reason).toBe('crash');
    const track = await next;
    expect(track.mp3!.length).toBeGreaterThan(10_000);
    expect(pool.stats().workers).toBe(1);
  });

  it('times out a job that runs too long, then keeps serving', async () => {
    const slow = pool.generate({ ...request, maxDurationSec: 120 }, undefined, { timeoutMs: 300 });
    const error = await slow.catch((e) => e);
    expect(error).toBeInstanceOf(GenerationFailedError);
    expect(error.reason).toBe('timeout');
    const track = await pool.generate({ ...request, seed: 9 });
    expect(track.mp3!.length).toBeGreaterThan(10_000);
  });

  it('reports a pipeline error as a failed job without killing the worker', async () => {
    const error = await pool.generate({ ...request, maxDurationSec: -1 }).catch((e) => e);
    expect(error).toBeInstanceOf(GenerationFailedError);
    expect(error.reason).toBe('error');
  });
});
