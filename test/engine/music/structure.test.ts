/**
 * Form by song (issue 18: every song of a genre had the same form and length): planSections draws the form
 * from the family's forms and the intro and outro lengths per seed, always covering exactly the bars asked
 * for, the same way for the same seed; without a variant stream it is the fixed form.
 */
import { describe, expect, it } from 'vitest';
import { emptyAudioModel } from '../../../src/engine/compose/audio-model.js';
import { RING_OUT_SEC, composeScore } from '../../../src/engine/compose/index.js';
import { secondsPerBeat } from '../../../src/engine/compose/score.js';
import { MIN_LENGTH_SHARE, VARY_LENGTH_FROM_SEC, chooseForm, planSections, songLengthSec } from '../../../src/engine/compose/structure.js';
import type { GenreFamily } from '../../../src/engine/compose/style.js';
import { Rng } from '../../../src/engine/random.js';
import { LOFI_CONTEXT } from './helpers.js';

const FAMILIES: GenreFamily[] = ['pop', 'rock', 'electronic', 'lofi', 'jazz', 'folk', 'ambient'];
const SEEDS = Array.from({ length: 40 }, (_, i) => 1000 + 7 * i);
const names = (s: { name: string }[]) => s.map((x) => x.name).join(' ');

describe('form by song', () => {
  it('keeps the fixed form without a variant stream', () => {
    expect(names(planSections(80))).toBe('intro verse chorus verse chorus bridge chorus outro');
    expect(names(chooseForm())).toBe('intro verse chorus verse chorus bridge chorus outro');
  });

  it('covers exactly the bars asked for, in order, for every family, seed and length', () => {
    for (const family of FAMILIES)
      for (const bars of [6, 17, 48, 90])
        for (const seed of SEEDS.slice(0, 10)) {
          const sections = planSections(bars, Rng.derive(seed, 'form'), family);
          expect(sections.reduce((n, s) => n + s.bars, 0)).toBe(bars);
          sections.forEach((s, i) => {
            expect(s.bars).toBeGreaterThan(0);
            expect(s.startBar).toBe(i === 0 ? 0 : sections[i - 1].startBar + sections[i - 1].bars);
          });
        }
  });

  it('is the same for the same seed', () => {
    for (const family of FAMILIES) expect(planSections(80, Rng.derive(5, 'form'), family)).toEqual(planSections(80, Rng.derive(5, 'form'), family));
  });

  it('varies the form and the intro and outro lengths between songs of one family', () => {
    for (const family of FAMILIES) {
      const songs = SEEDS.map((seed) => planSections(80, Rng.derive(seed, 'form'), family));
      expect(new Set(songs.map(names)).size, family).toBeGreaterThanOrEqual(3);
      expect(new Set(songs.map((s) => s[0].bars)).size, `${family} intro`).toBeGreaterThanOrEqual(3);
      expect(new Set(songs.map((s) => s.at(-1)!.bars)).size, `${family} outro`).toBeGreaterThanOrEqual(3);
      // Every form still has a chorus and starts with the intro.
      for (const s of songs) {
        expect(s[0].name).toBe('intro');
        expect(s.some((x) => x.name === 'chorus')).toBe(true);
      }
    }
  });

  it('draws the forms each genre expects: songs without a bridge in lo-fi, three verses in folk, long arcs in ambient', () => {
    const forms = (family: GenreFamily) => SEEDS.map((seed) => planSections(96, Rng.derive(seed, 'form'), family));
    expect(forms('lofi').some((s) => !s.some((x) => x.name === 'bridge'))).toBe(true);
    expect(forms('folk').some((s) => s.filter((x) => x.name === 'verse').length === 3)).toBe(true);
    // Ambient never takes the chorus-first pop form, and some of its songs spend a long time arriving.
    expect(forms('ambient').every((s) => s[1].name !== 'chorus')).toBe(true);
    expect(forms('ambient').some((s) => s[0].bars >= 12)).toBe(true);
  });
});

describe('length by song', () => {
  it('renders a short request at exactly its length', () => {
    for (const max of [1, 8, 30, VARY_LENGTH_FROM_SEC - 1]) for (const seed of SEEDS.slice(0, 5)) expect(songLengthSec(max, seed)).toBe(max);
  });

  it('gives a long request a whole-second length of its own between 80% of the maximum and the maximum, the same for the same seed', () => {
    for (const max of [60, 120, 180, 600]) {
      const lengths = SEEDS.map((seed) => songLengthSec(max, seed));
      for (const l of lengths) {
        expect(Number.isInteger(l)).toBe(true);
        expect(l).toBeLessThanOrEqual(max);
        expect(l).toBeGreaterThanOrEqual(Math.max(VARY_LENGTH_FROM_SEC, Math.round(max * MIN_LENGTH_SHARE)));
      }
      expect(SEEDS.map((seed) => songLengthSec(max, seed))).toEqual(lengths);
      // Spread over the range, not bunched: at 180 s the 40 songs span more than half of the 36 s allowed.
      if (max === 180) expect(Math.max(...lengths) - Math.min(...lengths)).toBeGreaterThan(18);
    }
  });

  it('composes the song into its own length, leaving the ring-out', () => {
    for (const seed of SEEDS.slice(0, 6)) {
      const score = composeScore({ context: LOFI_CONTEXT, seed, maxDurationSec: 180, model: emptyAudioModel() });
      const length = songLengthSec(180, seed);
      const barSec = 4 * secondsPerBeat(score);
      const musicSec = score.totalBeats * secondsPerBeat(score);
      expect(musicSec).toBeLessThanOrEqual(length - RING_OUT_SEC + 1e-9);
      expect(musicSec).toBeGreaterThan(length - RING_OUT_SEC - barSec);
    }
  });
});
