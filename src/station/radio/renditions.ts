/**
 * Stream renditions: the live stream runs at stream_quality, so a master at another bitrate is re-encoded
 * once by the engine and the result kept beside the master (`<key>.128k.mp3`). Concurrent requests for the
 * same rendition share one transcode.
 */
import type { Engine } from '../../engine/engine.js';
import type { AudioQuality } from '../../engine/types.js';
import type { BlobStore } from '../../infra/blobs/blob-store.js';

export class Renditions {
  private readonly inFlight = new Map<string, Promise<string>>();

  constructor(
    private readonly blobs: BlobStore,
    private readonly engine: Engine,
  ) {}

  /** The blob key of the master at `quality`, creating the rendition when it does not exist yet. */
  keyFor(masterKey: string, masterKbps: number | null, quality: AudioQuality): Promise<string> {
    const kbps = Number.parseInt(quality, 10);
    if (masterKbps === kbps) return Promise.resolve(masterKey);
    const key = masterKey.replace(/\.mp3$/, '') + `.${kbps}k.mp3`;
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.create(masterKey, key, quality).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  private async create(masterKey: string, key: string, quality: AudioQuality): Promise<string> {
    if (await this.blobs.stat(key)) return key;
    const rendition = await this.engine.transcode(await this.blobs.get(masterKey), quality);
    await this.blobs.put(key, rendition);
    return key;
  }
}
