/**
 * The catalog's write port as the uploads group uses it (published by the catalog module as `uploadWrites`,
 * src/platform/catalog/upload-writes.ts): the catalog owns `tracks` and `track_features`, and this group writes
 * neither. Each write takes the handle it runs in, which `UploadsRepository` and `MasterBackfill` pass as their
 * own (the transaction, where the write is part of one).
 */
import type { AudioFeatures } from '../../engine/types.js';
import type { DbOrTx } from '../../infra/db/client.js';
import type { Environment } from '../../kernel/environment.js';
import type { CatalogTrackRecord, MasterlessTrackTable, UploadArtistRef, UploadArtistTable, UploadTrackTable } from '../catalog/upload-reads.js';
import type { CatalogTrackChange, NewCatalogTrack, PublishedAudio } from '../catalog/upload-writes.js';

export type { CatalogTrackChange, CatalogTrackRecord, NewCatalogTrack, PublishedAudio, UploadArtistRef };

export interface UploadCatalogWrites {
  createTrack(track: NewCatalogTrack, tx: DbOrTx): Promise<void>;
  changeTrack(id: string, change: CatalogTrackChange, tx: DbOrTx): Promise<void>;
  markRemoved(id: string, tx: DbOrTx): Promise<void>;
  publish(id: string, audio: PublishedAudio, tx: DbOrTx): Promise<boolean>;
  markFailed(id: string, tx: DbOrTx): Promise<void>;
  giveMaster(id: string, masterBlobKey: string, audioBlobKey: string, tx: DbOrTx): Promise<boolean>;
  saveFeatures(trackId: string, features: AudioFeatures, tx: DbOrTx): Promise<void>;
}

/**
 * The catalog's read port as the uploads group uses it (published by the catalog module as `uploadReads`,
 * src/platform/catalog/upload-reads.ts): the artists a caller uploads for, the ISRC check, the lock of an
 * upload's catalog row, and the catalog's tracks and artists as derived tables that `UploadsRepository` joins to
 * its upload and takedown records in one statement, and the tracks without a master that `MasterBackfill` joins
 * to its upload records and its ledger. Each read takes the repository's handle.
 */
export interface UploadCatalogReads {
  tracks(): UploadTrackTable;
  artists(): UploadArtistTable;
  tracksWithoutMaster(): MasterlessTrackTable;
  artistByIdOrSlug(slugOrId: string, environment: Environment, db: DbOrTx): Promise<UploadArtistRef | null>;
  artistsOwnedBy(userId: string, environment: Environment, db: DbOrTx): Promise<UploadArtistRef[]>;
  isrcTaken(isrc: string, environment: Environment, exceptTrackId: string | undefined, db: DbOrTx): Promise<boolean>;
  lockTrack(id: string, tx: DbOrTx): Promise<void>;
}
