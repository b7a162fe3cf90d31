import { describe, expect, it } from 'vitest';
import { AudioTooShortError } from '../../../src/engine/features/errors.js';
import { extractFeatures } from '../../../src/engine/features/extract.js';
import { FEATURE_VECTOR_LENGTH, FEATURE_VECTOR_NAMES, featureVector } from '../../../src/engine/features/vector.js';
import { chordTrack, SR } from './synth.js';

describe('feature extraction edge cases and the feature vector', () => {
  it('produces the full AudioFeatures shape with finite values, also for silence', () => {
    const silence = extractFeatures(new Float32Array(SR * 3), SR);
    expect(silence.energy).toBe(0);
    expect(silence.tempoBpm).toBe(0);
    expect(silence.chroma).toHaveLength(12);
    expect(silence.mfccMean).toHaveLength(13);
    expect(silence.mfccStd).toHaveLength(13);
    expect(silence.beatChords.every((c) => c === 'N')).toBe(true);
    expect(featureVector(silence).every(Number.isFinite)).toBe(true);
  });

  it('refuses audio shorter than one analysis frame', () => {
    expect(() => extractFeatures(new Float32Array(100), SR)).toThrow(AudioTooShortError);
  });

  it('maps features to a fixed-length, key-invariant vector', () => {
    const inC = extractFeatures(chordTrack(['C', 'F', 'G', 'C'], 120, 4), SR);
    const inD = extractFeatures(chordTrack(['D', 'G', 'A', 'D'], 120, 4), SR);
    const quieter = extractFeatures(
      chordTrack(['C', 'F', 'G', 'C'], 120, 4).map((x) => x * 0.25),
      SR,
    );
    const [a, b, c] = [inC, inD, quieter].map(featureVector);
    expect(a).toHaveLength(FEATURE_VECTOR_LENGTH);
    expect(FEATURE_VECTOR_NAMES).toHaveLength(FEATURE_VECTOR_LENGTH);
    const chromaStart = FEATURE_VECTOR_NAMES.indexOf('chromaFromTonic0');
    for (let i = chromaStart; i < chromaStart + 12; i++) expect(Math.abs(a[i] - b[i])).toBeLessThan(0.35);
    const loudness = FEATURE_VECTOR_NAMES.indexOf('loudness');
    // 12 dB quieter is 0.2 lower on the loudness axis.
    expect(a[loudness] - c[loudness]).toBeCloseTo(12 / 60, 2);
  });
});
