/**
 * The catalog's read port as the scheduler uses it (published by the catalog module as `trackReads`,
 * src/platform/catalog/track-reads.ts): the scheduler reads no catalog table itself.
 */
import type { CatalogRepository } from '../../platform/catalog/catalog.repository.js';
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

/**
 * The catalog's playout port (its module's `repo`, src/platform/catalog/catalog.repository.ts): a published live
 * track as the stream airs it, and the play event each airing records. The radio module is given it rather than
 * building a repository of its own: the catalog owns `tracks` and `play_events`.
 */
export type CatalogPlayout = Pick<CatalogRepository, 'findTrack' | 'recordPlay'>;

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
