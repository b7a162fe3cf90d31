import { Type } from '@sinclair/typebox';
import { Nullable } from '../../http/schemas.js';

export const TrackSummary = Type.Object(
  {
    id: Type.String(),
    slug: Type.String(),
    title: Type.String(),
    artist: Type.String(),
    artist_slug: Type.String(),
    artist_verified: Type.Boolean({ description: 'whether an admin verified the artist (platform-owned artists may be unverified too)' }),
    duration: Type.Integer({ description: 'seconds' }),
    streams: Type.Integer(),
    genre: Type.String(),
    subgenre: Type.String(),
    mood: Type.Array(Type.String()),
    bpm: Nullable(Type.Integer()),
    key: Nullable(Type.String()),
    mode: Nullable(Type.String()),
    isrc: Nullable(Type.String()),
    explicit: Type.Boolean(),
    release_year: Nullable(Type.Integer()),
    album_id: Nullable(Type.String({ description: 'the release the track is on (GET /v1/albums/{id}); null when on none' })),
    track_number: Nullable(Type.Integer({ description: 'its place on that release, from 1' })),
    cover_art_url: Nullable(Type.String({ format: 'uri' })),
  },
  { title: 'TrackSummary' },
);

export const TrackDetail = Type.Composite(
  [
    TrackSummary,
    Type.Object({
      lifestyle: Nullable(Type.String()),
      energy: Nullable(Type.Number()),
      audio: Nullable(
        Type.Object({
          format: Nullable(Type.String()),
          bitrate_kbps: Nullable(Type.Integer()),
          size_bytes: Nullable(Type.Integer()),
          loudness_lufs: Nullable(Type.Number({ description: 'integrated loudness (ITU-R BS.1770), measured on upload' })),
        }),
      ),
      waveform_url: Nullable(Type.String({ format: 'uri' })),
      has_lyrics: Type.Boolean(),
      status: Type.String({ enum: ['published', 'removed', 'processing', 'failed'], description: 'always published, except for admins, who see every track' }),
      credits: Type.Array(
        Type.Object({
          songwriter_id: Type.String(),
          name: Type.String(),
          ipi: Nullable(Type.String()),
          role: Type.String(),
          split_pct: Type.Number(),
        }),
      ),
      created_at: Type.String({ format: 'date-time' }),
    }),
  ],
  { title: 'TrackDetail' },
);
