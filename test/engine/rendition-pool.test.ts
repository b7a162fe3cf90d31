/**
 * Upload renditions render on an engine worker thread, never on the API's: the task reports the thread it
 * ran on, and its bytes reach the caller in bounded batches, in order, each taken before the next is made.
 * Joined, the batches are whole MP3s at each bitrate, of the master's length (resampled and folded down
 * when the master needs it).
 */
import { threadId } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { parseMp3 } from '../../src/engine/audio/mp3-frames.js';
import { RenditionPool, type RenditionChunks } from '../../src/engine/worker/rendition-pool.js';
import { pcmWav } from '../platform/uploads-support.js';

describe('RenditionPool', () => {
  const pool = new RenditionPool({ size: 1, sliceFrames: 4096, niceness: 0 });
  afterAll(() => pool.close());

  async function render(master: Buffer) {
    const batches: RenditionChunks[] = [];
    let taking = false;
    const result = await pool.render(master, 'wav', [128, 320], async (chunks) => {
      expect(taking).toBe(false); // one batch at a time: the worker waits for each to be taken
      taking = true;
      await new Promise((resolve) => setTimeout(resolve, 5));
      batches.push(chunks);
      taking = false;
    });
    const joined = (kbps: number) => Buffer.concat(batches.flatMap((batch) => batch.filter((c) => c.bitrateKbps === kbps).map((c) => c.bytes)));
    return { result, batches, joined };
  }

  it('renders on a worker thread and hands the bytes over in bounded batches that join into whole MP3s', async () => {
    const seconds = 12;
    const { result, batches, joined } = await render(pcmWav({ rate: 44100, channels: 2, frames: 44100 * seconds }));
    expect(result.threadId).not.toBe(threadId);
    expect(result.threadId).toBeGreaterThan(0);
    expect(result.frames).toBe(44100 * seconds);
    expect(batches.length).toBeGreaterThan(2);
    for (const batch of batches) for (const chunk of batch) expect(chunk.bytes.length).toBeLessThan(128 * 1024);
    for (const kbps of [128, 320]) {
      const mp3 = parseMp3(joined(kbps));
      expect(mp3.skipped.truncatedTail).toBe(false);
      expect(new Set(mp3.frames.map((f) => f.bitrateKbps))).toEqual(new Set([kbps]));
      const duration = mp3.frames.reduce((sum, f) => sum + f.durationMs, 0) / 1000;
      expect(Math.abs(duration - seconds)).toBeLessThan(0.2);
    }
  }, 120_000);

  it('resamples an 8 kHz mono master and folds six channels down, still on the worker', async () => {
    const low = await render(pcmWav({ rate: 8000, channels: 1, frames: 8000 * 3 }));
    expect(low.result.threadId).not.toBe(threadId);
    const lowMp3 = parseMp3(low.joined(128));
    expect(lowMp3.frames[0].sampleRate).toBe(44100);
    expect(Math.abs(lowMp3.frames.reduce((sum, f) => sum + f.durationMs, 0) / 1000 - 3)).toBeLessThan(0.2);

    const surround = await render(pcmWav({ rate: 48000, channels: 6, frames: 48000 * 2 }));
    expect(surround.result.frames).toBe(48000 * 2);
    expect(parseMp3(surround.joined(320)).frames[0].sampleRate).toBe(48000);
  }, 120_000);
});
