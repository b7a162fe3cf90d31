/** Module B's request and response shapes: one schema validates, types and documents each. */
import { Type, type Static } from '@sinclair/typebox';
import { IdParams, PageQuery, StringEnum } from '../../http/schemas.js';

/** The only training sources there are; they are constants, not settings. */
export const AUDIO_SOURCE = 'platform_owned_masters_only' as const;
export const LYRICS_SOURCE = 'platform_songwriters_only' as const;
export const ARTIST_FILTER_MODES = ['whitelist', 'blacklist', 'all'] as const;
export const ARTIST_STATUSES = ['included', 'excluded'] as const;
export type ArtistFilterMode = (typeof ARTIST_FILTER_MODES)[number];
export type ArtistStatus = (typeof ARTIST_STATUSES)[number];

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);
const Year = Type.Integer({ minimum: 1900, maximum: 2100 });
const ArtistIdList = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 1000, description: 'artist ids (uuid)' });

export const DatasetConfigView = Type.Object(
  {
    training_sources: Type.Object({
      audio: Type.Literal(AUDIO_SOURCE, { description: 'Fixed: only masters of platform-owned artists. Read-only.' }),
      lyrics: Type.Literal(LYRICS_SOURCE, { description: "Fixed: only lyrics by the platform's own songwriters. Read-only." }),
      sonic_capsules: Type.Boolean({ description: 'Include sonic capsule metadata' }),
    }),
    artist_filter: Type.Object({
      mode: StringEnum(ARTIST_FILTER_MODES, {
        description: 'whitelist: only the listed artists; blacklist: every platform-owned artist except the listed ones; all: every platform-owned artist',
      }),
      artist_ids: Type.Array(Type.String(), { description: 'Sorted, without duplicates' }),
    }),
    era_filter: Type.Object({
      include_years: Type.Array(Type.Integer(), { description: 'Release years included, sorted; empty means every year' }),
    }),
    quality_gate: Type.Object({
      min_audio_bitrate: Type.Integer({ description: 'Minimum master bitrate in kbps (0: no minimum)' }),
      require_isrc: Type.Boolean({ description: 'Only tracks that carry an ISRC code' }),
      require_credits: Type.Boolean({ description: 'Only tracks with at least one songwriter credit' }),
    }),
    updated_at: Type.String({ format: 'date-time' }),
    updated_by: Nullable(Type.String()),
    applies_to: Type.Literal('next_training_run', { description: 'Changes never retrain a model; the next training run (snapshot) uses them' }),
  },
  { title: 'DatasetConfig' },
);
export type DatasetConfigView = Static<typeof DatasetConfigView>;

export const DatasetConfigPatchBody = Type.Object(
  {
    training_sources: Type.Optional(
      Type.Object(
        {
          audio: Type.Optional(
            Type.String({ description: `Read-only: only "${AUDIO_SOURCE}" is accepted; anything else answers 400 STATION_DATASET_VIOLATION` }),
          ),
          lyrics: Type.Optional(
            Type.String({ description: `Read-only: only "${LYRICS_SOURCE}" is accepted; anything else answers 400 STATION_DATASET_VIOLATION` }),
          ),
          sonic_capsules: Type.Optional(Type.Boolean()),
        },
        { additionalProperties: false },
      ),
    ),
    artist_filter: Type.Optional(
      Type.Object({ mode: Type.Optional(StringEnum(ARTIST_FILTER_MODES)), artist_ids: Type.Optional(ArtistIdList) }, { additionalProperties: false }),
    ),
    era_filter: Type.Optional(Type.Object({ include_years: Type.Optional(Type.Array(Year, { maxItems: 201 })) }, { additionalProperties: false })),
    quality_gate: Type.Optional(
      Type.Object(
        {
          min_audio_bitrate: Type.Optional(Type.Integer({ minimum: 0, maximum: 5000 })),
          require_isrc: Type.Optional(Type.Boolean()),
          require_credits: Type.Optional(Type.Boolean()),
        },
        { additionalProperties: false },
      ),
    ),
  },
  {
    additionalProperties: false,
    title: 'DatasetConfigPatch',
    description:
      'Any subset of the configuration (nested objects are merged field by field). Setting training_sources.audio or .lyrics to anything ' +
      'but their constant, or whitelisting an artist that is not platform-owned (or unknown), answers 400 STATION_DATASET_VIOLATION and ' +
      'changes nothing. Applies to the next training run only; nothing retrains automatically.',
  },
);
export type DatasetConfigPatch = Static<typeof DatasetConfigPatchBody>;

export const EXCLUSION_REASONS = [
  'not_platform_owned',
  'artist_excluded',
  'track_removed',
  'no_master',
  'no_features',
  'era',
  'bitrate',
  'isrc',
  'credits',
  'songwriter_not_platform',
] as const;
export type ExclusionReason = (typeof EXCLUSION_REASONS)[number];

const reasonCounts = (description: string) =>
  Type.Object(Object.fromEntries(EXCLUSION_REASONS.map((r) => [r, Type.Integer()])) as Record<ExclusionReason, ReturnType<typeof Type.Integer>>, {
    description,
  });

export const DatasetStatsView = Type.Object(
  {
    total_masters_eligible: Type.Integer(),
    total_lyric_files: Type.Integer({ description: 'Eligible lyrics' }),
    total_hours_audio: Type.Number({ description: 'Hours of eligible masters, 3 decimals' }),
    era_breakdown: Type.Record(Type.String(), Type.Integer(), { description: 'release year -> eligible masters ("unknown" for no year)' }),
    total_tracks: Type.Integer(),
    total_lyrics: Type.Integer(),
    excluded_masters: reasonCounts('Catalog tracks left out, each counted once under its first reason, in this order: ' + EXCLUSION_REASONS.join(', ')),
    excluded_lyrics: reasonCounts('Catalog lyrics left out, each counted once under its first reason'),
  },
  { title: 'DatasetStats' },
);

const StatusChange = Type.Object({
  old_status: StringEnum(ARTIST_STATUSES),
  new_status: StringEnum(ARTIST_STATUSES),
  reason: Type.String(),
  changed_by: Nullable(Type.String()),
  changed_at: Type.String({ format: 'date-time' }),
});

export const DatasetArtistView = Type.Object(
  {
    artist_id: Type.String(),
    slug: Type.String(),
    name: Type.String(),
    platform_owned: Type.Boolean(),
    status: StringEnum(ARTIST_STATUSES),
    status_reason: Type.String({ description: 'Why the artist has this status: "not platform-owned", the artist filter, or the reason of the last change' }),
    status_source: StringEnum(['platform_ownership', 'artist_status', 'artist_filter', 'default'] as const, {
      description: 'What decided the status: ownership always wins, then an explicit per-artist status, then the artist filter',
    }),
    tracks: Type.Integer({ description: 'Catalog tracks of the artist' }),
    lyrics: Type.Integer({ description: 'Catalog lyrics of the artist' }),
    eligible_masters: Type.Integer(),
    eligible_lyrics: Type.Integer(),
    last_change: Nullable(StatusChange),
  },
  { title: 'DatasetArtist' },
);
export type DatasetArtistView = Static<typeof DatasetArtistView>;

export const DatasetArtistQuery = Type.Intersect([PageQuery, Type.Object({ status: Type.Optional(StringEnum(ARTIST_STATUSES)) })]);
export const ArtistIdParams = IdParams('artist_id');
export const ArtistStatusBody = Type.Object(
  { status: StringEnum(ARTIST_STATUSES), reason: Type.String({ minLength: 1, maxLength: 500 }) },
  { additionalProperties: false, title: 'DatasetArtistStatusChange' },
);

export const SnapshotBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 120 }), description: Type.Optional(Type.String({ maxLength: 1000, default: '' })) },
  { additionalProperties: false, title: 'DatasetSnapshotRequest' },
);

export const TrainingRunView = Type.Object({ job_id: Type.String(), model_type: Type.String(), status: Type.String() });
export type TrainingRunView = Static<typeof TrainingRunView>;

export const SnapshotView = Type.Object(
  {
    snapshot_id: Type.String(),
    name: Type.String(),
    description: Type.String(),
    dataset_hash: Type.String({ pattern: '^sha256:[0-9a-f]{64}$', description: 'sha256 over the canonical JSON of the configuration and every item' }),
    created_at: Type.String({ format: 'date-time' }),
    created_by: Nullable(Type.String()),
    config: Type.Record(Type.String(), Type.Unknown(), { description: 'The dataset configuration frozen with the snapshot' }),
    item_counts: Type.Object({ audio: Type.Integer(), lyrics: Type.Integer() }),
    training_runs: Type.Array(TrainingRunView, { description: 'Training jobs that used this snapshot' }),
  },
  { title: 'DatasetSnapshot' },
);
export type SnapshotView = Static<typeof SnapshotView>;

export const SnapshotDetailView = Type.Intersect(
  [SnapshotView, Type.Object({ audio_track_ids: Type.Array(Type.String()), lyric_ids: Type.Array(Type.String()) })],
  { title: 'DatasetSnapshotDetail' },
);

export const ValidateBody = Type.Object(
  {
    snapshot_id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: 'Validate the items frozen in this snapshot instead of the current eligible set' }),
    ),
  },
  { additionalProperties: false, title: 'DatasetValidateRequest' },
);

export const PROBLEMS = [
  'master_missing',
  'master_undecodable',
  'features_missing',
  'track_missing',
  'lyric_missing',
  'lyric_without_platform_credit',
  'lyric_credit_not_on_track',
  'non_platform_artist',
  'near_duplicate_of_non_platform_audio',
] as const;
export type ProblemKind = (typeof PROBLEMS)[number];

export const ValidationProblem = Type.Object({
  item_type: StringEnum(['track', 'lyric', 'artist'] as const),
  item_id: Type.String(),
  title: Type.Optional(Type.String()),
  problem: StringEnum(PROBLEMS),
  detail: Type.String(),
});
export type ValidationProblem = Static<typeof ValidationProblem>;

export const ValidationReport = Type.Object(
  {
    valid: Type.Boolean(),
    scope: Type.Object({ kind: StringEnum(['current', 'snapshot'] as const), snapshot_id: Nullable(Type.String()) }),
    checked: Type.Object({ masters: Type.Integer(), lyrics: Type.Integer(), non_platform_references: Type.Integer() }),
    problems: Type.Array(ValidationProblem),
    validated_at: Type.String({ format: 'date-time' }),
  },
  { title: 'DatasetValidationReport' },
);
export type ValidationReport = Static<typeof ValidationReport>;
