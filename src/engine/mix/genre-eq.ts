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
    { type: 'highshelf', hz: 6300, db: -10 },
    { type: 'peak', hz: 4000, q: 1.4, db: -4.96 },
    { type: 'peak', hz: 100, q: 1.4, db: 5.96 },
    { type: 'peak', hz: 160, q: 1.4, db: -8.75 },
    { type: 'peak', hz: 200, q: 1.4, db: 8.97 },
    { type: 'peak', hz: 500, q: 1.4, db: -1.99 },
    { type: 'peak', hz: 800, q: 1.4, db: 1.79 },
    { type: 'peak', hz: 125, q: 1.4, db: -1.97 },
  ],
  rock: [
    { type: 'highshelf', hz: 6300, db: -9.59 },
    { type: 'peak', hz: 4000, q: 1.4, db: -3.09 },
    { type: 'peak', hz: 2500, q: 1.4, db: -8.54 },
    { type: 'peak', hz: 250, q: 1.4, db: -8.41 },
    { type: 'highshelf', hz: 6300, db: -4.08 },
    { type: 'peak', hz: 315, q: 1.4, db: 6.83 },
    { type: 'peak', hz: 100, q: 1.4, db: 3.42 },
    { type: 'peak', hz: 125, q: 1.4, db: -2.11 },
    { type: 'peak', hz: 630, q: 1.4, db: -1.4 },
  ],
  electronic: [
    { type: 'highshelf', hz: 6300, db: -10 },
    { type: 'peak', hz: 4000, q: 1.4, db: -4.67 },
    { type: 'lowshelf', hz: 100, db: 7.19 },
    { type: 'peak', hz: 160, q: 1.4, db: -6.9 },
    { type: 'peak', hz: 200, q: 1.4, db: 5.22 },
    { type: 'peak', hz: 500, q: 1.4, db: -2.09 },
    { type: 'peak', hz: 800, q: 1.4, db: 1.47 },
    { type: 'lowshelf', hz: 63, db: -7.5 },
    { type: 'peak', hz: 100, q: 1.4, db: 1.03 },
  ],
  jazz: [
    { type: 'highshelf', hz: 6300, db: -7.97 },
    { type: 'peak', hz: 1000, q: 1.4, db: 10 },
    { type: 'peak', hz: 200, q: 1.4, db: 2.84 },
    { type: 'peak', hz: 100, q: 1.4, db: 5.36 },
    { type: 'peak', hz: 400, q: 1.4, db: 7.34 },
    { type: 'peak', hz: 500, q: 1.4, db: -5.29 },
    { type: 'peak', hz: 1600, q: 1.4, db: -1.6 },
    { type: 'peak', hz: 1000, q: 1.4, db: -5.4 },
    { type: 'peak', hz: 800, q: 1.4, db: 3.56 },
  ],
  lofi: [
    { type: 'highshelf', hz: 6300, db: -9.14 },
    { type: 'peak', hz: 2500, q: 1.4, db: -10 },
    { type: 'highshelf', hz: 6300, db: -5.72 },
    { type: 'peak', hz: 500, q: 1.4, db: -6.85 },
    { type: 'peak', hz: 200, q: 1.4, db: -3.62 },
    { type: 'peak', hz: 400, q: 1.4, db: 3.87 },
    { type: 'lowshelf', hz: 63, db: -3.84 },
    { type: 'peak', hz: 125, q: 1.4, db: -1.82 },
    { type: 'peak', hz: 6300, q: 1.4, db: -2.11 },
  ],
  folk: [
    { type: 'peak', hz: 2000, q: 1.4, db: -4.94 },
    { type: 'lowshelf', hz: 80, db: -7.99 },
    { type: 'peak', hz: 630, q: 1.4, db: -7.55 },
    { type: 'peak', hz: 800, q: 1.4, db: 8.73 },
    { type: 'peak', hz: 100, q: 1.4, db: 4.93 },
    { type: 'peak', hz: 1250, q: 1.4, db: -2.54 },
    { type: 'peak', hz: 125, q: 1.4, db: -3.07 },
    { type: 'peak', hz: 200, q: 1.4, db: 1.75 },
    { type: 'peak', hz: 1000, q: 1.4, db: -1.78 },
  ],
  ambient: [
    { type: 'peak', hz: 800, q: 1.4, db: 1.99 },
    { type: 'peak', hz: 400, q: 1.4, db: 1.21 },
    { type: 'highshelf', hz: 6300, db: 6.49 },
    { type: 'peak', hz: 125, q: 1.4, db: 8.29 },
    { type: 'peak', hz: 6300, q: 1.4, db: 7.03 },
    { type: 'peak', hz: 315, q: 1.4, db: -10 },
    { type: 'peak', hz: 1600, q: 1.4, db: -7.77 },
    { type: 'peak', hz: 630, q: 1.4, db: -6.15 },
    { type: 'peak', hz: 500, q: 1.4, db: -6.2 },
  ],
};
