/**
 * The catalog's read port as module B uses it (published by the catalog module as `datasetReads`,
 * src/platform/catalog/dataset-reads.ts): the rows the eligibility rules judge, the rows the validation checks
 * and the stored features a snapshot fingerprints. Module B reads no catalog table itself.
 *
 * Each method takes the handle to read in (`db`), which the repository passes as its own: the database, or
 * inside `DatasetRepository.transaction()` the transaction, so that a snapshot reads the catalog in the
 * transaction that writes it (see the catalog's file for why). The handle is a required argument here, so a
 * read cannot leave the transaction by being forgotten.
 */
import type { AudioFeatures } from '../../engine/types.js';
import type { DbOrTx } from '../../infra/db/client.js';
import type { CatalogArtist, CatalogSnapshot } from './eligibility.js';

/** A live track as the validation checks its master. */
export interface TrackCheckRow {
  id: string;
  title: string;
  artistId: string;
  artistPlatformOwned: boolean;
  audioBlobKey: string | null;
  audioFormat: string | null;
  hasFeatures: boolean;
}

/** A lyric as the validation checks its attribution. */
export interface LyricCheckRow {
  id: string;
  title: string;
  artistId: string;
  artistPlatformOwned: boolean;
  songwriterId: string;
  songwriterName: string;
  songwriterPlatformOwned: boolean;
  trackId: string | null;
  /** Whether the songwriter holds a lyricist (or composer_lyricist) credit on the lyric's track; null without a track. */
  creditedOnTrack: boolean | null;
}

export interface DatasetCatalogReads {
  /** The live artists among these ids (ids that cannot be uuids name none). */
  liveArtists(ids: string[], db: DbOrTx): Promise<CatalogArtist[]>;
  /** Every row of the live catalog the eligibility rules look at. */
  eligibilityCatalog(db: DbOrTx): Promise<CatalogSnapshot>;
  /** The stored style features of these tracks that have them, by track id. */
  featuresOf(trackIds: string[], db: DbOrTx): Promise<Map<string, AudioFeatures>>;
  /** Style features of every live master by an artist that is not platform-owned. */
  thirdPartyFeatures(db: DbOrTx): Promise<{ id: string; title: string; features: AudioFeatures }[]>;
  /** The live tracks among these ids. */
  tracksToValidate(trackIds: string[], db: DbOrTx): Promise<TrackCheckRow[]>;
  /** The lyrics among these ids. */
  lyricsToValidate(lyricIds: string[], db: DbOrTx): Promise<LyricCheckRow[]>;
}
