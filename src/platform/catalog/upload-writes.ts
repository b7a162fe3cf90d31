/**
 * The catalog's write port for the uploads group: the catalog owns `tracks` and `track_features`, and an
 * upload's catalog row is created, changed, taken down, published, failed and given its master and its style
 * features only through this port. Published by the catalog module as `uploadWrites`; the uploads group
 * declares the part it uses on its side (`UploadCatalogWrites`, src/platform/uploads/catalog-writes.ts) and
 * writes no catalog table itself.
 *
 * Every method writes in the handle it is given (`tx`), which is required: an upload's row and its upload
 * record, a change and its ISRC check, a takedown and its record, a publication and its date, a master and its
 * ledger row are each one transaction of the uploads group, and a write forgotten outside it would break that.
 */
import { and, eq, isNull } from 'drizzle-orm';
import type { AudioFeatures } from '../../engine/types.js';
import { FEATURE_EXTRACTOR_VERSION } from '../../engine/features/version.js';
import type { DbOrTx } from '../../infra/db/client.js';
import { trackFeatures, tracks } from '../../infra/db/schema/index.js';

/** A new catalog row for an upload (its id is chosen by the upload, which names its blobs after it). */
export type NewCatalogTrack = typeof tracks.$inferInsert & { id: string };
/** What an upload's manager may change of its catalog row. */
export type CatalogTrackChange = Partial<
  Pick<typeof tracks.$inferInsert, 'title' | 'genre' | 'subgenre' | 'mood' | 'explicit' | 'releaseYear' | 'isrc' | 'bpm'>
>;
/** The stream audio and the master of a rendered upload. */
export interface PublishedAudio {
  blobKey: string;
  masterBlobKey: string;
  bitrateKbps: number;
  sizeBytes: number;
}

export class CatalogUploadWrites {
  async createTrack(track: NewCatalogTrack, tx: DbOrTx): Promise<void> {
    await tx.insert(tracks).values(track);
  }

  async changeTrack(id: string, change: CatalogTrackChange, tx: DbOrTx): Promise<void> {
    if (Object.keys(change).length > 0) await tx.update(tracks).set(change).where(eq(tracks.id, id));
  }

  async markRemoved(id: string, tx: DbOrTx): Promise<void> {
    await tx.update(tracks).set({ status: 'removed' }).where(eq(tracks.id, id));
  }

  /**
   * Publishes a processing track with its stream audio and the master the radio airs. Conditional on the
   * status, so a takedown that came first wins; true when this call published it.
   */
  async publish(id: string, audio: PublishedAudio, tx: DbOrTx): Promise<boolean> {
    const rows = await tx
      .update(tracks)
      .set({
        status: 'published',
        audioBlobKey: audio.blobKey,
        masterBlobKey: audio.masterBlobKey,
        audioFormat: 'mp3',
        audioBitrateKbps: audio.bitrateKbps,
        audioSizeBytes: audio.sizeBytes,
      })
      .where(and(eq(tracks.id, id), eq(tracks.status, 'processing')))
      .returning({ id: tracks.id });
    return rows.length > 0;
  }

  /** Marks a processing track failed (a takedown that came first wins). */
  async markFailed(id: string, tx: DbOrTx): Promise<void> {
    await tx
      .update(tracks)
      .set({ status: 'failed' })
      .where(and(eq(tracks.id, id), eq(tracks.status, 'processing')));
  }

  /**
   * Gives a track without a master `masterBlobKey`, if its stream audio is still `audioBlobKey`; false when it
   * was given a master (or new audio) meanwhile.
   */
  async giveMaster(id: string, masterBlobKey: string, audioBlobKey: string, tx: DbOrTx): Promise<boolean> {
    const rows = await tx
      .update(tracks)
      .set({ masterBlobKey })
      .where(and(eq(tracks.id, id), isNull(tracks.masterBlobKey), eq(tracks.audioBlobKey, audioBlobKey)))
      .returning({ id: tracks.id });
    return rows.length > 0;
  }

  /** Style features of an uploaded master, as the demo catalog has them (module B's gate and the safety filter's reference). */
  async saveFeatures(trackId: string, features: AudioFeatures, tx: DbOrTx): Promise<void> {
    await tx
      .insert(trackFeatures)
      .values({ trackId, extractorVersion: FEATURE_EXTRACTOR_VERSION, features })
      .onConflictDoUpdate({ target: trackFeatures.trackId, set: { features, extractorVersion: FEATURE_EXTRACTOR_VERSION } });
  }
}
