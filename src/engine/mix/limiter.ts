/**
 * A look-ahead true-peak limiter over a whole rendered mix (the master is held as a float buffer, see
 * master.ts), in two steps:
 *
 * - `peakMap` (once per track): the true peak of every CHUNK-sample stretch of the stereo signal, i.e. the
 *   larger of its samples and the 4x-oversampled points between them (true-peak.ts's interpolation,
 *   computed only where the signal comes within 6 dB of where the ceiling could be), so the gain passes
 *   below cost a few operations per sample.
 * - `limitPass` (once per gain tried): each sample needs `ceiling / (gain * peak of its chunk)`; the applied
 *   gain is the minimum of that need over the next W samples, released slowly upwards, then averaged over
 *   the last W samples: a ramp of W samples (1.5 ms) that is already down when the peak arrives
 *   (Sanfilippo's look-ahead construction: every average covers the peak's minimum). No clipping and no
 *   overshoot of the oversampled peak.
 */
import { interSamplePeak } from '../audio/true-peak.js';

const LOOKAHEAD_SEC = 0.0015;
const RELEASE_SEC = 0.12;
export const CHUNK = 16;

/**
 * Per-chunk true peak of `left`/`right`. Oversampling runs where a sample (or its neighbour) reaches
 * `candidate` (linear, input units); quieter stretches cannot reach the ceiling between samples.
 */
export function peakMap(left: Float32Array, right: Float32Array, candidate: number): Float32Array {
  const total = left.length;
  const map = new Float32Array(Math.ceil(total / CHUNK));
  for (let c = 0; c < map.length; c++) {
    const start = c * CHUNK;
    const end = Math.min(total, start + CHUNK);
    let peak = 0;
    for (let n = start; n < end; n++) {
      const l = Math.abs(left[n]);
      const r = Math.abs(right[n]);
      if (l > peak) peak = l;
      if (r > peak) peak = r;
      // Points between n and n+1 (the last one in a chunk reaches into the next chunk: counted here).
      if (n + 1 < total) {
        if (l >= candidate || Math.abs(left[n + 1]) >= candidate) peak = Math.max(peak, interSamplePeak(left, n));
        if (r >= candidate || Math.abs(right[n + 1]) >= candidate) peak = Math.max(peak, interSamplePeak(right, n));
      }
    }
    map[c] = peak;
  }
  return map;
}

export interface LimiterPass {
  /** Linear gain before the limiter. */
  gain: number;
  /** Linear ceiling (true peak). */
  ceiling: number;
  sampleRate: number;
  /** Linear fade-out over the last `fadeSamples` (0: none), after the limiter. */
  fadeSamples: number;
  blockSamples: number;
  onBlock(left: Float32Array, right: Float32Array): void;
}

/** Runs the limiter over `left`/`right` (not modified) with their `peaks` map; hands the output on in blocks. */
export function limitPass(left: Float32Array, right: Float32Array, peaks: Float32Array, p: LimiterPass): void {
  const total = left.length;
  const w = Math.max(1, Math.round(LOOKAHEAD_SEC * p.sampleRate));
  const release = 1 - Math.exp(-1 / (RELEASE_SEC * p.sampleRate));
  // The need of each chunk, and a monotonic deque of chunk needs for the look-ahead minimum: the window
  // [n, n + W) spans whole chunks, so the minimum over chunks touching it is exact per chunk and safe.
  const needs = new Float32Array(peaks.length);
  for (let c = 0; c < peaks.length; c++) {
    const level = peaks[c] * p.gain;
    needs[c] = level > p.ceiling ? p.ceiling / level : 1;
  }
  // The ring holds the last W released minima, for the running mean; it starts at the first window's
  // minimum so the first samples are already held down if the track opens on a peak.
  let opening = 1;
  for (let c = 0; c <= Math.min(needs.length - 1, ((w - 1) / CHUNK) | 0); c++) opening = Math.min(opening, needs[c]);
  const ring = new Float64Array(w).fill(opening);
  let ringSum = w * opening;
  let ringAt = 0;
  let released = opening;
  const outL = new Float32Array(p.blockSamples);
  const outR = new Float32Array(p.blockSamples);
  let fill = 0;
  const fadeStart = total - p.fadeSamples;
  let windowChunk = -1;
  let windowMin = 1;

  for (let n = 0; n < total; n++) {
    // Minimum need over chunks overlapping [n, n + W): recomputed when the window's first chunk changes
    // or a new chunk enters it (at most W / CHUNK + 1 reads, every CHUNK samples).
    const first = (n / CHUNK) | 0;
    const last = Math.min(needs.length - 1, ((n + w - 1) / CHUNK) | 0);
    if (first !== windowChunk || (n + w - 1) % CHUNK === 0) {
      windowChunk = first;
      windowMin = 1;
      for (let c = first; c <= last; c++) if (needs[c] < windowMin) windowMin = needs[c];
    }
    released = windowMin < released ? windowMin : released + (windowMin - released) * release;
    ringSum += released - ring[ringAt];
    ring[ringAt] = released;
    if (++ringAt === w) ringAt = 0;
    let g = (ringSum / w) * p.gain;
    if (n >= fadeStart) g *= (total - n) / p.fadeSamples;
    outL[fill] = left[n] * g;
    outR[fill] = right[n] * g;
    if (++fill === p.blockSamples || n === total - 1) {
      p.onBlock(outL.subarray(0, fill), outR.subarray(0, fill));
      fill = 0;
    }
  }
}
