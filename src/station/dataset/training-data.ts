/**
 * Training inputs, read from the catalog and nothing else: audio features of masters by platform-owned
 * artists, and lyrics written by the platform's own songwriters. Published as content-addressed artifacts
 * so a training job (local or remote) reads exactly the items it was given.
 */
import { createHash } from 'node:crypto';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { ArtifactRef } from '../../engine/engine.js';
import type { AudioFeatures, LyricsDocument } from '../../engine/types.js';
import type { BlobStore } from '../../infra/blobs/blob-store.js';
import type { DbOrTx } from '../../infra/db/client.js';
import { artists, lyrics, songwriters, trackFeatures, tracks } from '../../infra/db/schema/index.js';
import { canonicalJson, sha256Tagged } from '../../lib/canonical-json.js';

export interface AudioTrainingItem {
  id: string;
  genre: string;
  mood: string[];
  features: AudioFeatures;
}

export async function loadAudioItems(db: DbOrTx, trackIds?: string[]): Promise<AudioTrainingItem[]> {
  if (trackIds && trackIds.length === 0) return [];
  const rows = await db
    .select({ id: tracks.id, genre: tracks.genre, mood: tracks.mood, features: trackFeatures.features })
    .from(tracks)
    .innerJoin(artists, eq(artists.id, tracks.artistId))
    .innerJoin(trackFeatures, eq(trackFeatures.trackId, tracks.id))
    .where(and(eq(artists.platformOwned, true), trackIds ? inArray(tracks.id, trackIds) : undefined))
    .orderBy(asc(tracks.id));
  return rows.map((row) => ({ id: row.id, genre: row.genre, mood: row.mood, features: row.features }));
}

export async function loadLyricsDocuments(db: DbOrTx, lyricIds?: string[]): Promise<LyricsDocument[]> {
  return (await loadLyricRows(db, lyricIds)).map((row) => row.document);
}

/**
 * Loads exactly the given items (a snapshot's ids), in the loaders' order; `missing` names every id that
 * is gone or no longer platform-owned, so the caller can refuse to train on a silently smaller set.
 */
export async function loadAudioItemsExactly(db: DbOrTx, trackIds: string[]): Promise<{ items: AudioTrainingItem[]; missing: string[] }> {
  const items = await loadAudioItems(db, trackIds);
  const found = new Set(items.map((item) => item.id));
  return { items, missing: trackIds.filter((id) => !found.has(id)) };
}

export async function loadLyricsDocumentsExactly(db: DbOrTx, lyricIds: string[]): Promise<{ items: LyricsDocument[]; missing: string[] }> {
  const rows = await loadLyricRows(db, lyricIds);
  const found = new Set(rows.map((row) => row.lyricId));
  return { items: rows.map((row) => row.document), missing: lyricIds.filter((id) => !found.has(id)) };
}

/** Lyrics as the training loader reads them, with their row ids. */
export async function loadLyricRows(db: DbOrTx, lyricIds?: string[]): Promise<{ lyricId: string; document: LyricsDocument }[]> {
  if (lyricIds && lyricIds.length === 0) return [];
  return selectLyricDocuments(db, { platformOnly: true, lyricIds });
}

/**
 * Lyrics as the engine reads them (LyricsDocument, artists and songwriters by slug). Training reads only the
 * platform's own; the safety reference reads every lyric the platform holds, since no generated line may
 * copy any of them.
 */
export async function selectLyricDocuments(
  db: DbOrTx,
  options: { platformOnly: boolean; lyricIds?: string[] },
): Promise<{ lyricId: string; document: LyricsDocument }[]> {
  const rows = await db
    .select({
      id: lyrics.id,
      slug: lyrics.slug,
      title: lyrics.title,
      language: lyrics.language,
      mood: lyrics.mood,
      theme: lyrics.theme,
      sections: lyrics.sections,
      songwriterSlug: songwriters.slug,
      artistSlug: artists.slug,
    })
    .from(lyrics)
    .innerJoin(songwriters, eq(songwriters.id, lyrics.songwriterId))
    .innerJoin(artists, eq(artists.id, lyrics.artistId))
    .where(
      and(
        options.platformOnly ? and(eq(songwriters.platformOwned, true), eq(artists.platformOwned, true)) : undefined,
        options.lyricIds ? inArray(lyrics.id, options.lyricIds) : undefined,
      ),
    )
    .orderBy(asc(lyrics.slug));
  return rows.map((row) => ({
    lyricId: row.id,
    document: {
      id: row.slug,
      title: row.title,
      songwriterId: row.songwriterSlug,
      artistId: row.artistSlug,
      language: row.language,
      mood: row.mood,
      theme: row.theme,
      sections: row.sections,
    },
  }));
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
