/**
 * The snapshot fingerprint: sha256 over the canonical JSON (sorted keys, no whitespace) of the frozen
 * configuration, the sorted item ids and a content fingerprint of every item, so the same data gives the
 * same hash on any machine, and changing any item's content (features of a master, text of a lyric) or
 * the configuration changes it. Names, descriptions and timestamps are deliberately not part of it.
 *
 *   dataset_hash = "sha256:" + hex(sha256(canonicalJson({
 *     config, audio_track_ids, lyric_ids,
 *     items: { audio: [{ id, features_sha256 }], lyrics: [{ id, content_sha256 }] }   // in id order
 *   })))
 *
 * features_sha256 = sha256Tagged(canonicalJson(the master's stored style features));
 * content_sha256 = sha256Tagged(canonicalJson(the lyric as the training loader reads it)).
 */
import type { AudioFeatures, LyricsDocument } from '../../engine/types.js';
import { canonicalJson, sha256Tagged } from '../../lib/canonical-json.js';

export interface AudioFingerprint {
  id: string;
  features_sha256: string;
}

export interface LyricFingerprint {
  id: string;
  content_sha256: string;
}

export interface SnapshotContent {
  config: Record<string, unknown>;
  audio_track_ids: string[];
  lyric_ids: string[];
  items: { audio: AudioFingerprint[]; lyrics: LyricFingerprint[] };
}

export const audioFingerprint = (id: string, features: AudioFeatures): AudioFingerprint => ({ id, features_sha256: sha256Tagged(canonicalJson(features)) });

export const lyricFingerprint = (id: string, document: LyricsDocument): LyricFingerprint => ({ id, content_sha256: sha256Tagged(canonicalJson(document)) });

const byId = <T extends { id: string }>(a: T, b: T) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Builds the hashed content, putting every list in its canonical order. */
export function snapshotContent(config: Record<string, unknown>, audio: AudioFingerprint[], lyrics: LyricFingerprint[]): SnapshotContent {
  const audioSorted = [...audio].sort(byId);
  const lyricsSorted = [...lyrics].sort(byId);
  return {
    config,
    audio_track_ids: audioSorted.map((a) => a.id),
    lyric_ids: lyricsSorted.map((l) => l.id),
    items: { audio: audioSorted, lyrics: lyricsSorted },
  };
}

export const snapshotHash = (content: SnapshotContent): string => sha256Tagged(canonicalJson(content));
