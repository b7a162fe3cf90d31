import type { DemoArtist } from './types.js';

/** The station's house artists: owned by the platform, so their catalog is safe to learn from. */
export const demoArtists: DemoArtist[] = [
  {
    slug: 'quiet-radiator',
    name: 'Quiet Radiator',
    bio:
      'A two-person beat workshop built around a cracked sampler and a cassette deck that only plays at ' +
      'slightly the wrong speed. Dusty drums, soft keys and half-spoken verses about small rooms and long evenings.',
    genre: 'lo-fi',
    verified: true,
    platformOwned: true,
    formedYear: 2018,
  },
  {
    slug: 'neon-tidewater',
    name: 'Neon Tidewater',
    bio:
      'Analog arpeggios, gated snares and a singer who sounds like a late train. Neon Tidewater writes ' +
      'night-drive anthems for coastal cities that never quite switch off.',
    genre: 'synthwave',
    verified: true,
    platformOwned: true,
    formedYear: 2017,
  },
  {
    slug: 'juniper-ferry',
    name: 'The Juniper Ferry',
    bio:
      'A fingerpicked guitar, a borrowed mandolin and two voices, one from a northern harbour town and one ' +
      'from the hills of Asturias. Songs in English and Spanish about leaving, returning and the roads between.',
    genre: 'folk',
    verified: true,
    platformOwned: true,
    formedYear: 2016,
  },
  {
    slug: 'marisol-velvet-hours',
    name: 'Marisol & the Velvet Hours',
    bio:
      'A late-club soul band led by a bilingual singer with a brass section that plays softer than it should. ' +
      'Brushed drums, warm organ and love songs that switch language halfway through a thought.',
    genre: 'jazz',
    verified: true,
    platformOwned: true,
    formedYear: 2015,
  },
  {
    slug: 'slow-orbit-society',
    name: 'Slow Orbit Society',
    bio:
      'Field recordings, tape loops and long synth pads from a collective that records mostly between ' +
      'midnight and dawn. Largely instrumental, with the occasional whispered verse drifting through.',
    genre: 'ambient',
    verified: false,
    platformOwned: true,
    formedYear: 2019,
  },
];
