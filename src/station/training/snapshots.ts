/** Module C's port onto module B: which snapshots exist, and the exact items a job trains on. */
import type { ArtifactRef, TrainableModel } from '../../engine/engine.js';
import type { BlobStore } from '../../infra/blobs/blob-store.js';
import type { Db } from '../../infra/db/client.js';
import { findSnapshot, loadSnapshotDataset, type DatasetSnapshotRow } from '../dataset/snapshot-dataset.js';
import type { TrainingCatalog } from '../dataset/training-data.js';

export type { DatasetSnapshotRow };

export interface SnapshotSource {
  find(snapshotId: string): Promise<DatasetSnapshotRow | null>;
  /** Publishes the snapshot's items for a model type; `datasetHash` is the hash of exactly those items. */
  load(snapshotId: string, type: TrainableModel): Promise<{ ref: ArtifactRef; datasetHash: string; items: number }>;
}

export function snapshotSource(db: Db, catalog: TrainingCatalog, blobs: BlobStore): SnapshotSource {
  return {
    find: (snapshotId) => findSnapshot(db, snapshotId),
    load: (snapshotId, type) => loadSnapshotDataset(db, catalog, blobs, snapshotId, type),
  };
}

/** How many items of a model type's kind a snapshot froze (style embeddings train on the audio items). */
export function itemCountFor(snapshot: DatasetSnapshotRow, type: TrainableModel): number {
  return type === 'lyrics' ? snapshot.lyricIds.length : snapshot.audioTrackIds.length;
}
