/**
 * The catalog's read port as the scheduler uses it (published by the catalog module as `trackReads`,
 * src/platform/catalog/track-reads.ts): the scheduler reads no catalog table itself.
 */
import type { CatalogCandidate } from './catalog-picker.js';

/** A catalog track as a now-playing card shows it. */
export interface CatalogCardTrack {
  id: string;
  title: string;
  genre: string;
  mood: string[];
  durationSec: number;
  coverBlobKey: string | null;
  waveformBlobKey: string | null;
}

export interface CatalogRadioReads {
  /** Published live tracks with a master, by verified or platform-owned artists (explicit ones only when allowed). */
  radioCandidates(explicitAllowed: boolean): Promise<CatalogCandidate[]>;
  /** The artist of each of these tracks that exists, by track id. */
  artistIdsOf(trackIds: string[]): Promise<Map<string, string>>;
  /** Whether a track can still be played: published, with a master. */
  playable(trackId: string): Promise<boolean>;
  /** A track with its artist's name, or null when it does not exist. */
  trackWithArtist(trackId: string): Promise<{ track: CatalogCardTrack; artistName: string } | null>;
}
