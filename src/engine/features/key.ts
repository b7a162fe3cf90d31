/**
 * Step 4 of the feature pipeline: mean chroma -> key, mode and confidence.
 *
 * Krumhansl-Schmuckler key finding: the Pearson correlation of the piece's mean chroma with the
 * Krumhansl-Kessler probe-tone profiles rotated to each of the 12 tonics, for major and minor (24 keys).
 * The best correlation is the confidence (-1..1), as stored in AudioFeatures.keyConfidence.
 */

import type { Mode } from '../types.js';

export const PITCH_CLASSES = ['C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#', 'A', 'A#', 'B'] as const;

/** Krumhansl & Kessler (1982) probe-tone ratings, tonic first. */
const MAJOR_PROFILE = [6.35, 2.23, 3.48, 2.33, 4.38, 4.09, 2.52, 5.19, 2.39, 3.66, 2.29, 2.88];
const MINOR_PROFILE = [6.33, 2.68, 3.52, 5.38, 2.6, 3.53, 2.54, 4.75, 3.98, 2.69, 3.34, 3.17];

export interface KeyEstimate {
  key: string;
  tonic: number; // pitch class index, C = 0
  mode: Mode;
  confidence: number;
}

export function estimateKey(chroma: ArrayLike<number>): KeyEstimate {
  if (chroma.length !== 12) throw new RangeError(`chroma must have 12 bins, got ${chroma.length}`);
  let best: KeyEstimate = { key: 'C', tonic: 0, mode: 'major', confidence: 0 };
  let bestR = -Infinity;
  for (const [mode, profile] of [['major', MAJOR_PROFILE], ['minor', MINOR_PROFILE]] as const) {
    for (let tonic = 0; tonic < 12; tonic++) {
      const rotated = Array.from({ length: 12 }, (_, pc) => profile[(pc - tonic + 12) % 12]);
      const r = pearson(chroma, rotated);
      if (r > bestR) {
        bestR = r;
        best = { key: PITCH_CLASSES[tonic], tonic, mode, confidence: r };
      }
    }
  }
  // A flat chroma (silence, pure noise) correlates with nothing; report zero rather than NaN.
  if (!Number.isFinite(bestR)) return { key: 'C', tonic: 0, mode: 'major', confidence: 0 };
  return best;
}

function pearson(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const n = a.length;
  let meanA = 0;
  let meanB = 0;
  for (let i = 0; i < n; i++) {
    meanA += a[i];
    meanB += b[i];
  }
  meanA /= n;
  meanB /= n;
  let cov = 0;
  let varA = 0;
  let varB = 0;
  for (let i = 0; i < n; i++) {
    cov += (a[i] - meanA) * (b[i] - meanB);
    varA += (a[i] - meanA) ** 2;
    varB += (b[i] - meanB) ** 2;
  }
  const den = Math.sqrt(varA * varB);
  return den > 0 ? cov / den : NaN;
}
