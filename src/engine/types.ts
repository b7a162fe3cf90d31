/**
 * The engine's public vocabulary. Everything the station knows about the AI engine goes through
 * these types, so that the in-process engine and a remote ML service (src/engine/remote) are
 * interchangeable. No HTTP, no database in this folder.
 */

export type Lifestyle = 'focus' | 'party' | 'chill' | 'workout' | 'sleep';
export type KeyPreference = 'major' | 'minor' | 'any';
export type Mode = 'major' | 'minor';
export type AudioQuality = '128kbps' | '192kbps' | '320kbps';

/** The musical context that drives one generation (module D's context object, minus bookkeeping). */
export interface MusicContext {
  genre: string;
  subgenre: string;
  mood: string[];
  lifestyle: Lifestyle;
  tempo_range: [number, number];
  key_preference: KeyPreference;
  energy_level: number; // 0..1
}

/** Style features of one piece of audio, as extracted by src/engine/features. Stored per catalog master. */
export interface AudioFeatures {
  durationSec: number;
  tempoBpm: number;
  tempoConfidence: number; // 0..1
  key: string; // pitch class name, e.g. "C", "F#"
  mode: Mode;
  keyConfidence: number; // correlation with the best key profile, -1..1
  chroma: number[]; // 12 values, mean chroma normalised to sum 1
  mfccMean: number[]; // 13
  mfccStd: number[]; // 13
  loudnessDb: number; // mean RMS level in dBFS
  energy: number; // 0..1, normalised RMS energy
  spectralCentroidHz: number;
  onsetRate: number; // onsets per second
  /** One chord label per beat ("C", "Am", ...), estimated from beat-synchronous chroma. Feeds the audio model. */
  beatChords: string[];
  /**
   * Chroma fingerprint: the leading pitch classes of each 186 ms window, one 12-bit code per 46 ms frame
   * (features/fingerprint.ts), for the safety filter's time-aligned copy check. Absent from features
   * extracted before it existed (the filter then judges as before).
   */
  fingerprint?: number[];
}

/** Progress reported by long engine operations (rendering, training epochs). */
export type ProgressFn = (pct: number, etaSeconds: number) => void;

/** One song of the lyrics corpus: written by a platform songwriter, credited to a platform artist. */
export interface LyricsDocument {
  id: string; // stable slug, e.g. "harbor-lights"
  title: string;
  songwriterId: string; // slug of a platform songwriter
  artistId: string; // slug of the platform artist who performs it
  language: string; // ISO 639-1
  mood: string[]; // e.g. ["melancholic", "hopeful"]
  theme: string; // e.g. "leaving home"
  sections: LyricsSection[];
}

/** The lyrics a track sings: section key -> lines joined by "\n", and the singing order (repeats included). */
export interface TrackLyrics {
  language: string; // ISO 639-1
  sections: Record<string, string>;
  order: string[];
}

export interface LyricsSection {
  name: string; // "verse_1", "chorus", "verse_2", "bridge", "outro" ...
  lines: string[];
}
