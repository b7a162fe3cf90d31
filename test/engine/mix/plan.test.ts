/**
 * A song's production drawn from its seed (src/engine/mix/plan.ts, issue 18: every song of a genre had the
 * same kit and effects): the kit from the family's pool, the room around the family's, rock's guitar tone and its colour over
 * keys, lead and pads.
 */
import { describe, expect, it } from 'vitest';
import type { GenreFamily } from '../../../src/engine/compose/style.js';
import { BALANCE_DB, DRUM_KITS, mixPlan, type PartRole } from '../../../src/engine/mix/plan.js';

const FAMILIES: GenreFamily[] = ['pop', 'rock', 'electronic', 'lofi', 'jazz', 'folk', 'ambient'];
const SEEDS = Array.from({ length: 60 }, (_, i) => 17 + 31 * i);

describe('production by song', () => {
  it('is the family default without a seed, and the same for the same seed', () => {
    for (const family of FAMILIES) {
      expect(mixPlan(family).drumKit).toBe(DRUM_KITS[family][0]);
      expect(mixPlan(family, 42)).toEqual(mixPlan(family, 42));
    }
  });

  it('draws every kit of the family pool over songs, and only those', () => {
    for (const family of FAMILIES) {
      const kits = new Set(SEEDS.map((seed) => mixPlan(family, seed).drumKit));
      expect([...kits].sort((a, b) => a - b)).toEqual([...DRUM_KITS[family]].sort((a, b) => a - b));
    }
  });

  it('scales the room within 1/1.35 and 1.35 of the family room', () => {
    for (const family of FAMILIES) {
      const base = mixPlan(family).reverb.rt60;
      const rooms = SEEDS.map((seed) => mixPlan(family, seed).reverb.rt60);
      for (const rt of rooms) {
        expect(rt).toBeGreaterThanOrEqual(base / 1.35 - 0.01);
        expect(rt).toBeLessThanOrEqual(base * 1.35 + 0.01);
      }
      expect(Math.max(...rooms) - Math.min(...rooms)).toBeGreaterThan(base * 0.4);
    }
  });

  it("gives rock's guitars a tone of their own (a broad band of up to 8 dB at 600 Hz-3 kHz), and no other family's keys", () => {
    for (const [family, depth] of [['rock', 8]] as const) {
      const base = mixPlan(family).buses.chords.eq.length;
      const tones = SEEDS.map((seed) => mixPlan(family, seed).buses.chords.eq.slice(base));
      for (const [tone] of tones) {
        expect(tone.type).toBe('peak');
        expect(tone.hz).toBeGreaterThanOrEqual(600);
        expect(tone.hz).toBeLessThanOrEqual(3000);
        expect(Math.abs(tone.db!)).toBeLessThanOrEqual(depth);
      }
      expect(Math.max(...tones.map(([t]) => t.db!)) - Math.min(...tones.map(([t]) => t.db!))).toBeGreaterThan(depth * 1.25);
    }
    for (const family of FAMILIES.filter((f) => f !== 'rock' && f !== 'lofi'))
      expect(mixPlan(family, 42).buses.chords.eq).toEqual(mixPlan(family).buses.chords.eq);
  });

  it('colours keys, lead and pads of a rock song with one treble shelf around 0 dB, and nothing else', () => {
    for (const [family, depth] of [['rock', 4]] as const) {
      const shelves = SEEDS.map((seed) => {
        const plan = mixPlan(family, seed);
        const [chords, melody, pad] = (['chords', 'melody', 'pad'] as const).map((role) => plan.buses[role].eq.at(-1)!);
        expect(melody).toEqual(chords);
        expect(pad).toEqual(chords);
        expect(chords.type).toBe('highshelf');
        expect(Math.abs(chords.db!)).toBeLessThanOrEqual(depth);
        expect(plan.buses.drums.eq).toEqual(mixPlan(family).buses.drums.eq);
        expect(plan.buses.bass.eq).toEqual(mixPlan(family).buses.bass.eq);
        return chords.db!;
      });
      expect(Math.max(...shelves) - Math.min(...shelves)).toBeGreaterThan(depth * 1.5);
      // Around 0 dB: the family's mean spectrum, which its master EQ corrects, does not move.
      expect(Math.abs(shelves.reduce((a, b) => a + b, 0) / shelves.length)).toBeLessThan(depth / 4);
    }
    for (const family of FAMILIES.filter((f) => f !== 'rock'))
      for (const role of ['melody', 'pad'] as const) expect(mixPlan(family, 42).buses[role].eq).toEqual(mixPlan(family).buses[role].eq);
  });

  it("draws each bus's level within +-BALANCE_DB of the family's, around it, and the vocal's not at all", () => {
    for (const family of FAMILIES) {
      const base = mixPlan(family);
      for (const role of Object.keys(BALANCE_DB) as PartRole[]) {
        const offsets = SEEDS.map((seed) => mixPlan(family, seed).buses[role].gainDb - base.buses[role].gainDb);
        for (const o of offsets) expect(Math.abs(o)).toBeLessThanOrEqual(BALANCE_DB[role] + 1e-9);
        // Spread over songs, and centred: the family's mean spectrum, which its master EQ corrects, stays.
        expect(Math.max(...offsets) - Math.min(...offsets)).toBeGreaterThan(BALANCE_DB[role]);
        expect(Math.abs(offsets.reduce((a, b) => a + b, 0) / offsets.length)).toBeLessThan(BALANCE_DB[role] / 4);
      }
      expect(mixPlan(family, 42).vocal).toEqual(base.vocal);
    }
  });
});
