/**
 * Humanised timing and velocity: a player is never on the sample grid. Each note moves by a small seeded
 * offset (triangular, within +-maxMs; a part also leans a little ahead of or behind the beat as a whole)
 * and its velocity by a few steps. Loose families (lo-fi, jazz, folk) move more than tight ones
 * (electronic, whose drums and bass are machines and move least). One generator per part, derived from the
 * track's seed: the same seed gives the same performance.
 */
import { Rng } from '../random.js';
import type { GenreFamily } from '../compose/style.js';

export interface Humanise {
  seed: number;
  family: GenreFamily;
}

/** Largest timing offset of a note (ms) and velocity spread (steps), by family. */
const FEEL: Record<GenreFamily, { maxMs: number; velocity: number }> = {
  electronic: { maxMs: 3, velocity: 4 },
  pop: { maxMs: 6, velocity: 6 },
  rock: { maxMs: 7, velocity: 7 },
  ambient: { maxMs: 8, velocity: 5 },
  folk: { maxMs: 10, velocity: 8 },
  jazz: { maxMs: 12, velocity: 9 },
  lofi: { maxMs: 14, velocity: 9 },
};

export interface NoteFeel {
  /** Timing offset in samples for the next note of the part. */
  offset(): number;
  /** The velocity to play for a written one. */
  velocity(written: number): number;
}

/** The feel of one part (channel); null humanise gives the score as written. */
export function partFeel(h: Humanise | null | undefined, channel: number, sampleRate: number): NoteFeel {
  if (!h) return { offset: () => 0, velocity: (v) => v };
  const rng = Rng.derive(h.seed, `humanise:${channel}`);
  const feel = FEEL[h.family];
  const machine = h.family === 'electronic' && (channel === 9 || channel === 1);
  const maxSamples = ((machine ? 0.4 : 1) * feel.maxMs * sampleRate) / 1000;
  const lean = (rng.next() - 0.5) * 0.5 * maxSamples;
  return {
    offset: () => Math.round(lean + (rng.next() - rng.next()) * maxSamples * 0.75),
    velocity: (v) => Math.max(1, Math.min(127, Math.round(v + (rng.next() - rng.next()) * feel.velocity))),
  };
}
