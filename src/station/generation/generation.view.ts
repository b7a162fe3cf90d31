/** How a generation job looks in the API (GET /generate/track/{id}). */
import type { UrlSigner } from '../../infra/blobs/url-signer.js';
import type { GenerationRow } from './generation.repository.js';
import { aiStreamKey } from './generation-keys.js';

/** stream_url is a temporary CDN link with a 24 hour time to live (spec limits). */
export const STREAM_LINK_TTL_SEC = 24 * 3600;

export function generationView(row: GenerationRow, signer: UrlSigner) {
  const context = row.context as { genre?: string; mood?: string[] };
  const base = {
    generation_id: row.id,
    status: row.status,
    progress_pct: row.progressPct,
    eta_seconds: row.etaSeconds,
    context_id: row.contextId,
    seed: row.seed,
    quality: row.quality,
    max_duration_sec: row.maxDurationSec,
    include_lyrics: row.includeLyrics,
    session_id: row.sessionId,
    model_version: row.modelVersion,
    ...(row.status === 'pending' && row.modelVersion === null ? { waiting_for_model: true } : {}),
    regenerated_from: row.regeneratedFrom,
    created_at: row.createdAt.toISOString(),
    started_at: row.startedAt?.toISOString() ?? null,
    completed_at: row.completedAt?.toISOString() ?? null,
    station_track_id: row.stationTrackId,
    error: row.errorCode ? { code: row.errorCode, message: row.errorMessage ?? '' } : null,
  };
  if (row.status !== 'complete' || !row.audioBlobKey) return base;
  const stream = signer.sign(aiStreamKey(row.audioBlobKey, row.quality), STREAM_LINK_TTL_SEC);
  return {
    ...base,
    duration_ms: row.startedAt && row.completedAt ? row.completedAt.getTime() - row.startedAt.getTime() : null,
    track_origin: 'ai_generated' as const,
    title: row.title,
    genre: context.genre ?? null,
    mood: context.mood ?? [],
    bpm: row.bpm,
    key: row.musicalKey,
    duration_sec: row.durationSec === null ? null : Math.round(row.durationSec),
    lyric_id: row.lyricId,
    lyrics_model_version: row.lyricsModelVersion,
    stream_url: stream.url,
    stream_url_expires: stream.expiresAt.toISOString(),
    waveform_url: row.waveformBlobKey ? signer.sign(row.waveformBlobKey, STREAM_LINK_TTL_SEC).url : null,
    cover_art_url: row.coverBlobKey ? signer.sign(row.coverBlobKey, STREAM_LINK_TTL_SEC).url : null,
    vocal_stem_url: row.vocalStemBlobKey ? signer.sign(row.vocalStemBlobKey, STREAM_LINK_TTL_SEC).url : null,
    timings: row.timings,
  };
}
