/**
 * The kit's synthesised top (src/engine/mix/drum-top.ts): a click on kicks and wires under snares, at a
 * level set against the hit's own energy, deterministic and independent of the block size.
 */
import { describe, expect, it } from 'vitest';
import { DRUM_TOP, mixPlan } from '../../../src/engine/mix/plan.js';
import { DrumTop, type DrumHit, type DrumTopSettings } from '../../../src/engine/mix/drum-top.js';
import type { GenreFamily } from '../../../src/engine/compose/style.js';
import { BAND_CENTRES, longTermSpectrum } from '../../../src/engine/mix/tonal-balance.js';

const SR = 44100;
const FAMILIES: GenreFamily[] = ['pop', 'rock', 'electronic', 'lofi', 'jazz', 'folk', 'ambient'];
const SETTINGS: DrumTopSettings = { clickDb: -24, clickHz: 4000, wiresDb: -12, wiresHz: 4000, wiresDecayMs: 100 };
/** Energy of FluidR3Mono's Standard kit (program 0) kick and snare at velocity 100 (dB; drum-top.ts). */
const KICK_DB = 12.4;
const SNARE_DB = 5.2;

function layer(hits: DrumHit[], seconds: number, settings = SETTINGS, block = 8192, kit = 0, seed = 7): Float32Array[] {
  const left = new Float32Array(seconds * SR);
  const right = new Float32Array(seconds * SR);
  const top = new DrumTop(settings, kit, hits, seed, SR);
  for (let at = 0; at < left.length; at += block)
    top.process(left.subarray(at, at + block), right.subarray(at, at + block), at, Math.min(block, left.length - at));
  return [left, right];
}

const energyDb = (x: Float32Array, from = 0, to = x.length) => {
  let e = 0;
  for (let i = from; i < to; i++) e += x[i] * x[i];
  return 10 * Math.log10(e);
};

describe('drum top', () => {
  it('puts a click of the set energy on a kick and wires on a snare, nothing before them', () => {
    const [kick] = layer([{ sample: SR / 2, midi: 36, velocity: 100 }], 1);
    expect(energyDb(kick, 0, SR / 2)).toBe(-Infinity);
    expect(Math.abs(energyDb(kick) - (KICK_DB + SETTINGS.clickDb))).toBeLessThan(1);
    const [snare] = layer([{ sample: SR / 2, midi: 38, velocity: 100 }], 2);
    expect(Math.abs(energyDb(snare) - (SNARE_DB + SETTINGS.wiresDb))).toBeLessThan(1);
  });

  it('lives above its lower edge, in the octave the samples lack', () => {
    const hits = Array.from({ length: 8 }, (_, k) => ({ sample: (k * SR) / 4, midi: k % 2 ? 38 : 36, velocity: 100 }));
    const [l, r] = layer(hits, 2);
    const levels = longTermSpectrum(l, r, SR);
    const at = (hz: number) => levels[BAND_CENTRES.indexOf(hz)];
    expect(at(10000) - at(1000)).toBeGreaterThan(15);
    expect(at(10000) - at(250)).toBeGreaterThan(30);
  });

  it('follows the velocity as the synth does (amplitude ~ velocity squared)', () => {
    const [loud] = layer([{ sample: 0, midi: 38, velocity: 100 }], 1);
    const [soft] = layer([{ sample: 0, midi: 38, velocity: 50 }], 1);
    expect(energyDb(loud) - energyDb(soft)).toBeCloseTo(40 * Math.log10(2), 0);
  });

  it('sets the level against the kit: a brighter, louder kit sample gets a louder layer', () => {
    const [standard] = layer([{ sample: 0, midi: 36, velocity: 100 }], 1, SETTINGS, 8192, 0);
    const [tr808] = layer([{ sample: 0, midi: 36, velocity: 100 }], 1, SETTINGS, 8192, 25);
    expect(energyDb(tr808) - energyDb(standard)).toBeCloseTo(23.6 - 12.4, 0);
  });

  it('decays: the wires hold most of their energy within three time constants', () => {
    const [snare] = layer([{ sample: 0, midi: 38, velocity: 100 }], 1);
    const tail = (3 * SETTINGS.wiresDecayMs * SR) / 1000;
    expect(energyDb(snare, tail) - energyDb(snare)).toBeLessThan(-20);
  });

  it('adds nothing for hats, cymbals or toms', () => {
    const hits = [42, 46, 49, 51, 45, 37].map((midi, k) => ({ sample: k * 4000, midi, velocity: 110 }));
    const [l] = layer(hits, 1);
    expect(l.every((x) => x === 0)).toBe(true);
  });

  it('is the same for any block size and the same seed, different for another seed', () => {
    const hits = Array.from({ length: 16 }, (_, k) => ({ sample: k * 5000 + 17, midi: k % 3 ? 36 : 38, velocity: 60 + k * 3 }));
    const [a] = layer(hits, 2, SETTINGS, 8192);
    const [b] = layer(hits, 2, SETTINGS, 1000);
    const same = (x: Float32Array, y: Float32Array) => Buffer.from(x.buffer).equals(Buffer.from(y.buffer));
    expect(a.some((x) => x !== 0)).toBe(true);
    expect(same(b, a)).toBe(true);
    const [c] = layer(hits, 2, SETTINGS, 8192, 0, 8);
    expect(same(c, a)).toBe(false);
  });

  it('is drawn per song within the family ranges, and absent where the family has none', () => {
    const seeds = Array.from({ length: 20 }, (_, i) => 3 + 17 * i);
    for (const family of FAMILIES) {
      const range = DRUM_TOP[family];
      if (!range) {
        expect(mixPlan(family, 42).drumTop).toBeNull();
        continue;
      }
      const tops = seeds.map((seed) => mixPlan(family, seed).drumTop!);
      for (const t of tops) {
        expect(t.clickDb).toBeGreaterThanOrEqual(range.clickDb[0]);
        expect(t.clickDb).toBeLessThanOrEqual(range.clickDb[1]);
        expect(t.wiresDb).toBeGreaterThanOrEqual(range.wiresDb[0]);
        expect(t.wiresDb).toBeLessThanOrEqual(range.wiresDb[1]);
      }
      expect(new Set(tops.map((t) => t.wiresDb)).size).toBeGreaterThan(10);
      expect(mixPlan(family, 42).drumTop).toEqual(mixPlan(family, 42).drumTop);
    }
  });
});
