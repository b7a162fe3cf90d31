/**
 * The master chain: the whole mix, held as a float buffer, is brought to a loudness target with a true-peak
 * ceiling. Loudness (BS.1770, audio/loudness.ts) depends on the limiter's work, so the gain is found by
 * measuring whole passes of gain -> limiter -> fade: each pass moves the gain by the remaining error, scaled
 * by the loudness gained per dB in the passes so far (a secant step; the limiter only ever lowers loudness,
 * so music converges from the first estimate in one or two passes);
 * the last pass hands its blocks to the encoder. Silence is passed through untouched.
 */
import { LoudnessMeter } from '../audio/loudness.js';
import { limitPass, peakMap } from './limiter.js';

const BLOCK_SAMPLES = 8192;
const MAX_PASSES = 5;
/**
 * Interpolate between samples that could come within 6 dB of the ceiling at up to 3 dB more gain than
 * first guessed (music's inter-sample peaks exceed their neighbouring samples by far less than 6 dB); a
 * pass that needs more gain than that rebuilds the map.
 */
const CANDIDATE_HEADROOM = 0.5 / Math.SQRT2;
const MAP_GAIN_RANGE = Math.SQRT2;
/**
 * How near the measured loudness must be before the final step goes to the encoder unmeasured. Each
 * measured pass costs about 3% of a track's CPU; the tolerance is 1 LU on the decoded MP3.
 */
const TOLERANCE_LU = 0.3;

export interface MasterOptions {
  sampleRate: number;
  targetLufs: number;
  ceilingDbtp: number;
  fadeOutSec: number;
}

export interface MasterResult {
  /** Gain applied before the limiter, dB. */
  gainDb: number;
  /** Integrated loudness of what was handed on, LUFS (null for silence). */
  lufs: number | null;
  passes: number;
}

/** Masters `left`/`right` (read only) and hands the result to `onBlock` in blocks, in order. */
export function masterBuffer(left: Float32Array, right: Float32Array, opts: MasterOptions, onBlock: (l: Float32Array, r: Float32Array) => void): MasterResult {
  // 0.01 dB under the ceiling: the limiter lands exactly on it, and float32 rounding may not.
  const ceiling = 10 ** ((opts.ceilingDbtp - 0.01) / 20);
  const fadeSamples = Math.min(left.length, Math.round(opts.fadeOutSec * opts.sampleRate));
  let peaks: Float32Array | null = null;
  let peaksGain = 0;
  const pass = (gainDb: number, sink?: (l: Float32Array, r: Float32Array) => void, measure = true): number | null => {
    const gain = 10 ** (gainDb / 20);
    if (!peaks || gain > peaksGain) {
      peaksGain = MAP_GAIN_RANGE * gain;
      peaks = peakMap(left, right, (ceiling * CANDIDATE_HEADROOM) / gain);
    }
    const meter = new LoudnessMeter(opts.sampleRate, 2);
    limitPass(left, right, peaks, {
      gain,
      ceiling,
      sampleRate: opts.sampleRate,
      fadeSamples,
      blockSamples: BLOCK_SAMPLES,
      onBlock(l, r) {
        if (measure) meter.push([l, r], l.length);
        sink?.(l, r);
      },
    });
    return measure ? meter.integrated() : null;
  };

  const input = new LoudnessMeter(opts.sampleRate, 2);
  for (let at = 0; at < left.length; at += BLOCK_SAMPLES) {
    const end = Math.min(left.length, at + BLOCK_SAMPLES);
    input.push([left.subarray(at, end), right.subarray(at, end)], end - at);
  }
  const measured = input.integrated();
  if (measured === null) {
    for (let at = 0; at < left.length; at += BLOCK_SAMPLES) onBlock(left.subarray(at, at + BLOCK_SAMPLES), right.subarray(at, at + BLOCK_SAMPLES));
    return { gainDb: 0, lufs: null, passes: 0 };
  }
  let gainDb = opts.targetLufs - measured;
  let previous: { gainDb: number; lufs: number } | null = null;
  for (let passes = 1; passes <= MAX_PASSES; passes++) {
    const lufs = pass(gainDb)!;
    const error = opts.targetLufs - lufs;
    // Secant step: a limiter that is working hard turns 1 dB of gain into less than 1 LU of loudness.
    const slope = previous && gainDb !== previous.gainDb ? (lufs - previous.lufs) / (gainDb - previous.gainDb) : 1;
    const step = error / Math.min(1, Math.max(0.2, slope));
    // Near enough: the last small step goes straight to the encoder, unmeasured (a step of a few tenths of
    // a dB moves loudness by the step or a little less), instead of another measured pass of the whole track.
    if (Math.abs(error) <= TOLERANCE_LU) {
      pass(gainDb + step, onBlock, false);
      return { gainDb: gainDb + step, lufs: lufs + step * Math.min(1, Math.max(0, slope)), passes: passes + 1 };
    }
    previous = { gainDb, lufs };
    gainDb += step;
  }
  const lufs = pass(gainDb, onBlock);
  return { gainDb, lufs, passes: MAX_PASSES + 1 };
}
