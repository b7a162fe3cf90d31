import type { DemoRelease } from './types.js';

/**
 * How the demo catalog is released: each house artist's six masters grouped into albums, EPs and singles. The
 * masters came out one a year (their `releaseYear`, which their ISRCs carry); a release gathers some of them and
 * is dated by its newest, as a record collecting earlier singles would be.
 */
export const demoReleases: DemoRelease[] = [
  { slug: 'quiet-radiator-margin-notes', title: 'Margin Notes', artistSlug: 'quiet-radiator', type: 'ep', releaseYear: 2021,
    trackSlugs: ['margin-notes', 'rain-on-the-bus-window', 'fire-escape-astronomy'] },
  { slug: 'quiet-radiator-library-basement', title: 'Library Basement', artistSlug: 'quiet-radiator', type: 'ep', releaseYear: 2025,
    trackSlugs: ['library-basement', 'headphones-on-the-train'] },
  { slug: 'quiet-radiator-steam-radiator-study', title: 'Steam Radiator Study', artistSlug: 'quiet-radiator', type: 'single', releaseYear: 2026,
    trackSlugs: ['steam-radiator-study'] },

  { slug: 'neon-tidewater-run-the-grid', title: 'Run the Grid', artistSlug: 'neon-tidewater', type: 'album', releaseYear: 2022,
    trackSlugs: ['chrome-horizon', 'midnight-overpass', 'arcade-heart', 'run-the-grid'] },
  { slug: 'neon-tidewater-pulse-rate', title: 'Pulse Rate', artistSlug: 'neon-tidewater', type: 'single', releaseYear: 2024,
    trackSlugs: ['pulse-rate'] },
  { slug: 'neon-tidewater-neon-undertow', title: 'Neon Undertow', artistSlug: 'neon-tidewater', type: 'single', releaseYear: 2026,
    trackSlugs: ['neon-undertow'] },

  { slug: 'juniper-ferry-northbound', title: 'Northbound', artistSlug: 'juniper-ferry', type: 'album', releaseYear: 2022,
    trackSlugs: ['salt-on-the-ferry-rail', 'mothers-kitchen-clock', 'hedgerow-reel', 'northbound'] },
  { slug: 'juniper-ferry-cartas-al-rio', title: 'Cartas al Río', artistSlug: 'juniper-ferry', type: 'ep', releaseYear: 2025,
    trackSlugs: ['camino-de-sal', 'cartas-al-rio'] },

  { slug: 'marisol-velvet-hours-honey-and-thunder', title: 'Honey and Thunder', artistSlug: 'marisol-velvet-hours', type: 'album', releaseYear: 2022,
    trackSlugs: ['velvet-hour', 'last-call-vamp', 'honey-and-thunder', 'luna-de-cobre'] },
  { slug: 'marisol-velvet-hours-dont-dim-me', title: "Don't Dim Me", artistSlug: 'marisol-velvet-hours', type: 'single', releaseYear: 2024,
    trackSlugs: ['dont-dim-me'] },
  { slug: 'marisol-velvet-hours-canela', title: 'Canela', artistSlug: 'marisol-velvet-hours', type: 'single', releaseYear: 2026,
    trackSlugs: ['canela'] },

  { slug: 'slow-orbit-society-tape-loops', title: 'Tape Loops for a Sleeping City', artistSlug: 'slow-orbit-society', type: 'album', releaseYear: 2025,
    trackSlugs: ['tape-loop-for-a-sleeping-city', 'low-earth-lullaby', 'kelp-forest-drift', 'between-stations', 'salt-flats-at-noon', 'night-ferry-hum'] },
];
