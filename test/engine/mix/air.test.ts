/**
 * The air stage (src/engine/mix/air.ts): a harmonic exciter that writes the octave above a band-limited
 * signal's roll-off. Deterministic signals only: sines and seeded noise.
 */
import { describe, expect, it } from 'vitest';
import { AirExciter } from '../../../src/engine/mix/air.js';
import { BAND_CENTRES, longTermSpectrum } from '../../../src/engine/mix/tonal-balance.js';
import { Rng } from '../../../src/engine/random.js';

const SR = 44100;
const SETTINGS = { sourceHz: 3000, airHz: 7000, gainDb: 0 };
const sine = (hz: number, seconds: number, amp = 0.5) => Float32Array.from({ length: seconds * SR }, (_, i) => amp * Math.sin((2 * Math.PI * hz * i) / SR));

/**
 * A band-limited tone, as a sample with nothing above its cutoff: a sawtooth on 220 Hz by additive
 * synthesis, harmonics up to 6 kHz only, each with a phase drawn from the seed.
 */
function dullTone(seconds: number, seed: number): Float32Array {
  const rng = new Rng(seed);
  const partials = Array.from({ length: 27 }, (_, k) => ({ hz: 220 * (k + 1), amp: 0.3 / (k + 1), phase: rng.next() * 2 * Math.PI }));
  return Float32Array.from({ length: seconds * SR }, (_, i) => partials.reduce((s, p) => s + p.amp * Math.sin((2 * Math.PI * p.hz * i) / SR + p.phase), 0));
}

function excite(left: Float32Array, right: Float32Array, settings = SETTINGS, block = 8192): void {
  const air = new AirExciter(settings, SR);
  for (let at = 0; at < left.length; at += block) air.process(left.subarray(at, at + block), right.subarray(at, at + block), Math.min(block, left.length - at));
}

const band = (levels: number[], hz: number) => levels[BAND_CENTRES.indexOf(hz)];

describe('air exciter', () => {
  it('leaves silence silent', () => {
    const l = new Float32Array(SR);
    const r = new Float32Array(SR);
    excite(l, r);
    expect(l.every((x) => x === 0) && r.every((x) => x === 0)).toBe(true);
  });

  it('leaves a signal with nothing above 2 kHz as it was (within -48 dB)', () => {
    const l = sine(500, 2);
    const r = sine(1000, 2);
    const [l0, r0] = [l.slice(), r.slice()];
    excite(l, r);
    // After the first 50 ms: the tones start abruptly, and that click is broadband.
    let worst = 0;
    for (let i = Math.round(0.05 * SR); i < l.length; i++) worst = Math.max(worst, Math.abs(l[i] - l0[i]), Math.abs(r[i] - r0[i]));
    expect(worst).toBeLessThan(2e-3);
  });

  it('writes the octave above a 5 kHz tone: 10 kHz, 7.5-12 dB under it at 0 dB gain', () => {
    const l = sine(5000, 2);
    const r = l.slice();
    const before = longTermSpectrum(l, r, SR);
    excite(l, r);
    const after = longTermSpectrum(l, r, SR);
    expect(band(after, 5000) - band(before, 5000)).toBeLessThan(0.5);
    expect(band(after, 10000) - band(before, 10000)).toBeGreaterThan(40);
    const under = band(after, 5000) - band(after, 10000);
    expect(under).toBeGreaterThan(7);
    expect(under).toBeLessThan(12);
  });

  it('fills 8-12.5 kHz over a tone with nothing above 6 kHz, continuing its slope; the mids untouched', () => {
    const l = dullTone(3, 1);
    const r = dullTone(3, 2);
    const before = longTermSpectrum(l, r, SR);
    excite(l, r);
    const after = longTermSpectrum(l, r, SR);
    for (const hz of [10000, 12500]) expect(band(before, hz) - band(before, 5000)).toBeLessThan(-60);
    // A sawtooth's band power falls about 3 dB per third octave: over 5 kHz -> 10 kHz about 9 dB more.
    for (const hz of [8000, 10000, 12500]) {
      expect(band(after, hz) - band(after, 5000)).toBeGreaterThan(-30);
      expect(band(after, hz) - band(after, 5000)).toBeLessThan(0);
    }
    for (const hz of [250, 1000, 2000]) expect(Math.abs(band(after, hz) - band(before, hz))).toBeLessThan(0.1);
  });

  it('follows the level exactly (half the input, half the air) and the block size does not matter', () => {
    const a = dullTone(2, 3);
    const [aL, aR] = [a.slice(), a.slice()];
    const [hL, hR] = [a.map((x) => x / 2), a.map((x) => x / 2)];
    const [bL, bR] = [a.slice(), a.slice()];
    excite(aL, aR);
    excite(hL, hR);
    excite(bL, bR, SETTINGS, 1000);
    let worst = 0;
    for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(hL[i] - aL[i] / 2));
    expect(worst).toBeLessThan(1e-6);
    expect(bL).toEqual(aL);
  });
});
