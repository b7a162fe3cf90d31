/**
 * What generated content is compared with: every lyric the platform holds (the training corpus and the
 * catalog's lyrics) and the catalog masters' audio features. Published as a content-addressed artifact
 * so the engine (local or remote) can cache it by hash; rebuilt when the catalog changes. Both are read
 * through the catalog's port (SafetyCatalog): this module reads no catalog table itself.
 */
import { createHash } from 'node:crypto';
import type { ArtifactRef, SafetyReference } from '../../engine/engine.js';
import type { BlobStore } from '../../infra/blobs/blob-store.js';
import type { AudioFeatures } from '../../engine/types.js';
import type { TrainingCatalog } from '../dataset/training-data.js';

/**
 * The catalog's read port (src/platform/catalog/track-reads.ts, published as the catalog module's `trackReads`):
 * every lyric the platform holds, as the engine reads them, and the stored features of every catalog master.
 */
export interface SafetyCatalog extends Pick<TrainingCatalog, 'lyricDocuments'> {
  /** The stored style features of every catalog track that has them, by track id. */
  everyTrackFeatures(): Promise<{ id: string; features: AudioFeatures }[]>;
}

export class SafetyReferenceStore {
  private current: Promise<ArtifactRef> | null = null;

  constructor(
    private readonly catalog: SafetyCatalog,
    private readonly blobs: BlobStore,
  ) {}

  /** The reference as it is now (cached until the catalog changes). */
  ref(): Promise<ArtifactRef> {
    if (!this.current) {
      this.current = this.build();
      this.current.catch(() => (this.current = null));
    }
    return this.current;
  }

  /** Called when lyrics or catalog features change. */
  invalidate(): void {
    this.current = null;
  }

  async load(): Promise<SafetyReference> {
    const [lyricRows, featureRows] = await Promise.all([this.catalog.lyricDocuments({ platformOnly: false }), this.catalog.everyTrackFeatures()]);
    return {
      lyrics: lyricRows.map((row) => row.document),
      audio: featureRows.map((row) => ({ id: row.id, features: row.features })),
    };
  }

  private async build(): Promise<ArtifactRef> {
    const bytes = Buffer.from(JSON.stringify(await this.load()));
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const blobKey = `safety/reference-${sha256}.json`;
    if (!(await this.blobs.stat(blobKey))) await this.blobs.put(blobKey, bytes);
    return { version: `reference-${sha256.slice(0, 12)}`, sha256, blobKey };
  }
}
