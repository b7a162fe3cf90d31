import { describe, expect, it } from 'vitest';
import { labelChroma } from '../../../src/engine/features/chords.js';
import { extractFeatures } from '../../../src/engine/features/extract.js';
import { estimateKey } from '../../../src/engine/features/key.js';
import { chordTrack, expectedBeatChords, SR } from './synth.js';

const BPM = 120;
const BEATS_PER_CHORD = 4;

/** Share of detected beats whose label equals the chord sounding at that beat's time. */
function chordAccuracy(labels: string[], tempoBpm: number, expected: string[]): number {
  // Beats may be trimmed at the start, so align by time: the n-th detected beat sits on the same grid.
  let best = 0;
  for (let shift = 0; shift <= 2; shift++) {
    const hits = labels.filter((label, i) => label === expected[i + shift]).length;
    best = Math.max(best, hits / labels.length);
  }
  expect(Math.abs(tempoBpm - BPM)).toBeLessThanOrEqual(2);
  return best;
}

describe('key and chords', () => {
  it('hears C-F-G-C as C major and labels the triads per beat', () => {
    const chords = ['C', 'F', 'G', 'C'];
    const f = extractFeatures(chordTrack(chords, BPM, BEATS_PER_CHORD, 2), SR);
    expect(f.key).toBe('C');
    expect(f.mode).toBe('major');
    expect(f.keyConfidence).toBeGreaterThan(0.7);
    expect(chordAccuracy(f.beatChords, f.tempoBpm, expectedBeatChords(chords, BEATS_PER_CHORD, 2))).toBeGreaterThanOrEqual(0.9);
  });

  it('hears Am-Dm-E-Am as A minor and labels the triads per beat', () => {
    const chords = ['Am', 'Dm', 'E', 'Am'];
    const f = extractFeatures(chordTrack(chords, BPM, BEATS_PER_CHORD, 2), SR);
    expect(f.key).toBe('A');
    expect(f.mode).toBe('minor');
    expect(chordAccuracy(f.beatChords, f.tempoBpm, expectedBeatChords(chords, BEATS_PER_CHORD, 2))).toBeGreaterThanOrEqual(0.9);
  });

  it('recognises every major and minor triad in a transposed progression', () => {
    const chords = ['D', 'Bm', 'G', 'A', 'F#m', 'C#', 'D#', 'G#m'];
    const f = extractFeatures(chordTrack(chords, BPM, BEATS_PER_CHORD), SR);
    expect(chordAccuracy(f.beatChords, f.tempoBpm, expectedBeatChords(chords, BEATS_PER_CHORD))).toBeGreaterThanOrEqual(0.85);
  });

  it('finds the Krumhansl-Kessler key of an ideal profile in every transposition', () => {
    const major = [6.35, 2.23, 3.48, 2.33, 4.38, 4.09, 2.52, 5.19, 2.39, 3.66, 2.29, 2.88];
    for (let tonic = 0; tonic < 12; tonic++) {
      const chroma = Array.from({ length: 12 }, (_, pc) => major[(pc - tonic + 12) % 12]);
      const key = estimateKey(chroma);
      expect(key.tonic).toBe(tonic);
      expect(key.mode).toBe('major');
      expect(key.confidence).toBeCloseTo(1, 6);
    }
  });

  it('labels silence and noise-like chroma as no chord', () => {
    expect(labelChroma(new Array(12).fill(0))).toBe('N');
    expect(labelChroma(new Array(12).fill(1))).toBe('N');
  });
});
