/**
 * Step 7 of the feature pipeline: AudioFeatures -> a fixed-length numeric vector for the near-duplicate
 * check and as the input of the style embedding (src/engine/style).
 *
 * Every entry is scaled by fixed constants (no data-dependent statistics), so vectors computed today and
 * next year are comparable; most entries land roughly in [-1, 1]. Harmony is made key-invariant by rotating
 * the chroma to the detected tonic: a song and its transposition are the same style.
 *
 * Layout (FEATURE_VECTOR_NAMES gives each index a name):
 *   0     tempo            log2(bpm / 120), clipped to [-2, 2]; 0 when no tempo was found
 *   1     tempoConfidence  0..1
 *   2     mode             +keyConfidence for major, -keyConfidence for minor (clipped at 0)
 *   3     keyConfidence    -1..1
 *   4-15  chromaFromTonic  12 * chroma[(tonic + i) % 12] - 1: 0 means an evenly spread pitch class
 *   16-28 mfccMean         signed log1p(|x|) / 4
 *   29-41 mfccStd          log1p(x) / 3
 *   42    loudness         (dBFS + 60) / 60, clipped to 0..1
 *   43    energy           0..1
 *   44    brightness       log2(centroid / 2000 Hz) / 3, clipped to [-1, 1]
 *   45    onsetDensity     log1p(onsets per second) / log1p(16), clipped to 0..1
 *   46    chordChangeRate  share of consecutive labelled beats whose chord differs
 *   47    minorChordShare  share of labelled beats that are minor triads
 *   48    noChordShare     share of beats labelled "N"
 */

import type { AudioFeatures } from '../types.js';
import { PITCH_CLASSES } from './key.js';
import { NO_CHORD } from './chords.js';

const MFCC_NAMES = (prefix: string) => Array.from({ length: 13 }, (_, i) => `${prefix}${i}`);

export const FEATURE_VECTOR_NAMES: readonly string[] = [
  'tempo',
  'tempoConfidence',
  'mode',
  'keyConfidence',
  ...Array.from({ length: 12 }, (_, i) => `chromaFromTonic${i}`),
  ...MFCC_NAMES('mfccMean'),
  ...MFCC_NAMES('mfccStd'),
  'loudness',
  'energy',
  'brightness',
  'onsetDensity',
  'chordChangeRate',
  'minorChordShare',
  'noChordShare',
];

export const FEATURE_VECTOR_LENGTH = FEATURE_VECTOR_NAMES.length; // 49

export function featureVector(f: AudioFeatures): number[] {
  const tonic = Math.max(0, PITCH_CLASSES.indexOf(f.key as (typeof PITCH_CLASSES)[number]));
  const vector = [
    f.tempoBpm > 0 ? clamp(Math.log2(f.tempoBpm / 120), -2, 2) : 0,
    clamp(f.tempoConfidence, 0, 1),
    (f.mode === 'major' ? 1 : -1) * Math.max(0, f.keyConfidence),
    clamp(f.keyConfidence, -1, 1),
    ...Array.from({ length: 12 }, (_, i) => 12 * (f.chroma[(tonic + i) % 12] ?? 0) - 1),
    ...f.mfccMean.map((x) => (Math.sign(x) * Math.log1p(Math.abs(x))) / 4),
    ...f.mfccStd.map((x) => Math.log1p(Math.max(0, x)) / 3),
    clamp((f.loudnessDb + 60) / 60, 0, 1),
    clamp(f.energy, 0, 1),
    f.spectralCentroidHz > 0 ? clamp(Math.log2(f.spectralCentroidHz / 2000) / 3, -1, 1) : -1,
    clamp(Math.log1p(Math.max(0, f.onsetRate)) / Math.log1p(16), 0, 1),
    ...chordStatistics(f.beatChords),
  ];
  if (vector.length !== FEATURE_VECTOR_LENGTH) {
    throw new RangeError(`feature vector has ${vector.length} entries, expected ${FEATURE_VECTOR_LENGTH}`);
  }
  // Defensive: a NaN here would silently poison every distance and every gradient downstream.
  return vector.map((x) => (Number.isFinite(x) ? x : 0));
}

function chordStatistics(chords: string[]): [number, number, number] {
  if (chords.length === 0) return [0, 0, 1];
  const labelled = chords.filter((c) => c !== NO_CHORD);
  let changes = 0;
  for (let i = 1; i < labelled.length; i++) if (labelled[i] !== labelled[i - 1]) changes++;
  return [
    labelled.length > 1 ? changes / (labelled.length - 1) : 0,
    labelled.length > 0 ? labelled.filter((c) => c.endsWith('m')).length / labelled.length : 0,
    (chords.length - labelled.length) / chords.length,
  ];
}

function clamp(x: number, lo: number, hi: number): number {
  return Math.max(lo, Math.min(hi, x));
}
