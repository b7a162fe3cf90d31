/** Module A's request and response shapes: one schema validates, types and documents each. */
import { Type } from '@sinclair/typebox';
import { StringEnum } from '../../http/schemas.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

export const GENERATION_MODES = ['catalog_only', 'ai_only', 'hybrid'] as const;
export const FALLBACK_MODES = ['catalog_only', 'hybrid'] as const;
export const STREAM_QUALITIES = ['128kbps', '192kbps', '320kbps'] as const;
/** Both ratios must add up to 1.0 within this tolerance. */
export const RATIO_SUM_TOLERANCE = 1e-9;
export const REPORT_THRESHOLD_MAX = 1000;

const configFields = {
  radio_enabled: Type.Boolean({
    description:
      'Master on/off switch. Read-only here: switch it with POST /station/v1/admin/radio/enable and /disable (which emit the ' +
      'station.radio.* events). A PATCH may repeat the current value (so a GET body can be sent back); changing it answers 400.',
  }),
  generation_mode: StringEnum(GENERATION_MODES, {
    description: 'catalog_only requires ai_generation_ratio 0; ai_only requires catalog_ratio 0; hybrid mixes both by the ratios',
  }),
  catalog_ratio: Type.Number({ minimum: 0, maximum: 1, description: 'Fraction of slots taken from the catalog, 0.0 to 1.0' }),
  ai_generation_ratio: Type.Number({
    minimum: 0,
    maximum: 1,
    description: 'Fraction of AI-generated slots; catalog_ratio + ai_generation_ratio must equal 1.0 (within 1e-9)',
  }),
  lyrics_generation: Type.Boolean({ description: 'Enables module F (lyrics) for AI tracks' }),
  explicit_allowed: Type.Boolean({ description: 'Safety gate: when false, lyrics with explicit language are withheld from playback' }),
  max_track_length_sec: Type.Integer({ minimum: 10, maximum: 900, description: 'Maximum AI track length in seconds' }),
  generation_lead_time: Type.Integer({ minimum: 10, maximum: 3600, description: 'Seconds before playback at which generation of an AI slot starts' }),
  fallback_mode: StringEnum(FALLBACK_MODES, {
    description:
      'What the scheduler does while the ML service is down. catalog_only: every slot comes from the catalog. ' +
      'hybrid: AI slots are filled with previously generated, registered AI tracks marked reuse_eligible ' +
      '(catalog tracks when there are none). ai_only is not accepted: it cannot work without the ML service.',
  }),
  stream_quality: StringEnum(STREAM_QUALITIES, { description: 'Bitrate of the radio stream' }),
  crossfade_sec: Type.Integer({
    minimum: 0,
    maximum: 10,
    description: 'Seconds of overlap between consecutive tracks on the live stream (0: no crossfade; default 3); applies from the next track change',
  }),
  report_threshold: Type.Integer({
    minimum: 1,
    maximum: REPORT_THRESHOLD_MAX,
    description:
      'Default 3. Distinct listeners whose flag_inappropriate reports withhold an AI track from playback before any admin review. ' +
      'The first report puts the track in the safety review queue (it keeps airing); repeated reports by one listener count once. ' +
      'Lowering it withholds tracks in the queue that already reach it; raising it releases nothing (an admin approves a withheld track).',
  }),
};

export const StationConfigView = Type.Object(configFields, { title: 'StationConfig' });

export const StationConfigPatchBody = Type.Partial(Type.Object(configFields), {
  additionalProperties: false,
  title: 'StationConfigPatch',
  description:
    'Any subset of the configuration. The merged result is validated as a whole; any violation (unknown field, enum value, ' +
    'range, ratio sum, mode/ratio mismatch) answers 400 STATION_INVALID_CONFIG and changes nothing. Takes effect on the next scheduler cycle.',
});

export const RadioSwitchView = Type.Object(
  {
    radio_enabled: Type.Boolean(),
    changed_at: Type.String({ format: 'date-time' }),
    changed_by: Nullable(Type.String({ description: 'user or API key id' })),
    reason: Nullable(Type.String({ description: 'the disable reason; null on enable' })),
    effective: StringEnum(['next_scheduler_cycle', 'after_current_track'], {
      description: 'enable: the scheduler starts at once (next cycle at the latest); disable: the current track completes first',
    }),
  },
  { title: 'RadioSwitch' },
);

export const DisableBody = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: 500, description: 'Why the radio goes off air (kept with the config and sent with the event)' }) },
  { additionalProperties: false, title: 'RadioDisable' },
);

export const StationStatusView = Type.Object(
  {
    radio_enabled: Type.Boolean(),
    uptime_seconds: Type.Integer({ description: 'since this station process started' }),
    listener_count: Type.Integer(),
    current_track: Nullable(
      Type.Object({
        station_track_id: Type.String(),
        track_origin: StringEnum(['catalog', 'ai_generated']),
        title: Type.String(),
        progress_pct: Type.Integer(),
      }),
    ),
    queue_depth: Type.Integer({ description: 'tracks buffered ahead' }),
    training_status: StringEnum(['idle', 'running', 'paused', 'failed']),
    model_version: Nullable(Type.String({ description: 'production audio model; null before the first deploy' })),
    lyrics_model_version: Nullable(Type.String({ description: 'production lyrics model' })),
    safety_status: StringEnum(['ok', 'flags_pending'], { description: 'flags_pending when the safety filter withheld content in the last 24 hours' }),
    safety_flags_24h: Type.Integer(),
    ml_service_health: StringEnum(['ok', 'degraded', 'down']),
    generation_queue_depth: Type.Integer({ description: 'generations pending or in progress' }),
    generation_mode: StringEnum(GENERATION_MODES),
    fallback_active: Type.Boolean({ description: 'the scheduler is using fallback_mode because generation is failing' }),
    radio_changed_at: Nullable(Type.String({ format: 'date-time' })),
    disabled_reason: Nullable(Type.String()),
  },
  { title: 'StationStatus' },
);

const AudioFeaturesBody = Type.Object(
  {
    durationSec: Type.Number({ minimum: 0 }),
    tempoBpm: Type.Number({ minimum: 0, maximum: 400 }),
    tempoConfidence: Type.Number(),
    key: Type.String({ maxLength: 3 }),
    mode: StringEnum(['major', 'minor']),
    keyConfidence: Type.Number(),
    chroma: Type.Array(Type.Number(), { minItems: 12, maxItems: 12 }),
    mfccMean: Type.Array(Type.Number(), { minItems: 13, maxItems: 13 }),
    mfccStd: Type.Array(Type.Number(), { minItems: 13, maxItems: 13 }),
    loudnessDb: Type.Number(),
    energy: Type.Number(),
    spectralCentroidHz: Type.Number(),
    onsetRate: Type.Number(),
    beatChords: Type.Array(Type.String({ maxLength: 12 }), { maxItems: 10_000 }),
  },
  { description: 'Style features as the engine extracts them (the track_features shape)' },
);

export const SafetyTestBody = Type.Object(
  {
    lyrics: Type.Optional(
      Type.Union([
        Type.String({ minLength: 1, maxLength: 20_000 }),
        Type.Record(Type.String({ maxLength: 40 }), Type.String({ maxLength: 10_000 }), { description: 'section name to text' }),
      ]),
    ),
    audio_track_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'a catalog track whose stored audio features are checked' })),
    audio_features: Type.Optional(AudioFeaturesBody),
    explicit_allowed: Type.Optional(Type.Boolean({ description: 'defaults to the configured explicit_allowed' })),
  },
  {
    additionalProperties: false,
    title: 'SafetyTest',
    description: 'At least one of lyrics, audio_track_id, audio_features (audio_track_id and audio_features are mutually exclusive)',
  },
);

const VerdictView = Type.Object({
  safety_score: Type.Number({ minimum: 0, maximum: 1 }),
  explicit_detected: Type.Boolean(),
  flagged_categories: Type.Array(Type.String()),
  playable: Type.Boolean(),
  details: Type.Unknown({ description: 'what the filter matched: explicit terms, copied lines, nearest catalog audio' }),
});

export const SafetyTestView = Type.Object(
  {
    safety_score: Type.Number({ minimum: 0, maximum: 1, description: 'the lowest score of the checks run; at least 0.80 to be playable' }),
    flagged_categories: Type.Array(Type.String({ description: 'explicit_language, copyright_similarity, audio_duplicate' })),
    explicit_detected: Type.Boolean(),
    playable: Type.Boolean(),
    explicit_allowed: Type.Boolean(),
    reference_version: Type.String({ description: 'the safety reference (catalog lyrics and audio) the content was compared with' }),
    checks: Type.Object({ lyrics: Type.Optional(VerdictView), audio: Type.Optional(VerdictView) }),
  },
  { title: 'SafetyTestResult' },
);
