/**
 * Step 3 of the feature pipeline: onset envelope -> tempo (BPM + confidence) and beat times.
 *
 * Written by hand: no permissively licensed JavaScript library does tempo estimation and beat tracking
 * (the usual references, librosa and madmom, are Python; essentia.js is AGPL).
 *
 * Tempo: global autocorrelation of the normalised onset envelope, weighted by a log-Gaussian prior centred
 * on 120 BPM (one octave standard deviation, as librosa does), and by "metrical support": a lag scores
 * higher when twice that lag is also periodic, which is what separates the beat from a hi-hat tatum.
 * The peak lag is refined by parabolic interpolation, then again from the tracked beats.
 *
 * Beats: dynamic programming after Ellis (2007), "Beat Tracking by Dynamic Programming": each frame's
 * cumulative score is its onset strength plus the best predecessor's score minus a penalty on the log ratio
 * of the gap to the tempo period; the last strong frame is back-tracked.
 */

import { normaliseEnvelope, type OnsetEnvelope } from './onsets.js';

export const MIN_BPM = 40;
export const MAX_BPM = 240;
const PRIOR_CENTRE_BPM = 120;
const PRIOR_STD_OCTAVES = 1;
/** Ellis's tightness: how strongly beat gaps are held to the tempo period. */
const BEAT_TIGHTNESS = 100;

export interface TempoEstimate {
  bpm: number;
  confidence: number; // 0..1: normalised autocorrelation at the chosen period
}

export function estimateTempo(envelope: OnsetEnvelope): TempoEstimate {
  const env = normaliseEnvelope(envelope);
  // Sharp clicks make one-frame-wide onset peaks; when the period is not a whole number of frames the
  // autocorrelation at the true lag then collapses and a slower multiple wins. A light blur restores it.
  const v = gaussianBlur(env.values, 1);
  const minLag = Math.max(1, Math.floor(60 / (MAX_BPM * env.hopSec)));
  const maxLag = Math.ceil(60 / (MIN_BPM * env.hopSec));
  if (v.length < 2 * maxLag + 1) return { bpm: 0, confidence: 0 };

  const acf = autocorrelation(v, 2 * maxLag + 2);
  if (!(acf[0] > 0)) return { bpm: 0, confidence: 0 };

  let bestLag = -1;
  let bestScore = -Infinity;
  for (let lag = minLag; lag <= maxLag; lag++) {
    if (!(acf[lag] >= acf[lag - 1] && acf[lag] >= acf[lag + 1])) continue; // peaks only
    const support = acf[lag] + 0.5 * Math.max(0, acf[2 * lag]);
    const score = support * tempoPrior(60 / (lag * env.hopSec));
    if (score > bestScore) {
      bestScore = score;
      bestLag = lag;
    }
  }
  if (bestLag < 0) return { bpm: 0, confidence: 0 };

  const lag = bestLag + parabolicOffset(acf[bestLag - 1], acf[bestLag], acf[bestLag + 1]);
  return { bpm: 60 / (lag * env.hopSec), confidence: clamp01(acf[bestLag] / acf[0]) };
}

/** Beat times in seconds for a known tempo. */
export function trackBeats(envelope: OnsetEnvelope, bpm: number): number[] {
  if (!(bpm > 0)) return [];
  const env = normaliseEnvelope(envelope);
  const period = 60 / (bpm * env.hopSec);
  const local = smoothForBeats(env.values, period);
  const n = local.length;
  const cumulative = new Float64Array(n);
  const backlink = new Int32Array(n).fill(-1);
  const searchFrom = Math.round(2 * period);
  const searchTo = Math.max(1, Math.round(period / 2));

  for (let t = 0; t < n; t++) {
    let best = -Infinity;
    let bestPrev = -1;
    for (let prev = t - searchFrom; prev <= t - searchTo; prev++) {
      if (prev < 0) continue;
      const ratio = Math.log((t - prev) / period);
      const score = cumulative[prev] - BEAT_TIGHTNESS * ratio * ratio;
      if (score > best) {
        best = score;
        bestPrev = prev;
      }
    }
    // A beat may also start a new chain when no predecessor helps (the start of the piece).
    cumulative[t] = local[t] + (bestPrev >= 0 && best > 0 ? best : 0);
    backlink[t] = bestPrev >= 0 && best > 0 ? bestPrev : -1;
  }

  const beats: number[] = [];
  for (let t = lastBeatFrame(cumulative); t >= 0; t = backlink[t]) beats.push(t);
  beats.reverse();
  return trimWeakEdges(beats, local).map((k) => env.startSec + k * env.hopSec);
}

/** Tempo from the tracked beats (least-squares slope of beat time against beat index), or undefined. */
export function tempoFromBeats(beatTimes: number[]): number | undefined {
  const n = beatTimes.length;
  if (n < 8) return undefined;
  const meanIndex = (n - 1) / 2;
  const meanTime = beatTimes.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (i - meanIndex) * (beatTimes[i] - meanTime);
    den += (i - meanIndex) ** 2;
  }
  const secondsPerBeat = num / den;
  return secondsPerBeat > 0 ? 60 / secondsPerBeat : undefined;
}

function gaussianBlur(v: Float32Array, sigma: number): Float32Array {
  return Float32Array.from(convolveGaussian(v, sigma, Math.ceil(3 * sigma)));
}

/** Convolution with a Gaussian of `sigma` frames, truncated at `radius` frames (edges see only what exists). */
function convolveGaussian(v: Float32Array, sigma: number, radius: number): Float64Array {
  const kernel = Array.from({ length: 2 * radius + 1 }, (_, i) => Math.exp(-0.5 * ((i - radius) / sigma) ** 2));
  const out = new Float64Array(v.length);
  for (let t = 0; t < v.length; t++) {
    let sum = 0;
    for (let k = -radius; k <= radius; k++) {
      const j = t + k;
      if (j >= 0 && j < v.length) sum += v[j] * kernel[k + radius];
    }
    out[t] = sum;
  }
  return out;
}

function tempoPrior(bpm: number): number {
  const octaves = Math.log2(bpm / PRIOR_CENTRE_BPM) / PRIOR_STD_OCTAVES;
  return Math.exp(-0.5 * octaves * octaves);
}

/** Unbiased autocorrelation (each lag divided by its overlap) for lags 0..maxLag. */
function autocorrelation(v: Float32Array, maxLag: number): Float64Array {
  const acf = new Float64Array(maxLag + 1);
  for (let lag = 0; lag <= maxLag && lag < v.length; lag++) {
    let sum = 0;
    for (let i = lag; i < v.length; i++) sum += v[i] * v[i - lag];
    acf[lag] = sum / (v.length - lag);
  }
  return acf;
}

/** Offset in (-0.5, 0.5) of the vertex of the parabola through three neighbouring values. */
function parabolicOffset(left: number, centre: number, right: number): number {
  const denominator = left - 2 * centre + right;
  if (denominator >= 0) return 0;
  return Math.max(-0.5, Math.min(0.5, (0.5 * (left - right)) / denominator));
}

/** Ellis smooths the onset envelope with a Gaussian a 32nd of the period wide before the search. */
function smoothForBeats(v: Float32Array, period: number): Float64Array {
  return convolveGaussian(v, Math.max(0.5, period / 32), Math.max(1, Math.round(period)));
}

/** The last local maximum of the cumulative score that is at least half the median of such maxima. */
function lastBeatFrame(cumulative: Float64Array): number {
  const maxima: number[] = [];
  for (let t = 1; t < cumulative.length - 1; t++) {
    if (cumulative[t] > cumulative[t - 1] && cumulative[t] >= cumulative[t + 1]) maxima.push(t);
  }
  if (maxima.length === 0) return cumulative.length - 1;
  const sorted = maxima.map((t) => cumulative[t]).sort((a, b) => a - b);
  const threshold = 0.5 * sorted[Math.floor(sorted.length / 2)];
  for (let i = maxima.length - 1; i >= 0; i--) if (cumulative[maxima[i]] >= threshold) return maxima[i];
  return maxima[maxima.length - 1];
}

/** Drops beats at either end that fall on near-silence (fade-ins, tails), as librosa's trim does. */
function trimWeakEdges(beats: number[], local: Float64Array): number[] {
  if (beats.length === 0) return beats;
  let sq = 0;
  for (const k of beats) sq += local[k] * local[k];
  const threshold = 0.5 * Math.sqrt(sq / beats.length);
  let start = 0;
  let end = beats.length;
  while (start < end && local[beats[start]] < threshold) start++;
  while (end > start && local[beats[end - 1]] < threshold) end--;
  return beats.slice(start, end);
}

function clamp01(x: number): number {
  return Math.max(0, Math.min(1, x));
}
