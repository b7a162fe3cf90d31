/**
 * Step 4 of the feature pipeline: mean chroma -> key, mode and confidence.
 *
 * Krumhansl-Schmuckler key finding: the Pearson correlation of a pitch-class distribution with a key
 * profile rotated to each of the 12 tonics, for major and minor (24 keys). The best correlation is the
 * confidence (-1..1), as stored in AudioFeatures.keyConfidence.
 *
 * estimateKey defaults to the textbook Krumhansl & Kessler (1982) probe-tone profiles. The feature pipeline
 * passes AUDIO_KEY_PROFILES instead, which differ in two ways, both measured on generated tracks
 * (bench/key-diagnostics.ts: 33 of 42 renders in the asked key, against 15 of 42 with Krumhansl-Kessler):
 *  - Albrecht & Shanahan's (2013) corpus profiles. The probe-tone ratings rate the fifth almost as high as
 *    the tonic and the other scale tones only a little above the chromatic ones, so music that dwells on I
 *    and V was read in the key of V, and minor keys in their relative major.
 *  - compared as audio shows them: every pitch class also sounds its first harmonics (octave, twelfth, ...),
 *    as in the chord templates (Gomez 2006). Instruments put energy a fifth above every note, which would
 *    otherwise pull the estimate one step sharp on the circle of fifths.
 */

import type { Mode } from '../types.js';

export const PITCH_CLASSES = ['C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#', 'A', 'A#', 'B'] as const;

/** Harmonics assumed per note in audio chroma, and the weight ratio between consecutive ones. */
const CHROMA_HARMONICS = 4;
const CHROMA_HARMONIC_DECAY = 0.6;

/** Expected pitch-class weights of a major and a minor key, tonic first. */
export interface KeyProfiles {
  major: readonly number[];
  minor: readonly number[];
}

/** Krumhansl & Kessler (1982) probe-tone ratings. */
export const KRUMHANSL_KESSLER: KeyProfiles = {
  major: [6.35, 2.23, 3.48, 2.33, 4.38, 4.09, 2.52, 5.19, 2.39, 3.66, 2.29, 2.88],
  minor: [6.33, 2.68, 3.52, 5.38, 2.6, 3.53, 2.54, 4.75, 3.98, 2.69, 3.34, 3.17],
};

/** Albrecht & Shanahan (2013): pitch-class distributions of a corpus of major and minor pieces. */
export const ALBRECHT_SHANAHAN: KeyProfiles = {
  major: [0.238, 0.006, 0.111, 0.006, 0.137, 0.094, 0.016, 0.214, 0.009, 0.08, 0.008, 0.081],
  minor: [0.22, 0.006, 0.104, 0.123, 0.019, 0.103, 0.012, 0.214, 0.062, 0.022, 0.061, 0.052],
};

/** The chroma that pitch-class weights produce when each note also sounds its harmonics. */
export function withHarmonics(pitchClassWeights: readonly number[]): number[] {
  const out = new Array<number>(12).fill(0);
  pitchClassWeights.forEach((w, pc) => {
    for (let h = 1; h <= CHROMA_HARMONICS; h++) out[(pc + Math.round(12 * Math.log2(h))) % 12] += w * CHROMA_HARMONIC_DECAY ** (h - 1);
  });
  return out;
}

/** Key profiles for chroma measured from audio: corpus profiles with harmonics. */
export const AUDIO_KEY_PROFILES: KeyProfiles = {
  major: withHarmonics(ALBRECHT_SHANAHAN.major),
  minor: withHarmonics(ALBRECHT_SHANAHAN.minor),
};

export interface KeyEstimate {
  key: string;
  tonic: number; // pitch class index, C = 0
  mode: Mode;
  confidence: number;
}

export function estimateKey(chroma: ArrayLike<number>, profiles: KeyProfiles = KRUMHANSL_KESSLER): KeyEstimate {
  if (chroma.length !== 12) throw new RangeError(`chroma must have 12 bins, got ${chroma.length}`);
  let best: KeyEstimate = { key: 'C', tonic: 0, mode: 'major', confidence: 0 };
  let bestR = -Infinity;
  for (const mode of ['major', 'minor'] as const) {
    const profile = profiles[mode];
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
