/** A managed track as the API shows it to its owner and admins (POST, PATCH, DELETE /v1/tracks, GET .../upload). */
import { renditionKey } from '../media/rendition-keys.js';
import type { ManagedTrack } from './uploads.repository.js';

/** The rendition the catalog row points at (its `audio`); the others sit beside it. */
export const STREAM_KBPS = 320;
export const RENDITION_KBPS = [128, 192, 320] as const;

export const streamKeyOf = (trackId: string) => `tracks/${trackId}/stream.mp3`;
/**
 * The lossless master the radio airs: a WAV or AIFF upload's samples as FLAC (the upload itself stays as
 * `master.wav` / `master.aiff`, for the store), or a FLAC upload itself (its upload key is the same).
 */
export const losslessMasterKeyOf = (trackId: string) => `tracks/${trackId}/master.flac`;

/** Blob key of each rendition of an uploaded track, by bitrate. */
export function renditionKeys(trackId: string): [number, string][] {
  return RENDITION_KBPS.map((kbps) => [kbps, renditionKey(streamKeyOf(trackId), STREAM_KBPS, kbps)]);
}

export type UploadView = ReturnType<typeof uploadView>;

export function uploadView({ track, artist, upload, takedown }: ManagedTrack, renditionSizes: Map<number, number>) {
  return {
    id: track.id,
    slug: track.slug,
    title: track.title,
    artist: artist.name,
    artist_id: artist.id,
    artist_slug: artist.slug,
    genre: track.genre,
    subgenre: track.subgenre,
    mood: track.mood,
    bpm: track.bpm,
    isrc: track.isrc,
    explicit: track.explicit,
    release_year: track.releaseYear,
    album: upload?.album ?? null,
    status: track.status,
    duration_sec: track.durationSec,
    loudness_lufs: track.loudnessLufs,
    master: upload
      ? {
          format: upload.masterFormat,
          container: upload.container,
          codec: upload.codec,
          sample_rate: upload.sampleRate,
          channels: upload.channels,
          bitrate_kbps: upload.bitrateKbps,
          size_bytes: upload.sizeBytes,
          filename: upload.originalFilename,
        }
      : null,
    tags: upload ? upload.tags : null,
    renditions: [...renditionSizes].map(([kbps, size]) => ({
      bitrate_kbps: kbps,
      size_bytes: size,
      quality: `${kbps}kbps` as `${(typeof RENDITION_KBPS)[number]}kbps`,
    })),
    failure: upload?.failure ?? null,
    removal: takedown ? { reason: takedown.reason, removed_at: takedown.removedAt.toISOString() } : null,
    created_at: track.createdAt.toISOString(),
    published_at: upload?.publishedAt?.toISOString() ?? null,
  };
}
