import { describe, expect, it } from 'vitest';
import { extractFeatures } from '../../../src/engine/features/extract.js';
import { Rng } from '../../../src/engine/random.js';
import { addKick, drumTrack, SR } from './synth.js';

/** Kick on 1 and 3, a noise snare on 2 and 4, hi-hat on every eighth: the tatum is twice the beat. */
function backbeat(bpm: number, seconds: number): Float32Array {
  const out = new Float32Array(seconds * SR);
  const rng = new Rng(3);
  const beat = 60 / bpm;
  for (let b = 0; b * beat < seconds; b++) {
    const at = Math.round((0.05 + b * beat) * SR);
    if (b % 2 === 0) addKick(out, at, SR, rng, 0.7);
    else noiseBurst(out, at, 0.12, 18, 0.4, rng);
    noiseBurst(out, at, 0.03, 120, 0.1, rng);
    noiseBurst(out, Math.round(at + (beat / 2) * SR), 0.03, 120, 0.1, rng);
  }
  return out;
}

function noiseBurst(out: Float32Array, at: number, seconds: number, decay: number, gain: number, rng: Rng): void {
  for (let i = 0; i < seconds * SR && at + i < out.length; i++) out[at + i] += gain * (rng.next() * 2 - 1) * Math.exp((-decay * i) / SR);
}

describe('tempo', () => {
  it.each([100, 128])('finds %i BPM in a kick track, without octave error', (bpm) => {
    const f = extractFeatures(drumTrack(bpm, 12), SR);
    expect(Math.abs(f.tempoBpm - bpm)).toBeLessThanOrEqual(2);
    expect(f.tempoConfidence).toBeGreaterThan(0.5);
    // One onset per kick.
    expect(f.onsetRate).toBeCloseTo(bpm / 60, 0);
  });

  it.each([96, 124])('finds the beat (%i BPM), not the hi-hat tatum, in a backbeat pattern', (bpm) => {
    const f = extractFeatures(backbeat(bpm, 12), SR);
    expect(Math.abs(f.tempoBpm - bpm)).toBeLessThanOrEqual(2);
  });

  it('gives one chord label per tracked beat, evenly spaced at the tempo', () => {
    const f = extractFeatures(drumTrack(120, 10), SR);
    // 10 s at 120 BPM: 20 beats, a few may be trimmed at the edges.
    expect(f.beatChords.length).toBeGreaterThanOrEqual(17);
    expect(f.beatChords.length).toBeLessThanOrEqual(21);
  });
});
