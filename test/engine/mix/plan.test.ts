/**
 * A song's production drawn from its seed (src/engine/mix/plan.ts, issue 18: every song of a genre had the
 * same kit and effects): the kit from the family's pool, the room around the family's, rock's guitar tone.
 */
import { describe, expect, it } from 'vitest';
import type { GenreFamily } from '../../../src/engine/compose/style.js';
import { DRUM_KITS, mixPlan } from '../../../src/engine/mix/plan.js';

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
    const base = mixPlan('rock').buses.chords.eq.length;
    const tones = SEEDS.map((seed) => mixPlan('rock', seed).buses.chords.eq.slice(base));
    for (const [tone] of tones) {
      expect(tone.type).toBe('peak');
      expect(tone.hz).toBeGreaterThanOrEqual(600);
      expect(tone.hz).toBeLessThanOrEqual(3000);
      expect(Math.abs(tone.db!)).toBeLessThanOrEqual(8);
    }
    expect(Math.max(...tones.map(([t]) => t.db!)) - Math.min(...tones.map(([t]) => t.db!))).toBeGreaterThan(10);
    for (const family of FAMILIES.filter((f) => f !== 'rock')) expect(mixPlan(family, 42).buses.chords.eq).toEqual(mixPlan(family).buses.chords.eq);
  });
});
