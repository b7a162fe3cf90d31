/**
 * The registry's tamper evidence: each record's hash covers its immutable fields and the previous
 * record's hash, so changing, removing or reordering any record breaks every hash after it.
 */
import { canonicalJson, sha256Tagged } from '../../lib/canonical-json.js';
import type { registryTracks } from '../../infra/db/schema/index.js';

export const GENESIS_HASH = `sha256:${'0'.repeat(64)}`;

type RegistryRow = typeof registryTracks.$inferSelect;
export type ChainedFields = Omit<RegistryRow, 'seq' | 'recordHash' | 'firstPlayedAt' | 'playbackCount' | 'reuseEligible' | 'flagForReview'>;

/** The fields the hash covers, in a stable, driver-independent form. */
export function hashedContent(row: ChainedFields): Record<string, unknown> {
  return {
    station_track_id: row.stationTrackId,
    generation_id: row.generationId,
    track_type: row.trackType,
    session_id: row.sessionId,
    radio_only: row.radioOnly,
    model_version: row.modelVersion,
    lyrics_model_version: row.lyricsModelVersion,
    training_dataset_hash: row.trainingDatasetHash,
    context_snapshot: row.contextSnapshot,
    title: row.title,
    genre: row.genre,
    mood: row.mood,
    bpm: row.bpm,
    duration_sec: row.durationSec,
    audio_blob_key: row.audioBlobKey,
    audio_sha256: row.audioSha256,
    waveform_blob_key: row.waveformBlobKey,
    cover_blob_key: row.coverBlobKey,
    lyric_id: row.lyricId,
    influenced_by: row.influencedBy,
    safety_score: row.safetyScore,
    generated_at: row.generatedAt.toISOString(),
    prev_hash: row.prevHash,
  };
}

export function recordHash(row: ChainedFields): string {
  return sha256Tagged(canonicalJson(hashedContent(row)));
}
