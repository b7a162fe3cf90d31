/** The shapes of the upload and track-management routes: they validate, type and document them. */
import { Type } from '@sinclair/typebox';
import { Nullable, StringEnum } from '../../http/schemas.js';

const Title = Type.String({ minLength: 1, maxLength: 200 });
const Genre = Type.String({ minLength: 1, maxLength: 80 });
const Album = Type.String({ minLength: 1, maxLength: 200 });
const Isrc = Type.String({ minLength: 12, maxLength: 15, description: 'ISRC, e.g. USRC17607839 (hyphens allowed)' });

/**
 * POST /v1/tracks, multipart/form-data. Text fields are strings on the wire, hence the patterns. Fields
 * left out are filled from the file's tags (title, genre, album, ISRC, year) when it has them.
 */
export const UploadForm = Type.Object(
  {
    file: Type.String({ format: 'binary', description: 'the audio: MP3 (MPEG Layer III), WAV (PCM or float), FLAC or AIFF (uncompressed), one file part' }),
    artist_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'slug or id of an artist you own; may be left out when you own exactly one (admins: any artist)',
      }),
    ),
    title: Type.Optional(Title),
    genre: Type.Optional(Genre),
    subgenre: Type.Optional(Type.String({ maxLength: 80 })),
    mood: Type.Optional(Type.String({ maxLength: 300, description: 'comma-separated moods' })),
    album: Type.Optional(Album),
    isrc: Type.Optional(Isrc),
    release_year: Type.Optional(Type.String({ pattern: '^(19|20)[0-9]{2}$' })),
    bpm: Type.Optional(Type.String({ pattern: '^([2-9][0-9]|[12][0-9]{2}|300)$', description: '20 to 300' })),
    explicit: Type.Optional(StringEnum(['true', 'false'] as const)),
  },
  { additionalProperties: false, title: 'TrackUploadForm' },
);

export const TrackPatchBody = Type.Object(
  {
    title: Type.Optional(Title),
    genre: Type.Optional(Genre),
    subgenre: Type.Optional(Type.String({ maxLength: 80 })),
    mood: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 40 }), { maxItems: 12 })),
    album: Type.Optional(Type.Union([Album, Type.Null()])),
    isrc: Type.Optional(Type.Union([Isrc, Type.Null()])),
    release_year: Type.Optional(Type.Union([Type.Integer({ minimum: 1900, maximum: 2100 }), Type.Null()])),
    bpm: Type.Optional(Type.Union([Type.Integer({ minimum: 20, maximum: 300 }), Type.Null()])),
    explicit: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1, title: 'TrackPatch' },
);

export const TakedownBody = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: 1000, description: 'why the track is taken down (sent in track.removed)' }) },
  { additionalProperties: false, title: 'TrackTakedown' },
);

export const QUALITIES = ['128kbps', '192kbps', '320kbps'] as const;

export const ManagedTrack = Type.Object(
  {
    id: Type.String(),
    slug: Type.String(),
    title: Type.String(),
    artist: Type.String(),
    artist_id: Type.String(),
    artist_slug: Type.String(),
    genre: Type.String(),
    subgenre: Type.String(),
    mood: Type.Array(Type.String()),
    bpm: Nullable(Type.Integer()),
    isrc: Nullable(Type.String()),
    explicit: Type.Boolean(),
    release_year: Nullable(Type.Integer()),
    album: Nullable(Type.String()),
    status: StringEnum(['processing', 'published', 'removed', 'failed'] as const, {
      description: 'processing: renditions rendering (poll GET /v1/tracks/{id}/upload); published: in the catalog; removed: taken down; failed: see failure',
    }),
    duration_sec: Type.Number(),
    loudness_lufs: Nullable(Type.Number({ description: 'integrated loudness of the master (ITU-R BS.1770 / EBU R128); null for silence' })),
    master: Type.Union([
      Type.Object({
        format: Type.String(),
        container: Type.String(),
        codec: Nullable(Type.String()),
        sample_rate: Type.Integer(),
        channels: Type.Integer(),
        bitrate_kbps: Nullable(Type.Integer()),
        size_bytes: Type.Integer(),
        filename: Nullable(Type.String()),
      }),
      Type.Null(),
    ]),
    tags: Type.Union([Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Null()])), Type.Null()], {
      description: 'the tags read from the uploaded file',
    }),
    renditions: Type.Array(Type.Object({ bitrate_kbps: Type.Integer(), size_bytes: Type.Integer(), quality: StringEnum(QUALITIES) }), {
      description: 'stream renditions, once published: GET /v1/tracks/{id}/stream?quality=...',
    }),
    failure: Nullable(Type.String()),
    removal: Type.Union([Type.Object({ reason: Type.String(), removed_at: Type.String({ format: 'date-time' }) }), Type.Null()]),
    created_at: Type.String({ format: 'date-time' }),
    published_at: Nullable(Type.String({ format: 'date-time' })),
  },
  { title: 'ManagedTrack' },
);
