import type { DemoCredit, DemoTrack } from './types.js';

/**
 * The demo catalog: six masters per house artist, releases spread over 2019-2026 for the era filter.
 * ISRCs use the QZ test prefix with one registrant code per artist (S7A..S7E); the year digits match
 * `releaseYear`. About two thirds of the tracks carry a song from the lyrics corpus; the rest are
 * instrumental (Slow Orbit Society almost entirely).
 */

const solo = (songwriterSlug: string): DemoCredit[] => [
  { songwriterSlug, role: 'composer_lyricist', splitPct: 100 },
];

export const demoTracks: DemoTrack[] = [
  // Quiet Radiator: lo-fi / chill hip hop, 70-90 bpm, low energy.
  {
    slug: 'margin-notes', title: 'Margin Notes', artistSlug: 'quiet-radiator',
    genre: 'lo-fi', subgenre: 'chill hip hop', mood: ['calm', 'focused'], lifestyle: 'focus',
    bpm: 78, key: 'F', mode: 'major', energy: 0.3, releaseYear: 2019, isrc: 'QZS7A1900001', explicit: false,
    lyricsId: 'margin-notes',
    credits: [
      { songwriterSlug: 'ada-kimura', role: 'composer_lyricist', splitPct: 60 },
      { songwriterSlug: 'theo-brandt', role: 'composer', splitPct: 40 },
    ],
  },
  {
    slug: 'rain-on-the-bus-window', title: 'Rain on the Bus Window', artistSlug: 'quiet-radiator',
    genre: 'lo-fi', subgenre: 'jazzhop', mood: ['melancholic', 'calm'], lifestyle: 'chill',
    bpm: 72, key: 'D', mode: 'minor', energy: 0.25, releaseYear: 2020, isrc: 'QZS7A2000002', explicit: false,
    lyricsId: 'rain-on-the-bus-window',
    credits: [
      { songwriterSlug: 'theo-brandt', role: 'composer_lyricist', splitPct: 70 },
      { songwriterSlug: 'ada-kimura', role: 'composer', splitPct: 30 },
    ],
  },
  {
    slug: 'fire-escape-astronomy', title: 'Fire Escape Astronomy', artistSlug: 'quiet-radiator',
    genre: 'lo-fi', subgenre: 'chill hip hop', mood: ['dreamy', 'hopeful'], lifestyle: 'chill',
    bpm: 80, key: 'D#', mode: 'major', energy: 0.33, releaseYear: 2021, isrc: 'QZS7A2100003', explicit: false,
    lyricsId: 'fire-escape-astronomy',
    credits: [
      { songwriterSlug: 'ada-kimura', role: 'composer_lyricist', splitPct: 50 },
      { songwriterSlug: 'cal-ferris', role: 'composer', splitPct: 50 },
    ],
  },
  {
    slug: 'library-basement', title: 'Library Basement', artistSlug: 'quiet-radiator',
    genre: 'lo-fi', subgenre: 'lo-fi beats', mood: ['focused', 'calm'], lifestyle: 'focus',
    bpm: 84, key: 'C', mode: 'minor', energy: 0.35, releaseYear: 2023, isrc: 'QZS7A2300004', explicit: false,
    lyricsId: 'library-basement', credits: solo('ada-kimura'),
  },
  {
    slug: 'headphones-on-the-train', title: 'Headphones on the Train', artistSlug: 'quiet-radiator',
    genre: 'lo-fi', subgenre: 'chill hip hop', mood: ['restless', 'focused'], lifestyle: 'focus',
    bpm: 88, key: 'G', mode: 'minor', energy: 0.42, releaseYear: 2025, isrc: 'QZS7A2500005', explicit: false,
    lyricsId: 'headphones-on-the-train',
    credits: [
      { songwriterSlug: 'ada-kimura', role: 'lyricist', splitPct: 50 },
      { songwriterSlug: 'theo-brandt', role: 'composer', splitPct: 50 },
    ],
  },
  {
    slug: 'steam-radiator-study', title: 'Steam Radiator Study', artistSlug: 'quiet-radiator',
    genre: 'lo-fi', subgenre: 'lo-fi beats', mood: ['calm', 'cozy'], lifestyle: 'sleep',
    bpm: 74, key: 'A#', mode: 'major', energy: 0.22, releaseYear: 2026, isrc: 'QZS7A2600006', explicit: false,
    lyricsId: null,
    credits: [
      { songwriterSlug: 'theo-brandt', role: 'composer', splitPct: 60 },
      { songwriterSlug: 'ada-kimura', role: 'composer', splitPct: 40 },
    ],
  },

  // Neon Tidewater: synthwave / electronic, 100-128 bpm, high energy.
  {
    slug: 'chrome-horizon', title: 'Chrome Horizon', artistSlug: 'neon-tidewater',
    genre: 'synthwave', subgenre: 'outrun', mood: ['euphoric', 'restless'], lifestyle: 'party',
    bpm: 118, key: 'A', mode: 'minor', energy: 0.78, releaseYear: 2019, isrc: 'QZS7B1900001', explicit: false,
    lyricsId: 'chrome-horizon',
    credits: [
      { songwriterSlug: 'lena-voss', role: 'composer_lyricist', splitPct: 70 },
      { songwriterSlug: 'kasimir-oduya', role: 'composer', splitPct: 30 },
    ],
  },
  {
    slug: 'midnight-overpass', title: 'Midnight Overpass', artistSlug: 'neon-tidewater',
    genre: 'synthwave', subgenre: 'darksynth', mood: ['restless', 'melancholic'], lifestyle: 'chill',
    bpm: 104, key: 'F#', mode: 'minor', energy: 0.55, releaseYear: 2020, isrc: 'QZS7B2000002', explicit: false,
    lyricsId: 'midnight-overpass', credits: solo('kasimir-oduya'),
  },
  {
    slug: 'arcade-heart', title: 'Arcade Heart', artistSlug: 'neon-tidewater',
    genre: 'synthwave', subgenre: 'synthpop', mood: ['euphoric', 'romantic'], lifestyle: 'party',
    bpm: 122, key: 'C', mode: 'major', energy: 0.8, releaseYear: 2021, isrc: 'QZS7B2100003', explicit: false,
    lyricsId: 'arcade-heart',
    credits: [
      { songwriterSlug: 'lena-voss', role: 'composer_lyricist', splitPct: 60 },
      { songwriterSlug: 'kasimir-oduya', role: 'composer', splitPct: 40 },
    ],
  },
  {
    slug: 'run-the-grid', title: 'Run the Grid', artistSlug: 'neon-tidewater',
    genre: 'synthwave', subgenre: 'outrun', mood: ['energetic', 'defiant'], lifestyle: 'workout',
    bpm: 128, key: 'E', mode: 'minor', energy: 0.92, releaseYear: 2022, isrc: 'QZS7B2200004', explicit: false,
    lyricsId: 'run-the-grid',
    credits: [
      { songwriterSlug: 'kasimir-oduya', role: 'composer_lyricist', splitPct: 70 },
      { songwriterSlug: 'lena-voss', role: 'composer', splitPct: 30 },
    ],
  },
  {
    slug: 'pulse-rate', title: 'Pulse Rate', artistSlug: 'neon-tidewater',
    genre: 'synthwave', subgenre: 'electro', mood: ['energetic', 'determined'], lifestyle: 'workout',
    bpm: 126, key: 'D', mode: 'minor', energy: 0.9, releaseYear: 2024, isrc: 'QZS7B2400005', explicit: false,
    lyricsId: 'pulse-rate',
    credits: [
      { songwriterSlug: 'lena-voss', role: 'composer_lyricist', splitPct: 50 },
      { songwriterSlug: 'kasimir-oduya', role: 'composer', splitPct: 30 },
      { songwriterSlug: 'theo-brandt', role: 'composer', splitPct: 20 },
    ],
  },
  {
    slug: 'neon-undertow', title: 'Neon Undertow', artistSlug: 'neon-tidewater',
    genre: 'synthwave', subgenre: 'dreamwave', mood: ['dreamy', 'nostalgic'], lifestyle: 'chill',
    bpm: 110, key: 'B', mode: 'minor', energy: 0.6, releaseYear: 2026, isrc: 'QZS7B2600006', explicit: false,
    lyricsId: null,
    credits: [
      { songwriterSlug: 'kasimir-oduya', role: 'composer', splitPct: 50 },
      { songwriterSlug: 'lena-voss', role: 'composer', splitPct: 50 },
    ],
  },

  // The Juniper Ferry: acoustic folk, fingerpicked, 80-120 bpm.
  {
    slug: 'salt-on-the-ferry-rail', title: 'Salt on the Ferry Rail', artistSlug: 'juniper-ferry',
    genre: 'folk', subgenre: 'acoustic folk', mood: ['nostalgic', 'hopeful'], lifestyle: 'chill',
    bpm: 96, key: 'G', mode: 'major', energy: 0.4, releaseYear: 2019, isrc: 'QZS7C1900001', explicit: false,
    lyricsId: 'salt-on-the-ferry-rail', credits: solo('wren-hallett'),
  },
  {
    slug: 'mothers-kitchen-clock', title: 'Mother\'s Kitchen Clock', artistSlug: 'juniper-ferry',
    genre: 'folk', subgenre: 'folk ballad', mood: ['nostalgic', 'melancholic'], lifestyle: 'chill',
    bpm: 84, key: 'D', mode: 'major', energy: 0.3, releaseYear: 2020, isrc: 'QZS7C2000002', explicit: false,
    lyricsId: 'mothers-kitchen-clock',
    credits: [
      { songwriterSlug: 'wren-hallett', role: 'composer_lyricist', splitPct: 80 },
      { songwriterSlug: 'tomas-arriaga', role: 'composer', splitPct: 20 },
    ],
  },
  {
    slug: 'hedgerow-reel', title: 'Hedgerow Reel', artistSlug: 'juniper-ferry',
    genre: 'folk', subgenre: 'instrumental folk', mood: ['joyful', 'energetic'], lifestyle: 'focus',
    bpm: 118, key: 'D', mode: 'major', energy: 0.5, releaseYear: 2021, isrc: 'QZS7C2100003', explicit: false,
    lyricsId: null,
    credits: [
      { songwriterSlug: 'wren-hallett', role: 'composer', splitPct: 50 },
      { songwriterSlug: 'tomas-arriaga', role: 'composer', splitPct: 50 },
    ],
  },
  {
    slug: 'northbound', title: 'Northbound', artistSlug: 'juniper-ferry',
    genre: 'folk', subgenre: 'indie folk', mood: ['restless', 'hopeful'], lifestyle: 'chill',
    bpm: 112, key: 'A', mode: 'major', energy: 0.55, releaseYear: 2022, isrc: 'QZS7C2200004', explicit: false,
    lyricsId: 'northbound',
    credits: [
      { songwriterSlug: 'tomas-arriaga', role: 'composer_lyricist', splitPct: 70 },
      { songwriterSlug: 'wren-hallett', role: 'composer', splitPct: 30 },
    ],
  },
  {
    slug: 'camino-de-sal', title: 'Camino de Sal', artistSlug: 'juniper-ferry',
    genre: 'folk', subgenre: 'acoustic folk', mood: ['nostalgic', 'hopeful'], lifestyle: 'chill',
    bpm: 100, key: 'E', mode: 'minor', energy: 0.45, releaseYear: 2023, isrc: 'QZS7C2300005', explicit: false,
    lyricsId: 'camino-de-sal', credits: solo('tomas-arriaga'),
  },
  {
    slug: 'cartas-al-rio', title: 'Cartas al Río', artistSlug: 'juniper-ferry',
    genre: 'folk', subgenre: 'folk ballad', mood: ['romantic', 'nostalgic'], lifestyle: 'chill',
    bpm: 92, key: 'C', mode: 'major', energy: 0.38, releaseYear: 2025, isrc: 'QZS7C2500006', explicit: false,
    lyricsId: 'cartas-al-rio',
    credits: [
      { songwriterSlug: 'tomas-arriaga', role: 'composer_lyricist', splitPct: 60 },
      { songwriterSlug: 'marisol-ortega', role: 'composer', splitPct: 40 },
    ],
  },

  // Marisol & the Velvet Hours: jazz / soul, brushed drums, 65-115 bpm.
  {
    slug: 'velvet-hour', title: 'Velvet Hour', artistSlug: 'marisol-velvet-hours',
    genre: 'jazz', subgenre: 'soul', mood: ['romantic', 'calm'], lifestyle: 'chill',
    bpm: 68, key: 'C#', mode: 'major', energy: 0.3, releaseYear: 2019, isrc: 'QZS7D1900001', explicit: false,
    lyricsId: 'velvet-hour',
    credits: [
      { songwriterSlug: 'june-okafor', role: 'composer_lyricist', splitPct: 70 },
      { songwriterSlug: 'marisol-ortega', role: 'composer', splitPct: 30 },
    ],
  },
  {
    slug: 'last-call-vamp', title: 'Last Call Vamp', artistSlug: 'marisol-velvet-hours',
    genre: 'jazz', subgenre: 'soul jazz', mood: ['calm', 'nostalgic'], lifestyle: 'chill',
    bpm: 88, key: 'F', mode: 'major', energy: 0.45, releaseYear: 2020, isrc: 'QZS7D2000002', explicit: false,
    lyricsId: null,
    credits: [
      { songwriterSlug: 'june-okafor', role: 'composer', splitPct: 50 },
      { songwriterSlug: 'marisol-ortega', role: 'composer', splitPct: 50 },
    ],
  },
  {
    slug: 'honey-and-thunder', title: 'Honey and Thunder', artistSlug: 'marisol-velvet-hours',
    genre: 'jazz', subgenre: 'neo-soul', mood: ['romantic', 'defiant'], lifestyle: 'party',
    bpm: 96, key: 'E', mode: 'minor', energy: 0.62, releaseYear: 2021, isrc: 'QZS7D2100003', explicit: false,
    lyricsId: 'honey-and-thunder', credits: solo('june-okafor'),
  },
  {
    slug: 'luna-de-cobre', title: 'Luna de Cobre', artistSlug: 'marisol-velvet-hours',
    genre: 'jazz', subgenre: 'bolero', mood: ['romantic', 'dreamy'], lifestyle: 'chill',
    bpm: 76, key: 'A', mode: 'minor', energy: 0.4, releaseYear: 2022, isrc: 'QZS7D2200004', explicit: false,
    lyricsId: 'luna-de-cobre',
    credits: [
      { songwriterSlug: 'marisol-ortega', role: 'composer_lyricist', splitPct: 80 },
      { songwriterSlug: 'tomas-arriaga', role: 'composer', splitPct: 20 },
    ],
  },
  {
    slug: 'dont-dim-me', title: 'Don\'t Dim Me', artistSlug: 'marisol-velvet-hours',
    genre: 'jazz', subgenre: 'soul', mood: ['defiant', 'energetic'], lifestyle: 'party',
    bpm: 104, key: 'A#', mode: 'major', energy: 0.75, releaseYear: 2024, isrc: 'QZS7D2400005', explicit: false,
    lyricsId: 'dont-dim-me',
    credits: [
      { songwriterSlug: 'june-okafor', role: 'lyricist', splitPct: 50 },
      { songwriterSlug: 'marisol-ortega', role: 'composer', splitPct: 50 },
    ],
  },
  {
    slug: 'canela', title: 'Canela', artistSlug: 'marisol-velvet-hours',
    genre: 'jazz', subgenre: 'latin jazz', mood: ['euphoric', 'romantic'], lifestyle: 'party',
    bpm: 112, key: 'G', mode: 'minor', energy: 0.78, releaseYear: 2026, isrc: 'QZS7D2600006', explicit: false,
    lyricsId: 'canela', credits: solo('marisol-ortega'),
  },

  // Slow Orbit Society: ambient / downtempo, mostly instrumental, very low energy.
  {
    slug: 'tape-loop-for-a-sleeping-city', title: 'Tape Loop for a Sleeping City', artistSlug: 'slow-orbit-society',
    genre: 'ambient', subgenre: 'drone', mood: ['calm', 'sleepy'], lifestyle: 'sleep',
    bpm: 60, key: 'C', mode: 'major', energy: 0.08, releaseYear: 2019, isrc: 'QZS7E1900001', explicit: false,
    lyricsId: null,
    credits: [
      { songwriterSlug: 'ilse-marrow', role: 'composer', splitPct: 60 },
      { songwriterSlug: 'cal-ferris', role: 'composer', splitPct: 40 },
    ],
  },
  {
    slug: 'low-earth-lullaby', title: 'Low Earth Lullaby', artistSlug: 'slow-orbit-society',
    genre: 'ambient', subgenre: 'space ambient', mood: ['calm', 'dreamy'], lifestyle: 'sleep',
    bpm: 64, key: 'E', mode: 'major', energy: 0.12, releaseYear: 2020, isrc: 'QZS7E2000002', explicit: false,
    lyricsId: 'low-earth-lullaby', credits: solo('ilse-marrow'),
  },
  {
    slug: 'kelp-forest-drift', title: 'Kelp Forest Drift', artistSlug: 'slow-orbit-society',
    genre: 'ambient', subgenre: 'field recording', mood: ['calm', 'dreamy'], lifestyle: 'chill',
    bpm: 72, key: 'D', mode: 'minor', energy: 0.18, releaseYear: 2021, isrc: 'QZS7E2100003', explicit: false,
    lyricsId: null,
    credits: [{ songwriterSlug: 'cal-ferris', role: 'composer', splitPct: 100 }],
  },
  {
    slug: 'between-stations', title: 'Between Stations', artistSlug: 'slow-orbit-society',
    genre: 'ambient', subgenre: 'downtempo', mood: ['focused', 'restless'], lifestyle: 'focus',
    bpm: 90, key: 'A', mode: 'minor', energy: 0.3, releaseYear: 2022, isrc: 'QZS7E2200004', explicit: false,
    lyricsId: null,
    credits: [
      { songwriterSlug: 'cal-ferris', role: 'composer', splitPct: 70 },
      { songwriterSlug: 'ada-kimura', role: 'composer', splitPct: 30 },
    ],
  },
  {
    slug: 'salt-flats-at-noon', title: 'Salt Flats at Noon', artistSlug: 'slow-orbit-society',
    genre: 'ambient', subgenre: 'minimal ambient', mood: ['calm', 'focused'], lifestyle: 'focus',
    bpm: 66, key: 'F#', mode: 'major', energy: 0.15, releaseYear: 2024, isrc: 'QZS7E2400005', explicit: false,
    lyricsId: null,
    credits: [{ songwriterSlug: 'ilse-marrow', role: 'composer', splitPct: 100 }],
  },
  {
    slug: 'night-ferry-hum', title: 'Night Ferry Hum', artistSlug: 'slow-orbit-society',
    genre: 'ambient', subgenre: 'downtempo', mood: ['calm', 'melancholic'], lifestyle: 'chill',
    bpm: 84, key: 'G', mode: 'minor', energy: 0.25, releaseYear: 2025, isrc: 'QZS7E2500006', explicit: false,
    lyricsId: null,
    credits: [
      { songwriterSlug: 'ilse-marrow', role: 'composer', splitPct: 50 },
      { songwriterSlug: 'cal-ferris', role: 'composer', splitPct: 50 },
    ],
  },
];
