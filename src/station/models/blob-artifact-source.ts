import type { ArtifactRef, ArtifactSource } from '../../engine/engine.js';
import type { BlobStore } from '../../infra/blobs/blob-store.js';
import type { ModelVersionRow } from './models.repository.js';

/** The in-process engine reads model artifacts straight from the station's blob storage. */
export class BlobArtifactSource implements ArtifactSource {
  constructor(private readonly blobs: BlobStore) {}

  read(ref: ArtifactRef): Promise<Buffer> {
    return this.blobs.get(ref.blobKey);
  }
}

export function artifactRefOf(row: ModelVersionRow): ArtifactRef {
  return { version: row.version, sha256: row.artifactSha256, blobKey: row.artifactBlobKey };
}
