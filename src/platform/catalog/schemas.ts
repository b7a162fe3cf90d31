import { Type } from '@sinclair/typebox';

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

export const TrackSummary = Type.Object(
  {
    id: Type.String(),
    slug: Type.String(),
    title: Type.String(),
    artist: Type.String(),
    artist_slug: Type.String(),
    duration: Type.Integer({ description: 'seconds' }),
    streams: Type.Integer(),
    genre: Type.String(),
    subgenre: Type.String(),
    mood: Type.Array(Type.String()),
    bpm: Type.Union([Type.Integer(), Type.Null()]),
    key: Nullable(Type.String()),
    mode: Nullable(Type.String()),
    isrc: Nullable(Type.String()),
    explicit: Type.Boolean(),
    release_year: Type.Union([Type.Integer(), Type.Null()]),
    cover_art_url: Nullable(Type.String({ format: 'uri' })),
  },
  { title: 'TrackSummary' },
);

export const TrackDetail = Type.Composite(
  [
    TrackSummary,
    Type.Object({
      lifestyle: Nullable(Type.String()),
      energy: Type.Union([Type.Number(), Type.Null()]),
      audio: Type.Union([
        Type.Object({
          format: Nullable(Type.String()),
          bitrate_kbps: Type.Union([Type.Integer(), Type.Null()]),
          size_bytes: Type.Union([Type.Integer(), Type.Null()]),
        }),
        Type.Null(),
      ]),
      waveform_url: Nullable(Type.String({ format: 'uri' })),
      has_lyrics: Type.Boolean(),
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

export const ArtistSummary = Type.Object(
  {
    id: Type.String(),
    slug: Type.String(),
    name: Type.String(),
    genre: Type.String(),
    verified: Type.Boolean(),
    platform_owned: Type.Boolean(),
    followers: Type.Integer(),
  },
  { title: 'ArtistSummary' },
);

export const ArtistProfile = Type.Composite(
  [
    ArtistSummary,
    Type.Object({
      bio: Type.String(),
      formed_year: Type.Union([Type.Integer(), Type.Null()]),
      discography: Type.Array(TrackSummary),
    }),
  ],
  { title: 'ArtistProfile' },
);
