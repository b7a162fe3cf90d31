/**
 * The tonal-balance measure and the corrective EQ (src/engine/mix/tonal-balance.ts): the biquads' response
 * where the design reads it, the third-octave long-term spectrum on white and pink noise (white rises 3 dB
 * per octave in band power, pink is flat), and EQ fitting against the genre curves. Deterministic noise.
 */
import { describe, expect, it } from 'vitest';
import { Biquad, type Band } from '../../../src/engine/mix/biquad.js';
import {
  BAND_CENTRES,
  SONG_COLOUR_DB,
  FAMILY_COLOUR_DB,
  applyGenreEq,
  balanceAgainst,
  chainResponseDb,
  correctiveEq,
  longTermSpectrum,
  referenceCurve,
  songColour,
} from '../../../src/engine/mix/tonal-balance.js';
import { GENRE_EQ } from '../../../src/engine/mix/genre-eq.js';
import type { GenreFamily } from '../../../src/engine/compose/style.js';
import { Rng } from '../../../src/engine/random.js';

const SR = 44100;

function whiteNoise(seconds: number, seed: number): Float32Array {
  const rng = new Rng(seed);
  return Float32Array.from({ length: Math.round(seconds * SR) }, () => rng.next() * 2 - 1);
}

/** Pink noise by Paul Kellet's refined filter (within 0.05 dB of -3 dB per octave above 10 Hz). */
function pinkNoise(seconds: number, seed: number): Float32Array {
  const white = whiteNoise(seconds, seed);
  let [b0, b1, b2, b3, b4, b5, b6] = [0, 0, 0, 0, 0, 0, 0];
  return white.map((w) => {
    b0 = 0.99886 * b0 + w * 0.0555179;
    b1 = 0.99332 * b1 + w * 0.0750759;
    b2 = 0.969 * b2 + w * 0.153852;
    b3 = 0.8665 * b3 + w * 0.3104856;
    b4 = 0.55 * b4 + w * 0.5329522;
    b5 = -0.7616 * b5 - w * 0.016898;
    const out = b0 + b1 + b2 + b3 + b4 + b5 + b6 + w * 0.5362;
    b6 = w * 0.115926;
    return out * 0.11;
  });
}

function normalised(levels: number[]): number[] {
  const mean = levels.reduce((a, b) => a + b, 0) / levels.length;
  return levels.map((l) => l - mean);
}

describe('biquad response (the EQ design reads it)', () => {
  it('has the gain of a peak at its centre, of a shelf far into its shelf, and -3 dB at a high- or low-pass cutoff', () => {
    expect(new Biquad({ type: 'peak', hz: 1000, db: 6, q: 1.4 }, SR).responseDb(1000, SR)).toBeCloseTo(6, 2);
    expect(new Biquad({ type: 'peak', hz: 250, db: -4, q: 4.3 }, SR).responseDb(250, SR)).toBeCloseTo(-4, 2);
    expect(new Biquad({ type: 'peak', hz: 250, db: -4, q: 4.3 }, SR).responseDb(1000, SR)).toBeGreaterThan(-0.2);
    expect(new Biquad({ type: 'highshelf', hz: 8000, db: 3 }, SR).responseDb(18000, SR)).toBeCloseTo(3, 0);
    expect(new Biquad({ type: 'lowshelf', hz: 125, db: -5 }, SR).responseDb(30, SR)).toBeCloseTo(-5, 0);
    expect(new Biquad({ type: 'highpass', hz: 100 }, SR).responseDb(100, SR)).toBeCloseTo(-3.01, 1);
    expect(new Biquad({ type: 'lowpass', hz: 16000 }, SR).responseDb(16000, SR)).toBeCloseTo(-3.01, 1);
    expect(new Biquad({ type: 'lowpass', hz: 16000 }, SR).responseDb(1000, SR)).toBeCloseTo(0, 2);
  });

  it('matches what the filter does to a sine', () => {
    const band: Band = { type: 'peak', hz: 500, db: 5, q: 2 };
    for (const hz of [250, 500, 700]) {
      const sine = Float32Array.from({ length: SR }, (_, i) => Math.sin((2 * Math.PI * hz * i) / SR));
      const filtered = sine.slice();
      new Biquad(band, SR).processMono(filtered, 0, filtered.length);
      const rms = (x: Float32Array) => Math.sqrt(x.subarray(SR / 2).reduce((s, v) => s + v * v, 0) / (SR / 2));
      expect(20 * Math.log10(rms(filtered) / rms(sine))).toBeCloseTo(new Biquad(band, SR).responseDb(hz, SR), 1);
    }
  });
});

describe('long-term spectrum in third octaves', () => {
  it('rises 3 dB per octave on white noise and is flat on pink noise', () => {
    const white = normalised(longTermSpectrum(whiteNoise(20, 1), whiteNoise(20, 2), SR));
    const octaves = BAND_CENTRES.map((hz) => Math.log2(hz / 1000));
    const mean = octaves.reduce((a, b) => a + b, 0) / octaves.length;
    const slope = octaves.reduce((s, o, i) => s + (o - mean) * white[i], 0) / octaves.reduce((s, o) => s + (o - mean) ** 2, 0);
    expect(slope).toBeGreaterThan(2.8);
    expect(slope).toBeLessThan(3.2);
    white.forEach((l, i) => expect(Math.abs(l - slope * (octaves[i] - mean))).toBeLessThan(1));

    const pink = normalised(longTermSpectrum(pinkNoise(20, 3), pinkNoise(20, 4), SR));
    for (const l of pink) expect(Math.abs(l)).toBeLessThan(1);
  });

  it('reads a mono signal like the same signal on both channels, and a stride of frames like all of them', () => {
    const noise = pinkNoise(20, 5);
    const mono = longTermSpectrum(noise, null, SR);
    const stereo = longTermSpectrum(noise, noise, SR);
    mono.forEach((l, i) => expect(l).toBeCloseTo(stereo[i] - 10 * Math.log10(2), 6));
    const strided = normalised(longTermSpectrum(noise, null, SR, { stride: 3 }));
    normalised(mono).forEach((l, i) => expect(Math.abs(l - strided[i])).toBeLessThan(0.7));
  });

  it('measures a signal shaped like the reference curve as on it', () => {
    for (const family of ['pop', 'lofi', 'ambient'] as const) {
      const curve = referenceCurve(family);
      expect(curve.reduce((a, b) => a + b, 0)).toBeCloseTo(0, 6);
      const b = balanceAgainst(
        curve.map((db) => db - 30),
        family,
      );
      expect(b.maxDb).toBeLessThan(1e-9);
      expect(b.rmsDb).toBeLessThan(1e-9);
    }
  });

  it('puts pink noise far under the curves at the bottom and far over them at the top', () => {
    const pink = longTermSpectrum(pinkNoise(10, 6), null, SR);
    const b = balanceAgainst(pink, 'pop');
    // The curves fall about 20 dB from 100 Hz to 12.5 kHz; pink noise is flat.
    expect(b.deviation[0]).toBeLessThan(-6);
    expect(b.deviation[BAND_CENTRES.length - 1]).toBeGreaterThan(9);
  });
});

describe('corrective EQ', () => {
  it('leaves a deviation inside the tolerance alone', () => {
    const inside = BAND_CENTRES.map((_, i) => (i % 2 ? 1.2 : -1.2));
    expect(correctiveEq(inside, SR)).toEqual([]);
  });

  it('fits broad and narrow faults to within the tolerance at every band centre, deterministically', () => {
    // A low-mid hump (+6 dB, 315-630 Hz), a hole at 100 Hz (-5 dB), dull top (-7 dB from 8 kHz).
    const fault = BAND_CENTRES.map((hz) => (hz >= 315 && hz <= 630 ? 6 : hz === 100 ? -5 : hz >= 8000 ? -7 : 0));
    const bands = correctiveEq(fault, SR);
    expect(bands.length).toBeGreaterThan(0);
    expect(bands.length).toBeLessThanOrEqual(9);
    expect(correctiveEq(fault, SR)).toEqual(bands);
    const shaped = normalised(fault.map((d, i) => d + chainResponseDb(bands, BAND_CENTRES[i], SR)));
    for (const d of shaped) expect(Math.abs(d)).toBeLessThan(2.5);
    // The hump is cut and the top lifted.
    expect(chainResponseDb(bands, 500, SR)).toBeLessThan(-3);
    expect(chainResponseDb(bands, 10000, SR)).toBeGreaterThan(3);
  });

  it('brings pink noise much closer to a genre curve when run over the signal', () => {
    const left = pinkNoise(12, 7);
    const right = pinkNoise(12, 8);
    const before = balanceAgainst(longTermSpectrum(left, right, SR), 'rock');
    const bands = correctiveEq(before.deviation, SR);
    for (const filter of bands.map((b) => new Biquad(b, SR))) filter.processStereo(left, right, left.length);
    const after = balanceAgainst(longTermSpectrum(left, right, SR), 'rock');
    expect(bands.length).toBeGreaterThan(0);
    expect(after.rmsDb).toBeLessThan(before.rmsDb / 2);
    expect(after.maxDb).toBeLessThan(before.maxDb / 2);
  });
});

describe('master EQ per family and song colour', () => {
  it('fits broad bands only to a mean deviation when asked, to within the tolerance where broad bands can', () => {
    const fault = BAND_CENTRES.map((hz) => (hz >= 315 && hz <= 630 ? 6 : hz >= 8000 ? -7 : 0));
    const bands = correctiveEq(fault, SR, 1, { broadOnly: true });
    expect(bands.every((b) => b.type !== 'peak' || b.q! < 2)).toBe(true);
    const shaped = normalised(fault.map((d, i) => d + chainResponseDb(bands, BAND_CENTRES[i], SR)));
    for (const d of shaped) expect(Math.abs(d)).toBeLessThan(2.5);
  });

  it('bakes broad bands of at most 10 dB for every family', () => {
    for (const bands of Object.values(GENRE_EQ)) {
      expect(bands.length).toBeLessThanOrEqual(9);
      for (const b of bands) {
        expect(Math.abs(b.db!)).toBeLessThanOrEqual(10);
        if (b.type === 'peak') expect(b.q).toBeLessThan(2);
      }
    }
  });

  it('draws a song colour from the seed: deterministic, within +-SONG_COLOUR_DB, centred over songs', () => {
    expect(songColour(42)).toEqual(songColour(42));
    expect(songColour(42)).not.toEqual(songColour(43));
    const sums = [0, 0, 0];
    for (let seed = 0; seed < 400; seed++) {
      const bands = songColour(seed);
      bands.forEach((b, k) => {
        expect(Math.abs(b.db!)).toBeLessThanOrEqual(SONG_COLOUR_DB);
        sums[k] += b.db! / 400;
      });
    }
    for (const mean of sums) expect(Math.abs(mean)).toBeLessThan(0.4);
  });

  it('colours lo-fi and rock songs in broader strokes, still centred, and the same seed alike', () => {
    for (const [family, depth] of Object.entries(FAMILY_COLOUR_DB)) {
      expect(depth).toBeGreaterThan(SONG_COLOUR_DB);
      const sums = [0, 0, 0];
      const highs: number[] = [];
      for (let seed = 0; seed < 400; seed++) {
        const bands = songColour(seed, depth);
        bands.forEach((b, k) => {
          expect(Math.abs(b.db!)).toBeLessThanOrEqual(depth);
          sums[k] += b.db! / 400;
        });
        highs.push(bands[1].db!);
      }
      for (const mean of sums) expect(Math.abs(mean)).toBeLessThan(0.15 * depth);
      expect(Math.max(...highs) - Math.min(...highs)).toBeGreaterThan(1.8 * depth);
      const [aL, aR] = [pinkNoise(2, 1), pinkNoise(2, 2)];
      expect(applyGenreEq(aL, aR, family as GenreFamily, 42, SR).slice(GENRE_EQ[family as GenreFamily].length)).toEqual(songColour(42, depth));
    }
    expect(FAMILY_COLOUR_DB.pop).toBeUndefined();
  });

  it('moves two songs of one family by the same EQ but their own colour, and passes silence through', () => {
    const [aL, aR, bL, bR] = [pinkNoise(6, 1), pinkNoise(6, 2), pinkNoise(6, 3), pinkNoise(6, 4)];
    const before = [longTermSpectrum(aL, aR, SR), longTermSpectrum(bL, bR, SR)];
    const bandsA = applyGenreEq(aL, aR, 'lofi', 11, SR);
    const bandsB = applyGenreEq(bL, bR, 'lofi', 12, SR);
    expect(bandsA.slice(0, GENRE_EQ.lofi.length)).toEqual(GENRE_EQ.lofi);
    expect(bandsB.slice(0, GENRE_EQ.lofi.length)).toEqual(GENRE_EQ.lofi);
    const after = [longTermSpectrum(aL, aR, SR), longTermSpectrum(bL, bR, SR)];
    // What each song's EQ did per band is the chain's response (within the measure's averaging over a band).
    BAND_CENTRES.forEach((hz, i) => {
      expect(Math.abs(after[0][i] - before[0][i] - chainResponseDb(bandsA, hz, SR))).toBeLessThan(1);
      expect(Math.abs(after[1][i] - before[1][i] - chainResponseDb(bandsB, hz, SR))).toBeLessThan(1);
    });
    const silent = new Float32Array(SR);
    const silentR = silent.slice();
    applyGenreEq(silent, silentR, 'pop', 11, SR);
    expect(silent.every((x) => x === 0) && silentR.every((x) => x === 0)).toBe(true);
  });
});
