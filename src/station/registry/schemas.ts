/** Module G's request and response shapes (TypeBox: one schema validates, types and documents). */
import { Type, type Static } from '@sinclair/typebox';
import { PageQuery, StringEnum } from '../../http/schemas.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

export const DatasetHash = Type.String({ pattern: '^sha256:[0-9a-f]{64}$', description: 'sha256:<hex>' });

/** ISO 8601 date (a whole UTC day) or date-time (UTC when no offset is given). */
export const IsoDateOrDateTime = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:?\\d{2})?)?$',
  description: 'ISO 8601 date (whole UTC day) or date-time',
  examples: ['2026-03-01', '2026-03-01T12:00:00Z'],
});

export const StationTrackIdParams = Type.Object({ station_track_id: Type.String({ minLength: 1, maxLength: 64 }) });

export const InfluencedBy = Type.Array(
  Type.Object({ track_id: Type.String(), title: Type.String(), artist: Type.String(), similarity: Type.Number() }),
  { description: 'platform catalog tracks whose style most influenced the track' },
);

export const RegistryRecord = Type.Object(
  {
    station_track_id: Type.String(),
    generation_id: Type.String(),
    track_type: Type.Literal('ai_generated'),
    session_id: Nullable(Type.String()),
    radio_only: Type.Boolean({ description: 'the track cannot be sold or licensed' }),
    model_version: Type.String(),
    lyrics_model_version: Nullable(Type.String()),
    training_dataset_hash: Type.String(),
    context_snapshot: Type.Record(Type.String(), Type.Unknown()),
    generated_at: Type.String({ format: 'date-time' }),
    first_played_at: Nullable(Type.String({ format: 'date-time' })),
    playback_count: Type.Integer(),
    reuse_eligible: Type.Boolean(),
    flag_for_review: Type.Boolean(),
    safety_score: Type.Number(),
    title: Type.String(),
    genre: Type.String(),
    mood: Type.Array(Type.String()),
    bpm: Type.Integer(),
    duration_sec: Type.Integer(),
    lyric_id: Nullable(Type.String()),
    influenced_by: InfluencedBy,
    audio_sha256: Type.String(),
    seq: Type.Integer({ description: 'position in the hash chain' }),
    prev_hash: Type.String(),
    record_hash: Type.String(),
  },
  { title: 'RegistryRecord' },
);

export const RegisterTrackBody = Type.Object(
  {
    generation_id: Type.String({ format: 'uuid', description: 'an existing generation whose audio exists' }),
    session_id: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 120 }))),
    radio_only: Type.Optional(Type.Boolean({ default: true })),
    model_version: Type.Optional(Type.String({ minLength: 1, maxLength: 120 })),
    lyrics_model_version: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 120 }))),
    training_dataset_hash: Type.Optional(DatasetHash),
    context_snapshot: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    safety_score: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    genre: Type.Optional(Type.String({ minLength: 1, maxLength: 60 })),
    mood: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 40 }), { maxItems: 8 })),
    bpm: Type.Optional(Type.Integer({ minimum: 20, maximum: 300 })),
    duration_sec: Type.Optional(Type.Integer({ minimum: 1, maximum: 3600 })),
    audio_blob_key: Type.Optional(Type.String({ minLength: 1, maxLength: 300 })),
  },
  {
    additionalProperties: false,
    title: 'RegisterTrack',
    description:
      'Fields left out are taken from the generation (and its model and lyric). Fields given must agree with the generation.',
  },
);
export type RegisterTrackBody = Static<typeof RegisterTrackBody>;

export const RegisterTrackResult = Type.Object(
  { station_track_id: Type.String(), created: Type.Boolean({ description: 'false: the generation was already registered' }), record: RegistryRecord },
  { title: 'RegisterTrackResult' },
);

export const RegistryListQuery = Type.Composite(
  [
    PageQuery,
    Type.Object({
      session_id: Type.Optional(Type.String({ minLength: 1, maxLength: 120 })),
      date_from: Type.Optional(IsoDateOrDateTime),
      date_to: Type.Optional(IsoDateOrDateTime),
      model_version: Type.Optional(Type.String({ minLength: 1, maxLength: 120 })),
      reuse_eligible: Type.Optional(Type.Boolean()),
      flag_for_review: Type.Optional(Type.Boolean()),
    }),
  ],
  { additionalProperties: false },
);
export type RegistryListQuery = Static<typeof RegistryListQuery>;

const ModelLineage = Type.Object({
  role: StringEnum(['audio', 'lyrics', 'style_embedding']),
  version: Type.String(),
  model_type: Type.String(),
  status: Type.String(),
  dataset_hash: Type.String(),
  lineage: Type.Record(Type.String(), Type.Unknown()),
  metrics_summary: Type.Record(Type.String(), Type.Unknown()),
  created_at: Type.String({ format: 'date-time' }),
  deployed_at: Nullable(Type.String({ format: 'date-time' })),
  inferred: Type.Boolean({ description: 'true: not recorded on the track, the model in production when it was generated' }),
});

export const SafetyFlagView = Type.Object({
  id: Type.String(),
  flag_type: Type.String(),
  safety_score: Type.Number(),
  detail: Type.Record(Type.String(), Type.Unknown()),
  created_at: Type.String({ format: 'date-time' }),
});

export const RegistryDetail = Type.Composite(
  [
    RegistryRecord,
    Type.Object({
      attribution: Type.Object({
        track_origin: Type.Literal('ai_generated'),
        artist: Type.String({ description: 'the station, credited for AI tracks' }),
        radio_only: Type.Boolean(),
        influenced_by: InfluencedBy,
        lyrics: Nullable(
          Type.Object({
            lyric_id: Type.String(),
            model_version: Type.String(),
            source: Type.String(),
            songwriter_attribution: Type.String(),
            language: Type.String(),
            theme: Type.String(),
            safety_score: Type.Number(),
            explicit_detected: Type.Boolean(),
          }),
        ),
      }),
      model_lineage: Type.Array(ModelLineage),
      safety_flags: Type.Array(SafetyFlagView),
    }),
  ],
  { title: 'RegistryRecordDetail' },
);

export const RegistryPatchBody = Type.Object(
  {
    reuse_eligible: Type.Optional(Type.Boolean()),
    flag_for_review: Type.Optional(Type.Boolean({ description: 'true puts the track in the safety review queue' })),
  },
  { additionalProperties: false, minProperties: 1, title: 'RegistryPatch' },
);
export type RegistryPatchBody = Static<typeof RegistryPatchBody>;

export const PlaybackBody = Nullable(
  Type.Object(
    {
      session_id: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 120 }))),
      listener_count: Type.Optional(Type.Integer({ minimum: 0 })),
      started_at: Type.Optional(Type.String({ format: 'date-time' })),
      duration_sec: Type.Optional(Type.Number({ minimum: 0, maximum: 3600 })),
    },
    {
      additionalProperties: false,
      description: 'Optional. With listener_count the play is also recorded for the session aggregates (listener hours).',
    },
  ),
);
export type PlaybackBody = Static<typeof PlaybackBody>;

export const PlaybackResult = Type.Object(
  { station_track_id: Type.String(), playback_count: Type.Integer(), first_played_at: Type.String({ format: 'date-time' }) },
  { title: 'PlaybackResult' },
);

export const SessionView = Type.Object({
  session_id: Type.String(),
  tracks_generated: Type.Integer({ description: 'registry records of the session' }),
  tracks_played: Type.Integer({ description: 'records of the session played at least once' }),
  total_plays: Type.Integer({ description: 'plays recorded in the session (catalog and AI)' }),
  ai_plays: Type.Integer(),
  listener_hours: Type.Number({ description: 'sum over plays of duration x listeners at play time, in hours' }),
  generation_success_rate: Nullable(Type.Number({ description: 'complete / (complete + failed); null without finished generations' })),
  generations_complete: Type.Integer(),
  generations_failed: Type.Integer(),
  first_activity_at: Nullable(Type.String({ format: 'date-time' })),
  last_activity_at: Nullable(Type.String({ format: 'date-time' })),
});

export const AuditExportQuery = Type.Object(
  {
    format: Type.Optional(StringEnum(['json', 'csv', 'ndjson'], { default: 'json' })),
    date_from: Type.Optional(IsoDateOrDateTime),
    date_to: Type.Optional(IsoDateOrDateTime),
  },
  { additionalProperties: false },
);
export type AuditExportQuery = Static<typeof AuditExportQuery>;

export const ChainHead = Type.Object(
  {
    seq: Nullable(Type.Integer()),
    record_hash: Type.String({ description: 'the genesis hash while the registry is empty' }),
    count: Type.Integer(),
  },
  { title: 'RegistryChainHead' },
);

export const ChainVerification = Type.Object(
  {
    valid: Type.Boolean(),
    checked: Type.Integer(),
    head: Nullable(Type.Object({ seq: Type.Integer(), record_hash: Type.String() })),
    first_invalid: Nullable(
      Type.Object({
        seq: Type.Integer(),
        station_track_id: Type.String(),
        reason: StringEnum(['record_hash_mismatch', 'prev_hash_mismatch']),
        detail: Type.String(),
      }),
    ),
  },
  { title: 'RegistryChainVerification' },
);
