import { Type } from '@sinclair/typebox';
import { StringEnum } from '../../http/schemas.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

export const Quality = StringEnum(['128kbps', '192kbps', '320kbps'], { description: 'MP3 bitrate, as the stream_quality values' });

export const ContextOverride = Type.Object(
  {
    genre: Type.Optional(Type.String({ minLength: 1, maxLength: 60 })),
    subgenre: Type.Optional(Type.String({ maxLength: 60 })),
    mood: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 40 }), { minItems: 1, maxItems: 8 })),
    lifestyle: Type.Optional(StringEnum(['focus', 'party', 'chill', 'workout', 'sleep'])),
    tempo_range: Type.Optional(Type.Tuple([Type.Integer({ minimum: 40, maximum: 220 }), Type.Integer({ minimum: 40, maximum: 220 })])),
    key_preference: Type.Optional(StringEnum(['major', 'minor', 'any'])),
    energy_level: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
  },
  { additionalProperties: false, description: 'Merged over the active (or named) context' },
);

export const GenerationRequestBody = Type.Object(
  {
    context_id: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 80 }))),
    context_override: Type.Optional(Nullable(ContextOverride)),
    model_version: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 120, description: 'null: the production model' }))),
    max_duration_sec: Type.Integer({ minimum: 10, maximum: 900 }),
    seed: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 2147483646, description: 'null: random' }))),
    quality: Type.Optional(Quality),
    include_lyrics: Type.Optional(Type.Boolean({ default: false })),
    session_id: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 120 }))),
  },
  { additionalProperties: false, title: 'GenerationRequest' },
);

export const GenerationView = Type.Object(
  {
    generation_id: Type.String(),
    status: StringEnum(['pending', 'in_progress', 'complete', 'failed', 'cancelled']),
    progress_pct: Type.Integer(),
    eta_seconds: Nullable(Type.Integer()),
    context_id: Nullable(Type.String()),
    seed: Type.Integer(),
    quality: Type.String(),
    max_duration_sec: Type.Integer(),
    include_lyrics: Type.Boolean(),
    session_id: Nullable(Type.String()),
    model_version: Nullable(Type.String({ description: 'null while the generation waits for the first production audio model to be deployed' })),
    waiting_for_model: Type.Optional(
      Type.Boolean({ description: 'true while pending until a production audio model is deployed (eta_seconds includes that wait)' }),
    ),
    regenerated_from: Nullable(Type.String()),
    created_at: Type.String({ format: 'date-time' }),
    started_at: Nullable(Type.String({ format: 'date-time' })),
    completed_at: Nullable(Type.String({ format: 'date-time' })),
    station_track_id: Nullable(Type.String()),
    error: Nullable(Type.Object({ code: Type.String(), message: Type.String() })),
    duration_ms: Type.Optional(Nullable(Type.Integer({ description: 'generation time' }))),
    track_origin: Type.Optional(Type.Literal('ai_generated')),
    title: Type.Optional(Nullable(Type.String())),
    genre: Type.Optional(Nullable(Type.String())),
    mood: Type.Optional(Type.Array(Type.String())),
    bpm: Type.Optional(Nullable(Type.Integer())),
    key: Type.Optional(Nullable(Type.String())),
    duration_sec: Type.Optional(Nullable(Type.Integer({ description: 'track length' }))),
    lyric_id: Type.Optional(Nullable(Type.String())),
    lyrics_model_version: Type.Optional(Nullable(Type.String())),
    stream_url: Type.Optional(Type.String({ format: 'uri', description: 'signed link, 24 hours' })),
    stream_url_expires: Type.Optional(Type.String({ format: 'date-time' })),
    waveform_url: Type.Optional(Nullable(Type.String({ format: 'uri' }))),
    cover_art_url: Type.Optional(Nullable(Type.String({ format: 'uri' }))),
    vocal_stem_url: Type.Optional(Nullable(Type.String({ format: 'uri', description: 'The sung vocal alone (mono MP3), null for an instrumental track' }))),
    timings: Type.Optional(Nullable(Type.Record(Type.String(), Type.Number()))),
  },
  { title: 'Generation' },
);

export const QueueView = Type.Object(
  {
    data: Type.Array(
      Type.Object({
        generation_id: Type.String(),
        status: Type.String(),
        position: Type.Integer(),
        progress_pct: Type.Integer(),
        estimated_wait_seconds: Type.Integer(),
        estimated_finish_seconds: Type.Integer(),
        created_at: Type.String({ format: 'date-time' }),
      }),
    ),
    pending: Type.Integer(),
    in_progress: Type.Integer(),
    max_concurrent: Type.Integer(),
    render_seconds_per_audio_second: Type.Number(),
    workers: Type.Object({ size: Type.Integer(), busy: Type.Integer(), queued: Type.Integer() }),
    engine: Type.Object({ kind: Type.String(), status: Type.String() }),
    gpu_available: Type.Boolean(),
    gpu_load_pct: Nullable(Type.Number()),
    cpu_load_pct: Type.Integer(),
  },
  { title: 'GenerationQueue' },
);
