/**
 * The master EQ per genre family (issue 18): fitted to the MEAN deviation of the family's songs from its
 * reference curve (mix/tonal-balance.ts), rendered without it over a fixed set of seeds, so it corrects what
 * the family's songs share (its systematic bias) and leaves each song's own colour, which a per-song fit
 * onto the curve erased (lo-fi timbre spread 4.2 dB -> 1.4 dB, bench/README.md "Timbre spread").
 * Generated: `npx tsx bench/tonal-balance.ts --derive` prints this file; rerun it when the composer,
 * the SoundFont or the bus EQ changes the average spectrum of a family. Static data: deterministic and
 * free to design at render time (a few biquads per sample).
 */
import type { GenreFamily } from '../compose/style.js';
import type { Band } from './biquad.js';

export const GENRE_EQ: Record<GenreFamily, readonly Band[]> = {
  pop: [
    { type: 'peak', hz: 5000, q: 1.4, db: -5.42 },
    { type: 'peak', hz: 630, q: 1.4, db: -6.93 },
    { type: 'highshelf', hz: 10000, db: -4.64 },
    { type: 'peak', hz: 800, q: 1.4, db: 3.55 },
    { type: 'peak', hz: 1250, q: 1.4, db: -2.45 },
    { type: 'peak', hz: 160, q: 1.4, db: -2.45 },
    { type: 'peak', hz: 4000, q: 1.4, db: -2.34 },
  ],
  rock: [
    { type: 'highshelf', hz: 6300, db: -7.8 },
    { type: 'peak', hz: 3150, q: 1.4, db: -5.03 },
    { type: 'lowshelf', hz: 100, db: 3.92 },
    { type: 'peak', hz: 200, q: 1.4, db: -2.62 },
    { type: 'peak', hz: 2500, q: 1.4, db: -4.28 },
    { type: 'peak', hz: 400, q: 1.4, db: 1.13 },
    { type: 'peak', hz: 10000, q: 1.4, db: 0.68 },
    { type: 'lowshelf', hz: 63, db: -0.57 },
  ],
  electronic: [
    { type: 'peak', hz: 5000, q: 1.4, db: -5.27 },
    { type: 'peak', hz: 630, q: 1.4, db: -6.89 },
    { type: 'highshelf', hz: 10000, db: -4.76 },
    { type: 'peak', hz: 800, q: 1.4, db: 3.22 },
    { type: 'peak', hz: 1250, q: 1.4, db: -2.25 },
    { type: 'peak', hz: 160, q: 1.4, db: -2.11 },
    { type: 'peak', hz: 4000, q: 1.4, db: -2.17 },
  ],
  jazz: [
    { type: 'peak', hz: 1000, q: 1.4, db: 2.96 },
    { type: 'peak', hz: 1600, q: 1.4, db: -6.79 },
    { type: 'peak', hz: 400, q: 1.4, db: 5 },
    { type: 'peak', hz: 630, q: 1.4, db: -10 },
    { type: 'peak', hz: 800, q: 1.4, db: 10 },
    { type: 'highshelf', hz: 6300, db: -2.98 },
    { type: 'lowshelf', hz: 80, db: -4.53 },
    { type: 'peak', hz: 125, q: 1.4, db: 5.2 },
    { type: 'peak', hz: 3150, q: 1.4, db: 1.99 },
  ],
  lofi: [
    { type: 'highshelf', hz: 6300, db: -4.5 },
    { type: 'peak', hz: 2500, q: 1.4, db: -7.05 },
    { type: 'peak', hz: 4000, q: 1.4, db: 4.11 },
    { type: 'peak', hz: 630, q: 1.4, db: -8.96 },
    { type: 'peak', hz: 400, q: 1.4, db: 5.22 },
    { type: 'peak', hz: 800, q: 1.4, db: 9.19 },
    { type: 'lowshelf', hz: 100, db: 5.88 },
    { type: 'peak', hz: 3150, q: 1.4, db: 3.19 },
    { type: 'peak', hz: 1600, q: 1.4, db: 1.16 },
  ],
  folk: [
    { type: 'highshelf', hz: 8000, db: 8.48 },
    { type: 'peak', hz: 200, q: 1.4, db: 6.31 },
    { type: 'peak', hz: 2000, q: 1.4, db: -4.84 },
    { type: 'peak', hz: 630, q: 1.4, db: -7.93 },
    { type: 'lowshelf', hz: 80, db: -9.24 },
    { type: 'peak', hz: 800, q: 1.4, db: 2.93 },
    { type: 'peak', hz: 100, q: 1.4, db: 2.83 },
    { type: 'peak', hz: 160, q: 1.4, db: -3.64 },
    { type: 'peak', hz: 8000, q: 1.4, db: -2.69 },
  ],
  ambient: [
    { type: 'highshelf', hz: 6300, db: 10 },
    { type: 'peak', hz: 800, q: 1.4, db: 3.15 },
    { type: 'peak', hz: 400, q: 1.4, db: -4.59 },
    { type: 'highshelf', hz: 6300, db: 10 },
    { type: 'lowshelf', hz: 125, db: 8.96 },
    { type: 'peak', hz: 160, q: 1.4, db: 6.34 },
    { type: 'highshelf', hz: 6300, db: 10 },
    { type: 'peak', hz: 4000, q: 1.4, db: 10 },
    { type: 'peak', hz: 125, q: 1.4, db: 7.44 },
  ],
};
