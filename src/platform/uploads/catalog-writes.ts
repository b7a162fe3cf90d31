/**
 * The catalog's write port as the uploads group uses it (published by the catalog module as `uploadWrites`,
 * src/platform/catalog/upload-writes.ts): the catalog owns `tracks` and `track_features`, and this group writes
 * neither. Each write takes the handle it runs in, which `UploadsRepository` and `MasterBackfill` pass as their
 * own (the transaction, where the write is part of one).
 */
import type { AudioFeatures } from '../../engine/types.js';
import type { DbOrTx } from '../../infra/db/client.js';
import type { CatalogTrackChange, NewCatalogTrack, PublishedAudio } from '../catalog/upload-writes.js';

export type { CatalogTrackChange, NewCatalogTrack, PublishedAudio };

export interface UploadCatalogWrites {
  createTrack(track: NewCatalogTrack, tx: DbOrTx): Promise<void>;
  changeTrack(id: string, change: CatalogTrackChange, tx: DbOrTx): Promise<void>;
  markRemoved(id: string, tx: DbOrTx): Promise<void>;
  publish(id: string, audio: PublishedAudio, tx: DbOrTx): Promise<boolean>;
  markFailed(id: string, tx: DbOrTx): Promise<void>;
  giveMaster(id: string, masterBlobKey: string, audioBlobKey: string, tx: DbOrTx): Promise<boolean>;
  saveFeatures(trackId: string, features: AudioFeatures, tx: DbOrTx): Promise<void>;
}
