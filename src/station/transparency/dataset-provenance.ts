/**
 * Checks what a model's training dataset actually held: the dataset artifact is content-addressed by its
 * hash (station/dataset/training-data.ts), so the items can be re-read and each one looked up in the
 * catalog. Audio items must be masters of platform-owned artists; lyrics items must be by the platform's
 * own songwriters (and platform-owned artists). A dataset is immutable, so a verdict is cached by hash.
 * Only counts leave this module, never the items.
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { BlobStore } from '../../infra/blobs/blob-store.js';
import type { Db } from '../../infra/db/client.js';
import { artists, songwriters, tracks } from '../../infra/db/schema/index.js';
import type { ModelType } from '../models/models.repository.js';

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
    private readonly db: Db,
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
      const rows = await this.db
        .select({ id: tracks.id })
        .from(tracks)
        .innerJoin(artists, eq(artists.id, tracks.artistId))
        .where(and(inArray(tracks.id, part), eq(artists.platformOwned, true)));
      rows.forEach((r) => owned.add(r.id));
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
      const rows = await this.db
        .select({ slug: songwriters.slug })
        .from(songwriters)
        .where(and(inArray(songwriters.slug, part), eq(songwriters.platformOwned, true)));
      rows.forEach((r) => ownedWriters.add(r.slug));
    }
    for (const part of chunks(artistSlugs)) {
      const rows = await this.db
        .select({ slug: artists.slug })
        .from(artists)
        .where(and(inArray(artists.slug, part), eq(artists.platformOwned, true)));
      rows.forEach((r) => ownedArtists.add(r.slug));
    }
    return items.filter((i) => ownedWriters.has(String(i.songwriterId)) && ownedArtists.has(String(i.artistId))).length;
  }
}
