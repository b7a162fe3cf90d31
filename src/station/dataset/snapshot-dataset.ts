/**
 * The training pipeline's (module C) way into module B: the exact items a dataset snapshot froze, published
 * as a content-addressed artifact. Items that are gone or no longer platform-owned are never dropped
 * silently: the snapshot is refused (409) so a run either trains on the frozen set or not at all.
 */
import type { ArtifactRef } from '../../engine/engine.js';
import type { BlobStore } from '../../infra/blobs/blob-store.js';
import type { Db, DbOrTx } from '../../infra/db/client.js';
import { datasetSnapshots } from '../../infra/db/schema/index.js';
import { DatasetErrors } from './errors.js';
import { loadAudioItemsExactly, loadLyricsDocumentsExactly, publishDataset, type TrainingCatalog } from './training-data.js';
import { idEq } from '../../infra/db/ids.js';

export type DatasetSnapshotRow = typeof datasetSnapshots.$inferSelect;

/** 'style_embedding' trains on the audio items; it is published under its own kind so provenance finds it. */
export type SnapshotDatasetKind = 'audio' | 'lyrics' | 'style_embedding';

export async function findSnapshot(db: DbOrTx, snapshotId: string): Promise<DatasetSnapshotRow | null> {
  const [row] = await db.select().from(datasetSnapshots).where(idEq(datasetSnapshots.id, snapshotId)).limit(1);
  return row ?? null;
}

/**
 * Publishes exactly the snapshot's items of one kind. `datasetHash` is the artifact's hash (what a trained
 * model records and transparency verifies); the snapshot's own `dataset_hash` covers config + all items.
 * Throws 404 for an unknown snapshot, 409 when an item can no longer be loaded.
 */
export async function loadSnapshotDataset(
  db: Db,
  catalog: TrainingCatalog,
  blobs: BlobStore,
  snapshotId: string,
  kind: SnapshotDatasetKind,
): Promise<{ snapshot: DatasetSnapshotRow; ref: ArtifactRef; datasetHash: string; items: number }> {
  const snapshot = await findSnapshot(db, snapshotId);
  if (!snapshot) throw DatasetErrors.snapshotNotFound(snapshotId);
  const loaded =
    kind === 'lyrics' ? await loadLyricsDocumentsExactly(catalog, snapshot.lyricIds) : await loadAudioItemsExactly(catalog, snapshot.audioTrackIds);
  if (loaded.missing.length > 0) throw DatasetErrors.snapshotStale(snapshotId, loaded.missing);
  const { ref, datasetHash } = await publishDataset(blobs, kind, loaded.items);
  return { snapshot, ref, datasetHash, items: loaded.items.length };
}
