/**
 * Segues like a radio, on synthetic tracks through the real playout (decode, gain, fades, limiter, LAME) and
 * decoded back: the next track comes in where the outgoing one falls 6 dB under its body (not at the end of
 * its fade), the overlap is crossfade_sec, a quiet intro is lifted by at most 6 dB, the short-term loudness
 * across the join stays within 6 LU of the station level, and a track with a 2.5 s hole is cut after 2 s
 * of it, the next one following at once.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_RENDER_HOLE_SEC, analyseTrack, longestHoleSec, type TrackAnalysis } from '../../src/engine/audio/track-analysis.js';
import { encodeWav } from '../../src/engine/audio/encode.js';
import { Playout, type SourceTrack, type TrackMarker } from '../../src/station/stream/playout.js';
import { RATE, decodeMp3, shortTermLoudness, toneAmplitude, tonePcm } from './playout-support.js';

const STATION_LUFS = -14;

function wav(...parts: Float32Array[]): Buffer {
  const pcm = new Float32Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    pcm.set(part, at);
    at += part.length;
  }
  return encodeWav(pcm, pcm);
}

interface Aired {
  left: Float32Array;
  right: Float32Array;
  markers: TrackMarker[];
  errors: unknown[];
}

/** Plays `files` in order at `crossfadeSec` and decodes `seconds` of the encoded stream. */
async function air(files: { id: string; file: Buffer }[], crossfadeSec: number, seconds: number): Promise<Aired> {
  let index = 0;
  const errors: unknown[] = [];
  const playout = new Playout(
    {
      next: async (): Promise<SourceTrack | null> => {
        const entry = files[index++];
        return entry ? { id: entry.id, title: entry.id, bitrateKbps: 128, crossfadeSec, read: async () => entry.file } : null;
      },
    },
    {
      bitrateKbps: 128,
      prefetchMs: 15_000,
      retryMs: 60_000,
      crossfadeSec,
      targetLufs: STATION_LUFS,
      ceilingDbtp: -1,
      now: () => 0,
      onError: (error) => errors.push(error),
    },
  );
  const target = Math.ceil((seconds * RATE) / 1152);
  const frames: Buffer[] = [];
  while (frames.length < target) {
    await playout.pump(64, 0);
    await playout.idle();
    for (let frame = playout.takeFrame(); frame; frame = playout.takeFrame()) frames.push(frame);
  }
  playout.stop();
  const { left, right } = await decodeMp3(Buffer.concat(frames));
  return { left, right, markers: playout.markers, errors };
}

const marker = (a: Aired, id: string) => a.markers.find((m) => m.id === id)!;
const db = (ratio: number) => 20 * Math.log10(ratio);

describe('a segue from a track with a long fade-out into one with a quiet intro', () => {
  // A: 8 s of body, then a 10 s fade-out (linear in dB to -60 dB). B: a 4 s intro 10 dB under its 8 s body.
  const fading = wav(tonePcm({ frequencyHz: 330, amplitude: 0.25, seconds: 18, fadeOutSec: 10 }));
  const quietIntro = wav(
    tonePcm({ frequencyHz: 440, amplitude: 0.25 * 10 ** (-10 / 20), seconds: 4 }),
    tonePcm({ frequencyHz: 440, amplitude: 0.25, seconds: 8 }),
  );
  let aired: Aired;
  let a: TrackAnalysis;
  beforeAll(async () => {
    a = await analyseTrack(fading, 'wav');
    aired = await air(
      [
        { id: 'a', file: fading },
        { id: 'b', file: quietIntro },
      ],
      3,
      26,
    );
  }, 60_000);

  it('starts the next track where the outgoing one falls 6 dB under its body, and overlaps them by crossfade_sec', () => {
    expect(aired.errors).toEqual([]);
    const [first, second] = [marker(aired, 'a'), marker(aired, 'b')];
    // The fade passes -6 dB 1 s into it: 9 s into the track (8.9-9.2 s with the analysis' 400 ms windows).
    const segueSec = (second.startSample - first.startSample) / RATE;
    expect(segueSec).toBeCloseTo(a.soundEndSec - a.soundStartSec - a.outroSec, 2);
    expect(segueSec).toBeGreaterThan(8.8);
    expect(segueSec).toBeLessThan(9.3);
    // Before, B came in under A's last 3 s, 15 s in, after A had faded for 7 s.
    const overlapSec = (first.endSample! - second.startSample) / RATE;
    expect(overlapSec).toBeGreaterThan(2.5);
    expect(overlapSec).toBeLessThan(3.5);
    // The rest of A's fade never airs: no 330 Hz a second after its end.
    const after = first.endSample! + RATE;
    expect(toneAmplitude(aired.left, 330, after, RATE)).toBeLessThan(0.001);
  });

  it('lifts the quiet intro by 6 dB, not by the full 10 dB it lies under the body', () => {
    const start = marker(aired, 'b').startSample;
    // Before the lift ramps back to 0 dB over the intro's last second (B's tone apart from A's by its frequency).
    const intro = toneAmplitude(aired.left, 440, start + Math.round(2 * RATE), Math.round(0.8 * RATE));
    const body = toneAmplitude(aired.left, 440, start + Math.round(6 * RATE), Math.round(0.5 * RATE));
    expect(db(intro / body)).toBeGreaterThan(-10 + 6 - 0.5);
    expect(db(intro / body)).toBeLessThan(-10 + 6 + 0.5);
  });

  it('keeps the short-term loudness (3 s) across the join within 6 LU of the station level', () => {
    const [first, second] = [marker(aired, 'a'), marker(aired, 'b')];
    const from = first.startSample + 2 * RATE;
    const to = second.startSample + 10 * RATE;
    const windows = shortTermLoudness(aired.left, aired.right).filter(([at]) => at >= from && at + 3 * RATE <= to);
    expect(windows.length).toBeGreaterThan(100);
    const levels = windows.map(([, lufs]) => lufs);
    expect(Math.min(...levels)).toBeGreaterThan(STATION_LUFS - 6);
    expect(Math.max(...levels)).toBeLessThan(STATION_LUFS + 6);
  });
});

describe('the silence detector on air', () => {
  it('takes a track with a 2.5 s hole off the air after 2 s of it, and the next one follows at once', async () => {
    const holed = wav(
      tonePcm({ frequencyHz: 330, amplitude: 0.25, seconds: 3 }),
      new Float32Array(Math.round(2.5 * RATE)),
      tonePcm({ frequencyHz: 660, amplitude: 0.25, seconds: 6 }),
    );
    const next = wav(tonePcm({ frequencyHz: 550, amplitude: 0.25, seconds: 6 }));
    const aired = await air(
      [
        { id: 'holed', file: holed },
        { id: 'next', file: next },
      ],
      3,
      12,
    );
    expect(aired.errors).toEqual([]);
    const [first, second] = [marker(aired, 'holed'), marker(aired, 'next')];
    const cutSec = (first.endSample! - first.startSample) / RATE;
    expect(cutSec).toBeGreaterThanOrEqual(5);
    expect(cutSec).toBeLessThan(5.15); // detected at 2 s into the hole, cut at the end of that block
    expect(second.startSample).toBe(first.endSample);
    // What came after the hole never aired; the next track did, right away.
    for (let at = first.startSample; at + RATE < aired.left.length; at += RATE / 2) {
      expect(toneAmplitude(aired.left, 660, at, RATE / 2)).toBeLessThan(0.002);
    }
    expect(toneAmplitude(aired.left, 550, second.startSample + RATE / 10, RATE / 2)).toBeGreaterThan(0.1);
  }, 60_000);
});

describe('the pipeline rejects renders with a hole', () => {
  const tone = (seconds: number) => tonePcm({ frequencyHz: 440, amplitude: 0.25, seconds });
  const silence = (seconds: number) => new Float32Array(Math.round(seconds * RATE));

  it('measures the longest run under -50 dBFS after the first sound, leaving out leading and trailing silence', async () => {
    const holed = await longestHoleSec(wav(silence(2), tone(2), silence(1.2), tone(2), silence(0.4), tone(1), silence(3)), 'wav');
    expect(holed).toBeCloseTo(1.2, 2);
    expect(holed).toBeGreaterThan(MAX_RENDER_HOLE_SEC); // rejected
    const gap = await longestHoleSec(wav(tone(2), silence(0.9), tone(2)), 'wav'); // "Last Call Vamp": 0.9 s, kept
    expect(gap).toBeCloseTo(0.9, 2);
    expect(gap).toBeLessThanOrEqual(MAX_RENDER_HOLE_SEC);
    // Quiet is not a hole: -45 dBFS passes.
    expect(await longestHoleSec(wav(tone(1), tonePcm({ frequencyHz: 440, amplitude: 10 ** (-45 / 20), seconds: 3 }), tone(1)), 'wav')).toBeLessThan(0.01);
  });
});
