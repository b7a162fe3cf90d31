/**
 * Shapes of the demo catalog: the platform-owned artists, songwriters and tracks that seed the station.
 * Lyrics use the engine's own `LyricsDocument`, so the corpus can be handed to the lyrics model as is.
 */

import type { Lifestyle, Mode } from '../../engine/types.js';

export interface DemoArtist {
  slug: string;
  name: string;
  bio: string;
  genre: string;
  verified: boolean;
  platformOwned: true;
  formedYear: number;
}

export interface DemoSongwriter {
  slug: string;
  name: string;
  /** Made-up IPI name number in the 99999xxxxxx test range: never a real registration. */
  ipi: string;
  artistSlug: string;
}

export type CreditRole = 'composer' | 'lyricist' | 'composer_lyricist';

export interface DemoCredit {
  songwriterSlug: string;
  role: CreditRole;
  splitPct: number;
}

export interface DemoTrack {
  slug: string;
  title: string;
  artistSlug: string;
  genre: string;
  subgenre: string;
  mood: string[];
  lifestyle: Lifestyle;
  bpm: number;
  key: string; // pitch class, e.g. "C", "F#"
  mode: Mode;
  energy: number; // 0..1
  releaseYear: number;
  isrc: string; // 12 characters, no dashes, e.g. "QZS7A2600001"
  explicit: false;
  lyricsId: string | null;
  credits: DemoCredit[];
}

/** A release of the demo catalog: an album, EP or single of one artist, its tracks in order. */
export interface DemoRelease {
  slug: string;
  title: string;
  artistSlug: string;
  type: 'album' | 'ep' | 'single';
  releaseYear: number;
  trackSlugs: string[];
}
