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
    { type: 'lowshelf', hz: 100, db: 3.9 },
    { type: 'peak', hz: 5000, q: 1.4, db: -5.66 },
    { type: 'peak', hz: 630, q: 1.4, db: -5.98 },
    { type: 'highshelf', hz: 10000, db: -3.51 },
    { type: 'peak', hz: 800, q: 1.4, db: 3.59 },
    { type: 'peak', hz: 125, q: 1.4, db: -2.09 },
    { type: 'peak', hz: 1250, q: 1.4, db: -0.99 },
    { type: 'lowshelf', hz: 63, db: -2.52 },
    { type: 'peak', hz: 100, q: 1.4, db: 0.44 },
  ],
  rock: [
    { type: 'highshelf', hz: 6300, db: -9.2 },
    { type: 'peak', hz: 4000, q: 1.4, db: -2.79 },
    { type: 'peak', hz: 2500, q: 1.4, db: -8.61 },
    { type: 'peak', hz: 100, q: 1.4, db: 5.92 },
    { type: 'peak', hz: 250, q: 1.4, db: -6.29 },
    { type: 'peak', hz: 125, q: 1.4, db: -5.76 },
    { type: 'peak', hz: 315, q: 1.4, db: 3.88 },
    { type: 'peak', hz: 160, q: 1.4, db: 1.67 },
    { type: 'peak', hz: 10000, q: 1.4, db: 1.47 },
  ],
  electronic: [
    { type: 'lowshelf', hz: 100, db: 3.5 },
    { type: 'peak', hz: 5000, q: 1.4, db: -5.53 },
    { type: 'peak', hz: 630, q: 1.4, db: -6.11 },
    { type: 'highshelf', hz: 10000, db: -3.59 },
    { type: 'peak', hz: 800, q: 1.4, db: 3.63 },
    { type: 'peak', hz: 125, q: 1.4, db: -1.66 },
    { type: 'peak', hz: 1250, q: 1.4, db: -0.94 },
    { type: 'lowshelf', hz: 63, db: -1.1 },
  ],
  jazz: [
    { type: 'peak', hz: 1000, q: 1.4, db: 4.89 },
    { type: 'peak', hz: 160, q: 1.4, db: 2.76 },
    { type: 'peak', hz: 100, q: 1.4, db: 6.02 },
    { type: 'peak', hz: 400, q: 1.4, db: 9.55 },
    { type: 'peak', hz: 5000, q: 1.4, db: 3.18 },
    { type: 'peak', hz: 500, q: 1.4, db: -6.49 },
    { type: 'peak', hz: 3150, q: 1.4, db: 3.42 },
    { type: 'peak', hz: 1600, q: 1.4, db: -2.24 },
    { type: 'peak', hz: 800, q: 1.4, db: 4.83 },
  ],
  lofi: [
    { type: 'highshelf', hz: 6300, db: -10 },
    { type: 'peak', hz: 2500, q: 1.4, db: -9.93 },
    { type: 'peak', hz: 630, q: 1.4, db: -8.26 },
    { type: 'peak', hz: 200, q: 1.4, db: -5.8 },
    { type: 'peak', hz: 125, q: 1.4, db: -4.22 },
    { type: 'peak', hz: 6300, q: 1.4, db: -4.06 },
    { type: 'lowshelf', hz: 63, db: -6.94 },
    { type: 'peak', hz: 1600, q: 1.4, db: -4.03 },
    { type: 'highshelf', hz: 12500, db: -4.14 },
  ],
  folk: [
    { type: 'highshelf', hz: 6300, db: 7.31 },
    { type: 'peak', hz: 2000, q: 1.4, db: -4.59 },
    { type: 'lowshelf', hz: 80, db: -6.51 },
    { type: 'peak', hz: 630, q: 1.4, db: -9.18 },
    { type: 'peak', hz: 800, q: 1.4, db: 10 },
    { type: 'peak', hz: 1250, q: 1.4, db: -4.92 },
    { type: 'highshelf', hz: 12500, db: 7.41 },
    { type: 'peak', hz: 250, q: 1.4, db: 2.1 },
    { type: 'peak', hz: 100, q: 1.4, db: 1.67 },
  ],
  ambient: [
    { type: 'highshelf', hz: 6300, db: 9.79 },
    { type: 'peak', hz: 800, q: 1.4, db: -0.54 },
    { type: 'peak', hz: 400, q: 1.4, db: -7.46 },
    { type: 'highshelf', hz: 6300, db: 9.79 },
    { type: 'peak', hz: 125, q: 1.4, db: 9.2 },
    { type: 'highshelf', hz: 6300, db: 5.12 },
    { type: 'peak', hz: 5000, q: 1.4, db: 8.09 },
    { type: 'peak', hz: 250, q: 1.4, db: -4.88 },
    { type: 'peak', hz: 160, q: 1.4, db: 7.25 },
  ],
};
