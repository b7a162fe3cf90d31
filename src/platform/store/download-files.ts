/**
 * What a purchase downloads: never the object GET /v1/tracks/{id}/stream hands to anyone (security issue #16,
 * item 6), but a file of its own that no stream link reaches.
 *
 * - A track uploaded with a master (POST /v1/tracks: WAV or MP3 as uploaded, `tracks/<id>/master.*`): the master.
 *   Streams only ever serve the renditions made from it.
 * - A track without one (catalog tracks the engine rendered, whose best audio is what they stream): a download
 *   rendition at the highest quality there is (its 320 kbps rendition, else its audio) copied once under
 *   `downloads/<track>/<source hash>.<ext>`. A new source (a master rendered again) gets a new copy.
 */
import { createHash } from 'node:crypto';
import { extname } from 'node:path';
import { RENDITION_BITRATES } from '../../engine/audio/renditions.js';
import type { BlobStore } from '../../infra/blobs/blob-store.js';
import { renditionKey } from '../media/rendition-keys.js';

export interface DownloadSource {
  trackId: string;
  /** The uploaded master, when the track was uploaded. */
  masterBlobKey: string | null;
  audioBlobKey: string | null;
  audioBitrateKbps: number | null;
}

const HIGHEST_KBPS = Math.max(...RENDITION_BITRATES);

export class DownloadFiles {
  constructor(private readonly blobs: BlobStore) {}

  /** The blob a purchase of this track downloads, made on first use; null when the track has no audio. */
  async keyFor(source: DownloadSource): Promise<string | null> {
    if (source.masterBlobKey && (await this.blobs.stat(source.masterBlobKey))) return source.masterBlobKey;
    if (!source.audioBlobKey) return null;
    const highest = renditionKey(source.audioBlobKey, source.audioBitrateKbps, HIGHEST_KBPS);
    const best = highest !== source.audioBlobKey && (await this.blobs.stat(highest)) ? highest : source.audioBlobKey;
    const hash = createHash('sha256').update(best).digest('hex').slice(0, 16);
    const key = `downloads/${source.trackId}/${hash}${extname(best) || '.mp3'}`;
    // Concurrent first downloads each write the same bytes; the store replaces a blob whole, so either wins.
    if (!(await this.blobs.stat(key))) await this.blobs.put(key, this.blobs.stream(best));
    return key;
  }
}
