/**
 * Checks what a model's training dataset actually held: the dataset artifact is content-addressed by its
 * hash (station/dataset/training-data.ts), so the items can be re-read and each one looked up in the
 * catalog. Audio items must be masters of platform-owned artists; lyrics items must be by the platform's
 * own songwriters (and platform-owned artists). A dataset is immutable, so a verdict is cached by hash.
 * Only counts leave this module, never the items. The catalog is read through its port (DatasetOwnership).
 */
import type { BlobStore } from '../../infra/blobs/blob-store.js';
import type { ModelType } from '../models/models.repository.js';

/**
 * The catalog's read port (src/platform/catalog/track-reads.ts, published as the catalog module's `trackReads`):
 * which of the named tracks, songwriters and artists are the platform's own.
 */
export interface DatasetOwnership {
  /** The ids among these of tracks by platform-owned artists. */
  platformOwnedTrackIds(ids: string[]): Promise<string[]>;
  /** The slugs among these of the platform's own songwriters. */
  platformSongwriterSlugs(slugs: string[]): Promise<string[]>;
  /** The slugs among these of platform-owned artists. */
  platformArtistSlugs(slugs: string[]): Promise<string[]>;
}

export interface DatasetVerdict {
  dataset_hash: string;
  /** false when the dataset artifact is not in storage (trained elsewhere, or cleaned up). */
  verified: boolean;
  items: number | null;
  platform_owned_items: number | null;
  other_items: number | null;
}

const CHUNK = 500;
const CACHE_SIZE = 32;

function chunks<T>(values: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < values.length; i += CHUNK) out.push(values.slice(i, i + CHUNK));
  return out;
}

export class DatasetProvenance {
  private readonly cache = new Map<string, Promise<DatasetVerdict>>();

  constructor(
    private readonly catalog: DatasetOwnership,
    private readonly blobs: Pick<BlobStore, 'get' | 'stat'>,
  ) {}

  verdict(type: ModelType, datasetHash: string): Promise<DatasetVerdict> {
    const key = `${type}:${datasetHash}`;
    let entry = this.cache.get(key);
    if (!entry) {
      entry = this.check(type, datasetHash);
      entry.catch(() => this.cache.delete(key));
      if (this.cache.size >= CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(key, entry);
    }
    return entry;
  }

  private async check(type: ModelType, datasetHash: string): Promise<DatasetVerdict> {
    const unverified: DatasetVerdict = { dataset_hash: datasetHash, verified: false, items: null, platform_owned_items: null, other_items: null };
    const hex = /^sha256:([0-9a-f]{64})$/.exec(datasetHash)?.[1];
    if (!hex) return unverified;
    const blobKey = `datasets/${type}-${hex}.json`;
    if (!(await this.blobs.stat(blobKey))) return unverified;
    const items = JSON.parse((await this.blobs.get(blobKey)).toString('utf8')) as unknown;
    if (!Array.isArray(items)) return unverified;
    const owned = type === 'lyrics' ? await this.ownedLyrics(items) : await this.ownedMasters(items);
    return { dataset_hash: datasetHash, verified: true, items: items.length, platform_owned_items: owned, other_items: items.length - owned };
  }

  /** Audio and style datasets: items name catalog tracks by id. */
  private async ownedMasters(items: { id?: unknown }[]): Promise<number> {
    const ids = items.map((item) => item.id).filter((id): id is string => typeof id === 'string' && /^[0-9a-f-]{36}$/i.test(id));
    const owned = new Set<string>();
    for (const part of chunks([...new Set(ids)])) {
      (await this.catalog.platformOwnedTrackIds(part)).forEach((id) => owned.add(id));
    }
    return items.filter((item) => owned.has(String(item.id))).length;
  }

  /** Lyrics datasets: items name their songwriter and artist by slug. */
  private async ownedLyrics(items: { songwriterId?: unknown; artistId?: unknown }[]): Promise<number> {
    const writerSlugs = [...new Set(items.map((i) => i.songwriterId).filter((s): s is string => typeof s === 'string'))];
    const artistSlugs = [...new Set(items.map((i) => i.artistId).filter((s): s is string => typeof s === 'string'))];
    const ownedWriters = new Set<string>();
    const ownedArtists = new Set<string>();
    for (const part of chunks(writerSlugs)) {
      (await this.catalog.platformSongwriterSlugs(part)).forEach((slug) => ownedWriters.add(slug));
    }
    for (const part of chunks(artistSlugs)) {
      (await this.catalog.platformArtistSlugs(part)).forEach((slug) => ownedArtists.add(slug));
    }
    return items.filter((i) => ownedWriters.has(String(i.songwriterId)) && ownedArtists.has(String(i.artistId))).length;
  }
}
