/**
 * How each kind of section is written: line count, rhyme scheme and syllable range. Choruses are shorter
 * and built around a hook line that opens and closes them (H B B H), which is what makes them singable and
 * recognisable when they come back.
 */
import type { SectionKind } from './structure.js';

export interface SectionPlan {
  /** One letter per line; equal letters rhyme. "H" marks the hook line, repeated verbatim. */
  scheme: string;
  syllables: [number, number];
}

export const SECTION_PLANS: Record<SectionKind, SectionPlan> = {
  verse: { scheme: 'ABAB', syllables: [6, 10] },
  chorus: { scheme: 'HBBH', syllables: [5, 8] },
  pre_chorus: { scheme: 'AA', syllables: [5, 9] },
  bridge: { scheme: 'AABB', syllables: [5, 9] },
  hook: { scheme: 'HH', syllables: [4, 7] },
  refrain: { scheme: 'HAAH', syllables: [5, 8] },
  intro: { scheme: 'AA', syllables: [4, 8] },
  outro: { scheme: 'AA', syllables: [4, 8] },
};

/** Line index pairs that are meant to rhyme and are different lines (the hook repeats do not count). */
export function rhymePairs(scheme: string): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  for (let i = 0; i < scheme.length; i++) {
    if (scheme[i] === 'H') continue;
    const first = scheme.indexOf(scheme[i]);
    if (first < i) pairs.push([first, i]);
  }
  return pairs;
}
