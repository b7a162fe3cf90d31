/**
 * The master's per-song match stage (src/engine/mix/tonal-match.ts): a deviation from the family's curve
 * inside the dead band is left alone, the part beyond it is pulled back to its edge with broad bands of
 * bounded gain, deterministically; over a signal it measures the song, fits nothing to a song inside, and
 * runs after the family's EQ and the song's colour. Deterministic noise.
 */
import { describe, expect, it } from 'vitest';
import { type Band, Biquad } from '../../../src/engine/mix/biquad.js';
import { GENRE_EQ } from '../../../src/engine/mix/genre-eq.js';
import {
  BAND_CENTRES,
  FAMILY_COLOUR_DB,
  balanceAgainst,
  chainBandEffect,
  chainResponseDb,
  correctiveEq,
  longTermSpectrum,
  songColour,
} from '../../../src/engine/mix/tonal-balance.js';
import {
  DEAD_BAND_DB,
  FAMILY_DEAD_BAND_DB,
  LIMIT_DB,
  applyMatchedMasterEq,
  deadBandOf,
  matchBands,
  measureMatch,
} from '../../../src/engine/mix/tonal-match.js';
import { Rng } from '../../../src/engine/random.js';

const SR = 44100;

function normalised(levels: readonly number[]): number[] {
  const mean = levels.reduce((a, b) => a + b, 0) / levels.length;
  return levels.map((l) => l - mean);
}

/** What a chain of bands makes of a deviation, averaged over each band as the measure reads it, level-normalised. */
function shaped(deviation: readonly number[], bands: ReturnType<typeof matchBands>): number[] {
  const effect = chainBandEffect(
    bands.map((b) => new Biquad(b, SR)),
    SR,
  );
  return normalised(deviation.map((d, i) => d + effect[i]));
}

/** Sample for sample (a deep toEqual on seconds of audio is slow). */
function same(a: Float32Array, b: Float32Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function whiteNoise(seconds: number, seed: number): Float32Array {
  const rng = new Rng(seed);
  return Float32Array.from({ length: Math.round(seconds * SR) }, () => rng.next() * 2 - 1);
}

/** Pink noise by Paul Kellet's refined filter (as in tonal-balance.test.ts). */
function pinkNoise(seconds: number, seed: number): Float32Array {
  const rng = new Rng(seed);
  let [b0, b1, b2, b3, b4, b5, b6] = [0, 0, 0, 0, 0, 0, 0];
  return Float32Array.from({ length: Math.round(seconds * SR) }, () => {
    const w = rng.next() * 2 - 1;
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

describe('match bands for a deviation', () => {
  it('leaves a song inside the dead band alone, however it sits there', () => {
    const edge = DEAD_BAND_DB - 0.3;
    // A tilt from -edge to +edge and a zigzag of +-edge: both inside, both far from the curve by a few dB.
    const tilt = normalised(BAND_CENTRES.map((_, i) => -edge + (2 * edge * i) / (BAND_CENTRES.length - 1)));
    const zigzag = BAND_CENTRES.map((_, i) => (i % 2 ? edge : -edge));
    expect(matchBands(tilt, SR)).toEqual([]);
    expect(matchBands(zigzag, SR)).toEqual([]);
  });

  it('pulls a broad excess back to the edge of the dead band, not onto the curve, and leaves the rest', () => {
    // A low-mid hump 4 dB past the dead band (315-630 Hz); elsewhere the song sits a little off the curve.
    const fault = normalised(BAND_CENTRES.map((hz, i) => (hz >= 315 && hz <= 630 ? DEAD_BAND_DB + 4.5 : i % 3 === 0 ? 1.5 : -0.5)));
    const bands = matchBands(fault, SR);
    expect(bands.length).toBeGreaterThan(0);
    expect(bands.every((b) => b.type !== 'peak' || b.q! < 2)).toBe(true);
    const after = shaped(fault, bands);
    const hump = BAND_CENTRES.map((hz, i) => [hz, i] as const).filter(([hz]) => hz >= 315 && hz <= 630);
    for (const [, i] of hump) {
      expect(after[i]).toBeLessThan(DEAD_BAND_DB + 0.5);
      // To the edge, not further: the song keeps its hump, as big as the dead band allows.
      expect(after[i]).toBeGreaterThan(DEAD_BAND_DB - 1.5);
    }
    for (const d of after) expect(Math.abs(d)).toBeLessThan(DEAD_BAND_DB + 0.5);
    // Far from the hump the song is as it was (within the level normalisation's shift and the bands' skirts).
    BAND_CENTRES.forEach((hz, i) => {
      if (hz <= 100 || hz >= 4000) expect(Math.abs(after[i] - fault[i])).toBeLessThan(1.5);
    });
  });

  it('bounds the correction at every band centre and corrects only part of an extreme excess', () => {
    // A song missing its top (25 dB short from 5 kHz: samples that end there) and heavy in the bass.
    const extreme = normalised(BAND_CENTRES.map((hz) => (hz >= 5000 ? -25 : hz <= 125 ? 12 : 0)));
    const bands = matchBands(extreme, SR);
    expect(bands.length).toBeGreaterThan(0);
    for (const hz of BAND_CENTRES) expect(Math.abs(chainResponseDb(bands, hz, SR))).toBeLessThanOrEqual(LIMIT_DB + 1e-9);
    const after = shaped(extreme, bands);
    const top = BAND_CENTRES.length - 1;
    // Lifted, by no more than the limit (plus the level normalisation's shift), so still out.
    expect(after[top] - extreme[top]).toBeGreaterThan(2);
    expect(after[top]).toBeLessThan(-DEAD_BAND_DB);
  });

  it('places each band once: a hole beside a peak, which broad bands fight over, gets one of each', () => {
    // 12 dB over at 100 Hz and 12 dB under at 125 Hz: neighbours no octave-wide band can pull apart.
    const fight = normalised(BAND_CENTRES.map((hz) => (hz === 100 ? 12 : hz === 125 ? -12 : 0)));
    const bands = matchBands(fight, SR);
    const keys = bands.map((b) => `${b.type} ${b.hz} ${b.q}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const b of bands) expect(Math.abs(b.db!)).toBeLessThanOrEqual(LIMIT_DB);
    for (const hz of BAND_CENTRES) expect(Math.abs(chainResponseDb(bands, hz, SR))).toBeLessThanOrEqual(LIMIT_DB + 1e-9);
  });

  it('holds jazz and ambient closer than the other families, which keep the 9 dB dead band', () => {
    expect(deadBandOf('ambient')).toBe(6);
    expect(deadBandOf('jazz')).toBe(7);
    for (const family of ['pop', 'rock', 'electronic', 'lofi', 'folk'] as const) {
      expect(FAMILY_DEAD_BAND_DB[family]).toBeUndefined();
      expect(deadBandOf(family)).toBe(DEAD_BAND_DB);
    }
    // A low-mid hump 8.5 dB over the curve: inside the 9 dB dead band, out of ambient's and jazz's.
    const hump = normalised(BAND_CENTRES.map((hz) => (hz >= 315 && hz <= 630 ? 10.5 : 0)));
    expect(Math.max(...hump)).toBeGreaterThan(8);
    expect(Math.max(...hump)).toBeLessThan(DEAD_BAND_DB);
    expect(matchBands(hump, SR, deadBandOf('rock'))).toEqual([]);
    for (const family of ['ambient', 'jazz'] as const) {
      const after = shaped(hump, matchBands(hump, SR, deadBandOf(family)));
      expect(Math.max(...after)).toBeLessThan(deadBandOf(family) + 0.5);
      expect(Math.max(...after)).toBeGreaterThan(deadBandOf(family) - 1.5);
    }
  });

  it('is the same for the same deviation', () => {
    const fault = normalised(BAND_CENTRES.map((hz) => (hz >= 8000 ? -12 : hz === 100 ? 9 : 0)));
    expect(matchBands(fault, SR)).toEqual(matchBands([...fault], SR));
  });
});

/** Runs bands over a stereo signal in place, as the master does. */
function run(left: Float32Array, right: Float32Array, bands: readonly Band[]): void {
  for (const f of bands.map((b) => new Biquad(b, SR))) f.processStereo(left, right, left.length);
}

describe('the stage over a signal', () => {
  it('fits nothing to a song inside the dead band', () => {
    // Pink noise brought near the lo-fi curve by a few broad bands: inside the dead band.
    const [left, right] = [pinkNoise(8, 1), pinkNoise(8, 2)];
    run(left, right, correctiveEq(balanceAgainst(longTermSpectrum(left, right, SR), 'lofi').deviation, SR, 2, { broadOnly: true, maxBands: 4 }));
    expect(balanceAgainst(longTermSpectrum(left, right, SR), 'lofi').maxDb).toBeLessThan(DEAD_BAND_DB - 1);
    expect(measureMatch(left, right, 'lofi', SR)).toEqual([]);
  });

  it('pulls a song far off its curve in, only where it is out', () => {
    // Pink noise is flat; the curves fall about 20 dB from 100 Hz to 12.5 kHz, so pink stands about 13 dB
    // over the pop curve at the top and 9 dB under it at the bottom. Its top taken down to about 3 dB past
    // the dead band: out of it, by less than the limit.
    const [left, right] = [pinkNoise(8, 3), pinkNoise(8, 4)];
    run(left, right, [{ type: 'highshelf', hz: 5000, db: DEAD_BAND_DB - 11 }]);
    const before = balanceAgainst(longTermSpectrum(left, right, SR), 'pop');
    expect(before.maxDb).toBeGreaterThan(DEAD_BAND_DB + 2);
    expect(before.maxDb).toBeLessThan(DEAD_BAND_DB + LIMIT_DB - 1);
    const bands = measureMatch(left, right, 'pop', SR);
    run(left, right, bands);
    const after = balanceAgainst(longTermSpectrum(left, right, SR), 'pop');
    // To the dead band's edge (within the measure's averaging over a band), not onto the curve.
    expect(after.maxDb).toBeLessThan(DEAD_BAND_DB + 0.7);
    expect(after.maxDb).toBeGreaterThan(DEAD_BAND_DB - 1.5);
    // The middle, inside the dead band before, keeps its shape (within the level normalisation's shift).
    const mid = BAND_CENTRES.map((hz, i) => [hz, i] as const).filter(([hz]) => hz >= 630 && hz <= 2000);
    const shift = (i: number) => after.deviation[i] - before.deviation[i];
    for (const [, i] of mid) expect(Math.abs(shift(i) - shift(mid[0][1]))).toBeLessThan(1);
  });

  it("runs the family's EQ and the song's colour, then the match fitted after them, the same way every time", () => {
    // White noise: it rises 3 dB per octave, far over the rock curve at the top after any EQ of the family.
    const [left, right] = [whiteNoise(6, 5), whiteNoise(6, 6)];
    const [l2, r2] = [left.slice(), right.slice()];
    const [l3, r3] = [left.slice(), right.slice()];
    const eq = applyMatchedMasterEq(left, right, 'rock', 42, SR);
    expect(eq.family).toEqual(GENRE_EQ.rock);
    expect(eq.colour).toEqual(songColour(42, FAMILY_COLOUR_DB.rock));
    expect(eq.match.length).toBeGreaterThan(0);
    // By hand, in that order.
    run(l2, r2, [...GENRE_EQ.rock, ...songColour(42, FAMILY_COLOUR_DB.rock)]);
    expect(measureMatch(l2, r2, 'rock', SR)).toEqual(eq.match);
    run(l2, r2, eq.match);
    expect(same(l2, left) && same(r2, right)).toBe(true);
    expect(applyMatchedMasterEq(l3, r3, 'rock', 42, SR)).toEqual(eq);
    expect(same(l3, left) && same(r3, right)).toBe(true);
  });

  it("measures a song against its family's dead band", () => {
    // The same pink noise, off the ambient curve by more than 6 dB somewhere: the stage fits what passes 6 dB.
    const [left, right] = [pinkNoise(8, 9), pinkNoise(8, 10)];
    const deviation = balanceAgainst(longTermSpectrum(left, right, SR), 'ambient').deviation;
    expect(Math.max(...deviation.map(Math.abs))).toBeGreaterThan(deadBandOf('ambient') + 1);
    const bands = measureMatch(left, right, 'ambient', SR);
    expect(bands.length).toBeGreaterThan(0);
    expect(bands).toEqual(matchBands(deviation, SR, deadBandOf('ambient')));
  });

  it('passes silence and a render shorter than one analysis frame through the match', () => {
    const silent = [new Float32Array(SR * 2), new Float32Array(SR * 2)];
    expect(applyMatchedMasterEq(silent[0], silent[1], 'rock', 1, SR).match).toEqual([]);
    expect(silent.every((c) => c.every((x) => x === 0))).toBe(true);
    const short = [pinkNoise(0.1, 7), pinkNoise(0.1, 8)];
    expect(measureMatch(short[0], short[1], 'rock', SR)).toEqual([]);
  });
});
