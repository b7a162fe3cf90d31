/** The measuring tools the voice tests rely on, checked on signals whose pitch and resonances are known. */
import { describe, expect, it } from 'vitest';
import { estimateFormants, polynomialRoots } from '../../../src/engine/audio/formants.js';
import { centsBetween, trackPitch } from '../../../src/engine/audio/pitch.js';
import { Resonator } from '../../../src/engine/voice/filters.js';

const FS = 44100;

/**
 * A textbook synthetic vowel: an impulse train at f0, falling 6 dB an octave (the spectrum of glottal flow
 * and lip radiation together, which LPC's pre-emphasis expects), through resonators at known frequencies.
 */
function pulseThroughResonances(f0: number, resonances: [number, number][], seconds: number): Float32Array {
  const out = new Float32Array(Math.round(seconds * FS));
  const filters = resonances.map(([f, b]) => {
    const r = new Resonator(FS);
    r.set(f, b);
    return r;
  });
  let phase = 0;
  let tilt = 0;
  for (let i = 0; i < out.length; i++) {
    phase += f0 / FS;
    let x = 0;
    if (phase >= 1) {
      phase -= 1;
      x = 1;
    }
    tilt = x + 0.99 * tilt;
    x = tilt;
    for (const r of filters) x = r.process(x);
    out[i] = x;
  }
  return out;
}

describe('YIN pitch tracker', () => {
  it('finds the fundamental of harmonic signals within 5 cents, and calls silence and noise unvoiced', () => {
    for (const f0 of [98, 196.5, 330, 523.25]) {
      const signal = pulseThroughResonances(
        f0,
        [
          [600, 80],
          [1200, 100],
          [2500, 150],
        ],
        0.5,
      );
      const voiced = trackPitch(signal, FS).filter((f) => f.f0 > 0 && f.timeSec > 0.05);
      expect(voiced.length).toBeGreaterThan(30);
      for (const frame of voiced) expect(Math.abs(centsBetween(frame.f0, f0))).toBeLessThan(5);
    }
    let state = 1;
    const noise = Float32Array.from({ length: FS / 2 }, () => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return state / 2 ** 31 - 1;
    });
    const withSilence = new Float32Array(FS);
    withSilence.set(noise, FS / 2);
    expect(trackPitch(withSilence, FS).filter((f) => f.f0 > 0).length).toBeLessThan(5);
  });
});

describe('LPC formant estimation', () => {
  it('finds the roots of a known polynomial', () => {
    // (z - 0.5)(z + 0.25)(z^2 - 2*0.9*cos(0.3) z + 0.81)
    const c = 2 * 0.9 * Math.cos(0.3);
    const quadratic = [1, -0.25, -0.125];
    const coefficients = new Float64Array([
      1,
      quadratic[1] - c,
      quadratic[2] - c * quadratic[1] + 0.81,
      -c * quadratic[2] + 0.81 * quadratic[1],
      0.81 * quadratic[2],
    ]);
    const roots = polynomialRoots(coefficients);
    const expected = [
      [-0.25, 0],
      [0.5, 0],
      [0.9 * Math.cos(0.3), -0.9 * Math.sin(0.3)],
      [0.9 * Math.cos(0.3), 0.9 * Math.sin(0.3)],
    ];
    expect(roots).toHaveLength(4);
    for (const [re, im] of expected) expect(Math.min(...roots.map(([r, i]) => Math.hypot(r - re, i - im)))).toBeLessThan(1e-6);
  });

  it('recovers F1 and F2 of synthetic vowels within 8%', () => {
    for (const [f1, f2] of [
      [730, 1090],
      [270, 2290],
      [300, 870],
    ]) {
      const signal = pulseThroughResonances(
        120,
        [
          [f1, 60],
          [f2, 90],
          [2500, 150],
          [3400, 250],
        ],
        0.6,
      );
      const frames = estimateFormants(signal, FS).filter((f) => f.timeSec > 0.1);
      const median = (k: number) => frames.map((f) => f.formants[k]).sort((a, b) => a - b)[frames.length >> 1];
      expect(Math.abs(median(0) / f1 - 1)).toBeLessThan(0.08);
      expect(Math.abs(median(1) / f2 - 1)).toBeLessThan(0.08);
    }
  });
});
