/**
 * What generated content is compared with: every lyric the platform holds (the training corpus and the
 * catalog's lyrics) and the catalog masters' audio features. Published as a content-addressed artifact
 * so the engine (local or remote) can cache it by hash; rebuilt when the catalog changes.
 */
import { createHash } from 'node:crypto';
import type { ArtifactRef, SafetyReference } from '../../engine/engine.js';
import type { BlobStore } from '../../infra/blobs/blob-store.js';
import type { Db } from '../../infra/db/client.js';
import { trackFeatures } from '../../infra/db/schema/index.js';
import type { TrainingCatalog } from '../dataset/training-data.js';

export class SafetyReferenceStore {
  private current: Promise<ArtifactRef> | null = null;

  constructor(
    private readonly db: Db,
    /** The catalog's read port: every lyric the platform holds, as the engine reads them. */
    private readonly catalog: Pick<TrainingCatalog, 'lyricDocuments'>,
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
    const [lyricRows, featureRows] = await Promise.all([
      this.catalog.lyricDocuments({ platformOnly: false }),
      this.db.select({ id: trackFeatures.trackId, features: trackFeatures.features }).from(trackFeatures).orderBy(trackFeatures.trackId),
    ]);
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
