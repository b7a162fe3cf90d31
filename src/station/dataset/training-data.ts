/**
 * Training inputs, read from the catalog and nothing else: audio features of masters by platform-owned
 * artists, and lyrics written by the platform's own songwriters. Published as content-addressed artifacts
 * so a training job (local or remote) reads exactly the items it was given. The catalog is read through its
 * port (TrainingCatalog): this module reads no catalog table itself.
 */
import { createHash } from 'node:crypto';
import type { ArtifactRef } from '../../engine/engine.js';
import type { AudioFeatures, LyricsDocument } from '../../engine/types.js';
import type { BlobStore } from '../../infra/blobs/blob-store.js';
import type { DbOrTx } from '../../infra/db/client.js';
import { canonicalJson, sha256Tagged } from '../../lib/canonical-json.js';

export interface AudioTrainingItem {
  id: string;
  genre: string;
  mood: string[];
  features: AudioFeatures;
}

/**
 * The catalog's read port (src/platform/catalog/track-reads.ts, published as the catalog module's `trackReads`):
 * what the training loaders and the safety reference read of the catalog.
 */
export interface TrainingCatalog {
  /** Audio features of masters by platform-owned artists (of these tracks only, when named), by track id. */
  platformAudioItems(trackIds?: string[]): Promise<AudioTrainingItem[]>;
  /**
   * Lyrics as the engine reads them (artists and songwriters by slug), by slug: every lyric, or only the platform
   * songwriters' and artists' (`platformOnly`), of these ids when named; in `tx` when given.
   */
  lyricDocuments(options: { platformOnly: boolean; lyricIds?: string[] }, tx?: DbOrTx): Promise<{ lyricId: string; document: LyricsDocument }[]>;
}

export async function loadAudioItems(catalog: TrainingCatalog, trackIds?: string[]): Promise<AudioTrainingItem[]> {
  if (trackIds && trackIds.length === 0) return [];
  return catalog.platformAudioItems(trackIds);
}

export async function loadLyricsDocuments(catalog: TrainingCatalog, lyricIds?: string[]): Promise<LyricsDocument[]> {
  return (await loadLyricRows(catalog, lyricIds)).map((row) => row.document);
}

/**
 * Loads exactly the given items (a snapshot's ids), in the loaders' order; `missing` names every id that
 * is gone or no longer platform-owned, so the caller can refuse to train on a silently smaller set.
 */
export async function loadAudioItemsExactly(catalog: TrainingCatalog, trackIds: string[]): Promise<{ items: AudioTrainingItem[]; missing: string[] }> {
  const items = await loadAudioItems(catalog, trackIds);
  const found = new Set(items.map((item) => item.id));
  return { items, missing: trackIds.filter((id) => !found.has(id)) };
}

export async function loadLyricsDocumentsExactly(catalog: TrainingCatalog, lyricIds: string[]): Promise<{ items: LyricsDocument[]; missing: string[] }> {
  const rows = await loadLyricRows(catalog, lyricIds);
  const found = new Set(rows.map((row) => row.lyricId));
  return { items: rows.map((row) => row.document), missing: lyricIds.filter((id) => !found.has(id)) };
}

/** Lyrics as the training loader reads them, with their row ids; in `tx` when given (a snapshot's transaction). */
export async function loadLyricRows(catalog: TrainingCatalog, lyricIds?: string[], tx?: DbOrTx): Promise<{ lyricId: string; document: LyricsDocument }[]> {
  if (lyricIds && lyricIds.length === 0) return [];
  return catalog.lyricDocuments({ platformOnly: true, lyricIds }, tx);
}

/** Stores a dataset as an artifact; the same items always give the same hash. */
export async function publishDataset(blobs: BlobStore, kind: string, items: unknown[]): Promise<{ ref: ArtifactRef; datasetHash: string }> {
  const canonical = canonicalJson(items);
  const bytes = Buffer.from(canonical);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const blobKey = `datasets/${kind}-${sha256}.json`;
  if (!(await blobs.stat(blobKey))) await blobs.put(blobKey, bytes);
  return { ref: { version: `${kind}-${sha256.slice(0, 12)}`, sha256, blobKey }, datasetHash: sha256Tagged(canonical) };
}
