/**
 * Step 7 of the feature pipeline: frames -> a chroma fingerprint, one small integer per feature frame (46 ms
 * hop), which the safety filter aligns against a catalog track's (safety/audio-duplicate.ts).
 *
 * Each code is the set of pitch classes that lead a window of PRINT_WINDOW frames (186 ms) starting at that
 * frame: the PRINT_TOP strongest of its level-weighted chroma that reach PRINT_PEAK of the strongest, as
 * bits 0-11 (C first). A window under a tenth of the piece's mean level is 0 (silence is no evidence).
 * Overlapping windows keep the codes steady when a copy is offset by a fraction of a frame (an MP3 encoder's
 * delay, a trim). Why this and not the beat chords alone: an 8-second catalog track holds 3-13 beats, too few
 * to tell a copy from a track in the same key (issue 18), while it holds some 170 codes; and the leading notes
 * of a window follow the melody and the voicing, which a per-beat triad label does not.
 */
import { CHROMA_BINS, type FrameFeatures } from './frames.js';

/** Feature frames a code summarises (4 x 1024 samples at 22050 Hz: 186 ms); one code per frame. */
export const PRINT_WINDOW = 4;
/** Pitch classes a code names at most. */
export const PRINT_TOP = 3;
/** A pitch class is named when its chroma reaches this share of the window's strongest. */
export const PRINT_PEAK = 0.5;
/** Codes kept: the first two minutes (2584 codes); a copy is judged on its opening as well as on its whole. */
export const PRINT_MAX_CODES = 2584;
/** Windows quieter than this share of the piece's mean frame RMS are silence (code 0). */
const SILENCE_SHARE = 0.1;

export function fingerprint(frames: FrameFeatures): number[] {
  const { rms, chroma } = frames;
  const frameCount = Math.min(frames.frameCount, PRINT_MAX_CODES + PRINT_WINDOW - 1);
  let meanRms = 0;
  for (let f = 0; f < frames.frameCount; f++) meanRms += rms[f];
  meanRms /= Math.max(1, frames.frameCount);

  const codes: number[] = [];
  const sum = new Float64Array(CHROMA_BINS);
  const order = Array.from({ length: CHROMA_BINS }, (_, c) => c);
  for (let start = 0; start + PRINT_WINDOW <= frameCount; start++) {
    sum.fill(0);
    let level = 0;
    for (let f = start; f < start + PRINT_WINDOW; f++) {
      level += rms[f];
      for (let c = 0; c < CHROMA_BINS; c++) sum[c] += rms[f] * chroma[f * CHROMA_BINS + c];
    }
    if (level === 0 || level / PRINT_WINDOW < SILENCE_SHARE * meanRms) {
      codes.push(0);
      continue;
    }
    order.sort((a, b) => sum[b] - sum[a] || a - b);
    const strongest = sum[order[0]];
    let code = 0;
    for (let k = 0; k < PRINT_TOP; k++) if (sum[order[k]] >= PRINT_PEAK * strongest) code |= 1 << order[k];
    codes.push(code);
  }
  return codes;
}
