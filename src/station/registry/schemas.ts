/** Module G's request and response shapes (TypeBox: one schema validates, types and documents). */
import { Type, type Static } from '@sinclair/typebox';
import { IdParams, PageQuery, StringEnum } from '../../http/schemas.js';
import { WITHHELD_REASONS } from './safety-review.repository.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

export const DatasetHash = Type.String({ pattern: '^sha256:[0-9a-f]{64}$', description: 'sha256:<hex>' });

/** ISO 8601 date (a whole UTC day) or date-time (UTC when no offset is given). */
export const IsoDateOrDateTime = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:?\\d{2})?)?$',
  description: 'ISO 8601 date (whole UTC day) or date-time',
  examples: ['2026-03-01', '2026-03-01T12:00:00Z'],
});

export const StationTrackIdParams = IdParams('station_track_id');

export const InfluencedBy = Type.Array(Type.Object({ track_id: Type.String(), title: Type.String(), artist: Type.String(), similarity: Type.Number() }), {
  description: 'platform catalog tracks whose style most influenced the track',
});

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
    flag_for_review: Type.Boolean({ description: 'in the safety review queue (an admin flag, or a listener report); it still plays unless withheld' }),
    withheld: Type.Boolean({ description: 'withheld from playback (see withheld_reason)' }),
    withheld_reason: Nullable(
      StringEnum(WITHHELD_REASONS, {
        description:
          'safety_filter: the safety filter blocked it when generated (final); admin_flag: an admin set flag_for_review; ' +
          'listener_reports: report_threshold distinct listeners reported it. An admin setting flag_for_review false approves it (except safety_filter).',
      }),
    ),
    listener_reports: Type.Integer({ description: 'distinct listeners who reported it (flag_inappropriate) since it was last approved' }),
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
    generation_id: Type.String({ minLength: 1, maxLength: 200, description: 'an existing generation whose audio exists' }),
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
    description: 'Fields left out are taken from the generation (and its model and lyric). Fields given must agree with the generation.',
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

export const SafetyReviewView = Type.Object(
  {
    in_review: Type.Boolean({ description: 'equals flag_for_review' }),
    withheld: Type.Boolean(),
    withheld_reason: Nullable(StringEnum(WITHHELD_REASONS)),
    withheld_at: Nullable(Type.String({ format: 'date-time', description: 'when an admin flag or the reports withheld it (null for the safety filter)' })),
    round: Type.Integer({ description: 'review round: each approval closes one; listener reports count within the open one' }),
    listener_reports: Type.Integer({ description: 'distinct listeners who reported it in this round' }),
    report_threshold: Type.Integer({ description: 'the configured threshold (station config report_threshold)' }),
    reports: Type.Array(
      Type.Object({
        reporter: Type.String({ description: 'user:<id> or api_key:<id>' }),
        user_id: Nullable(Type.String()),
        feedback_id: Nullable(Type.String()),
        reported_at: Type.String({ format: 'date-time' }),
      }),
      { description: 'the reports of this round, newest first (at most 100)' },
    ),
    last_approved_at: Nullable(Type.String({ format: 'date-time' })),
    last_approved_by: Nullable(Type.String({ description: 'user or API key id' })),
  },
  { title: 'SafetyReview' },
);

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
      review: SafetyReviewView,
    }),
  ],
  { title: 'RegistryRecordDetail' },
);

export const RegistryPatchBody = Type.Object(
  {
    reuse_eligible: Type.Optional(Type.Boolean()),
    flag_for_review: Type.Optional(
      Type.Boolean({
        description:
          'true withholds the track from playback at once and puts it in the safety review queue; false approves it: it leaves the queue, ' +
          'plays again (unless the safety filter blocked it) and listener reports count afresh',
      }),
    ),
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
    seq: Nullable(Type.Integer({ description: 'seq of the last record; null while the registry is empty' })),
    record_hash: Type.String({ description: 'record_hash of the last record; the genesis hash while the registry is empty' }),
    count: Type.Integer(),
    computed_at: Type.String({ format: 'date-time', description: 'when this head was read' }),
  },
  {
    title: 'RegistryChainHead',
    description:
      'An anchor to keep: every later head must extend it. GET /station/v1/registry/chain/verify?anchor_seq=&anchor_hash= checks that ' +
      'the record at that seq still has that hash; an audit export lets anyone recompute the chain up to it.',
  },
);

export const ChainVerifyQuery = Type.Object(
  {
    anchor_seq: Type.Optional(Type.Integer({ minimum: 1, description: 'seq of a chain head published earlier (with anchor_hash)' })),
    anchor_hash: Type.Optional(Type.String({ pattern: '^sha256:[0-9a-f]{64}$', description: 'record_hash of that head' })),
  },
  { additionalProperties: false, description: 'anchor_seq and anchor_hash go together' },
);
export type ChainVerifyQuery = Static<typeof ChainVerifyQuery>;

export const ChainVerification = Type.Object(
  {
    valid: Type.Boolean(),
    checked: Type.Integer(),
    head: Nullable(Type.Object({ seq: Type.Integer(), record_hash: Type.String() })),
    anchor: Nullable(
      Type.Object(
        { seq: Type.Integer(), record_hash: Type.String(), matches: Type.Boolean() },
        { description: 'the anchor given, and whether the chain still passes through it' },
      ),
    ),
    first_invalid: Nullable(
      Type.Object({
        seq: Type.Integer(),
        station_track_id: Nullable(Type.String({ description: 'null when no record has that seq (anchor_mismatch)' })),
        reason: StringEnum(['record_hash_mismatch', 'prev_hash_mismatch', 'anchor_mismatch']),
        detail: Type.String(),
      }),
    ),
  },
  { title: 'RegistryChainVerification' },
);
