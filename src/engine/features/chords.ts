/**
 * Step 5 of the feature pipeline: frame chroma + beat times -> one chord label per beat.
 *
 * Chroma is averaged between consecutive beats, then matched (cosine similarity) against 24 triad
 * templates. The templates include the first harmonics of each chord tone with decaying weight
 * (Gomez 2006 style), because real and synthesised instruments put energy on the fifth and major third
 * above every note; a plain 0/1 triad template would then confuse C with Em or Am with C.
 * A beat is labelled "N" (no chord) when it is near-silent or no template fits well.
 */

import { CHROMA_BINS } from './frames.js';
import { PITCH_CLASSES, withHarmonics } from './key.js';

export const NO_CHORD = 'N';
const MIN_SIMILARITY = 0.6;
/** Beats quieter than this fraction of the piece's mean frame RMS carry no chord. */
const SILENCE_FRACTION = 0.1;

interface ChordTemplate {
  label: string;
  vector: number[]; // unit length
}

const TEMPLATES: ChordTemplate[] = buildTemplates();

function buildTemplates(): ChordTemplate[] {
  const templates: ChordTemplate[] = [];
  for (let root = 0; root < 12; root++) {
    for (const [suffix, third] of [
      ['', 4],
      ['m', 3],
    ] as const) {
      const triad = new Array<number>(12).fill(0);
      for (const interval of [0, third, 7]) triad[(root + interval) % 12] = 1;
      const vector = withHarmonics(triad);
      templates.push({ label: PITCH_CLASSES[root] + suffix, vector: unit(vector) });
    }
  }
  return templates;
}

export interface ChordInput {
  /** frameCount x 12 chroma, row-major. */
  chroma: Float32Array;
  rms: Float32Array;
  hopSec: number;
  /** Time of feature frame 0's centre. */
  startSec: number;
}

/** Labels each inter-beat segment [beat i, beat i+1); the last beat runs one median beat length. */
export function beatChords(frames: ChordInput, beatTimes: number[]): string[] {
  if (beatTimes.length === 0) return [];
  const frameCount = frames.rms.length;
  let meanRms = 0;
  for (const r of frames.rms) meanRms += r;
  meanRms /= Math.max(1, frameCount);
  const beatLength = medianGap(beatTimes);

  return beatTimes.map((start, i) => {
    const end = i + 1 < beatTimes.length ? beatTimes[i + 1] : start + beatLength;
    const first = Math.max(0, Math.round((start - frames.startSec) / frames.hopSec));
    const last = Math.min(frameCount - 1, Math.max(first, Math.round((end - frames.startSec) / frames.hopSec) - 1));
    const mean = new Array<number>(CHROMA_BINS).fill(0);
    let rms = 0;
    let count = 0;
    for (let f = first; f <= last && f < frameCount; f++) {
      // Weight frames by level so a chord's decay tail does not outvote its attack.
      const w = frames.rms[f];
      for (let c = 0; c < CHROMA_BINS; c++) mean[c] += w * frames.chroma[f * CHROMA_BINS + c];
      rms += w;
      count++;
    }
    if (count === 0 || rms / count < SILENCE_FRACTION * meanRms) return NO_CHORD;
    return labelChroma(mean);
  });
}

/** The best-matching triad for one chroma vector, or "N". */
export function labelChroma(chroma: number[]): string {
  const v = unit(chroma);
  let best = NO_CHORD;
  let bestSimilarity = MIN_SIMILARITY;
  for (const t of TEMPLATES) {
    let dot = 0;
    for (let i = 0; i < 12; i++) dot += v[i] * t.vector[i];
    if (dot > bestSimilarity) {
      bestSimilarity = dot;
      best = t.label;
    }
  }
  return best;
}

function unit(v: number[]): number[] {
  const norm = Math.hypot(...v);
  return norm > 0 ? v.map((x) => x / norm) : v.map(() => 0);
}

function medianGap(times: number[]): number {
  if (times.length < 2) return 0.5;
  const gaps = times
    .slice(1)
    .map((t, i) => t - times[i])
    .sort((a, b) => a - b);
  return gaps[Math.floor(gaps.length / 2)];
}
