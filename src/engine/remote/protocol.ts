/**
 * The ML service protocol (/ml/v1): the Engine interface as HTTP. Both sides import this file, so the
 * route paths, the wire shapes and their TypeBox schemas (which validate and document the service's
 * routes) are written once. Bodies use the engine's own vocabulary (engine.ts, camelCase), with two
 * changes: every ArtifactRef carries the `url` the service fetches it from, and bytes travel as base64.
 *
 *   GET  /ml/v1/health                    EngineHealth
 *   POST /ml/v1/tracks:generate           TrackJob            -> NDJSON: progress*, result | error
 *   POST /ml/v1/lyrics:generate           LyricsJob           -> LyricsResult
 *   POST /ml/v1/safety/lyrics             reference, lyrics   -> SafetyVerdict
 *   POST /ml/v1/safety/audio              reference, features -> SafetyVerdict
 *   POST /ml/v1/features                  audio (base64) | url -> AudioFeatures
 *   POST /ml/v1/audio:transcode?quality=  MP3 bytes (audio/mpeg) -> MP3 bytes (audio/mpeg)
 *   POST /ml/v1/influences                style model, reference, features, k -> StyleInfluence[]
 *   POST /ml/v1/train                     TrainingSpec        -> NDJSON: started, (epoch|checkpoint)*, result | error
 *   POST /ml/v1/train/{run_id}:ack        { seq, stop }       the caller handled event `seq` (204)
 *   POST /ml/v1/train/{run_id}:stop       stop at the next checkpoint (202)
 *
 * Streams are NDJSON (one JSON object per line); `heartbeat` lines keep idle connections alive and are
 * ignored. A failure before the stream starts (auth, validation) is the error envelope with an HTTP
 * status; a failure after it started is an `error` line. See src/ml-service/README.md.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { EngineErrorJson } from '../errors.js';

export const ML_PREFIX = '/ml/v1';
export const API_KEY_HEADER = 'x-api-key';
export const NDJSON = 'application/x-ndjson';
/** The service writes a heartbeat line this often while a stream is idle; a client gives up after a few missed. */
export const HEARTBEAT_MS = 15_000;

export const MlRoutes = {
  health: `${ML_PREFIX}/health`,
  generateTrack: `${ML_PREFIX}/tracks:generate`,
  generateLyrics: `${ML_PREFIX}/lyrics:generate`,
  checkLyrics: `${ML_PREFIX}/safety/lyrics`,
  checkAudio: `${ML_PREFIX}/safety/audio`,
  features: `${ML_PREFIX}/features`,
  transcode: (quality: string) => `${ML_PREFIX}/audio:transcode?quality=${encodeURIComponent(quality)}`,
  influences: `${ML_PREFIX}/influences`,
  train: `${ML_PREFIX}/train`,
  trainAck: (runId: string) => `${ML_PREFIX}/train/${encodeURIComponent(runId)}:ack`,
  trainStop: (runId: string) => `${ML_PREFIX}/train/${encodeURIComponent(runId)}:stop`,
} as const;

// ---- building blocks ----

const Base64 = Type.String({ contentEncoding: 'base64', description: 'bytes, base64' });

export const WireArtifactRef = Type.Object(
  {
    version: Type.String({ description: 'model version name, or the reference content hash' }),
    sha256: Type.String({ pattern: '^[0-9a-fA-F]{64}$', description: 'hex SHA-256 of the artifact bytes; other bytes are refused' }),
    blobKey: Type.String({ description: "the artifact's key in the station's storage (for logs and errors)" }),
    url: Type.String({ pattern: '^https?://', description: 'signed http(s) link the service fetches the artifact from (cached by sha256)' }),
  },
  { $id: 'ArtifactRef', title: 'ArtifactRef' },
);
export type WireArtifactRef = Static<typeof WireArtifactRef>;

const MusicContext = Type.Object({
  genre: Type.String(),
  subgenre: Type.String(),
  mood: Type.Array(Type.String()),
  lifestyle: Type.Union([Type.Literal('focus'), Type.Literal('party'), Type.Literal('chill'), Type.Literal('workout'), Type.Literal('sleep')]),
  tempo_range: Type.Tuple([Type.Number(), Type.Number()]),
  key_preference: Type.Union([Type.Literal('major'), Type.Literal('minor'), Type.Literal('any')]),
  energy_level: Type.Number({ minimum: 0, maximum: 1 }),
});

const Mode = Type.Union([Type.Literal('major'), Type.Literal('minor')]);

export const AudioFeaturesSchema = Type.Object(
  {
    durationSec: Type.Number(),
    tempoBpm: Type.Number(),
    tempoConfidence: Type.Number(),
    key: Type.String(),
    mode: Mode,
    keyConfidence: Type.Number(),
    chroma: Type.Array(Type.Number()),
    mfccMean: Type.Array(Type.Number()),
    mfccStd: Type.Array(Type.Number()),
    loudnessDb: Type.Number(),
    energy: Type.Number(),
    spectralCentroidHz: Type.Number(),
    onsetRate: Type.Number(),
    beatChords: Type.Array(Type.String()),
    fingerprint: Type.Optional(Type.Array(Type.Integer({ minimum: 0, maximum: 4095 }))),
  },
  { $id: 'AudioFeatures', title: 'AudioFeatures' },
);

export const EngineErrorJsonSchema = Type.Object(
  {
    code: Type.String({ description: 'EngineErrorCode: UNSUPPORTED_LANGUAGE, ARTIFACT_INVALID, TIMEOUT, ...' }),
    message: Type.String(),
    stage: Type.Optional(Type.String()),
    cause: Type.Optional(Type.String()),
    details: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { $id: 'EngineError', title: 'EngineError' },
);

// ---- routes ----

export const TrackJobBody = Type.Object(
  {
    context: MusicContext,
    seed: Type.Integer(),
    maxDurationSec: Type.Number({ exclusiveMinimum: 0 }),
    quality: Type.Union([Type.Literal('128kbps'), Type.Literal('192kbps'), Type.Literal('320kbps')]),
    audioModel: Type.Ref(WireArtifactRef),
    stationName: Type.String(),
    stationTrackId: Type.Optional(Type.String()),
    titleWords: Type.Optional(Type.Array(Type.String())),
    lyrics: Type.Optional(
      Type.Union([
        Type.Null(),
        Type.Object(
          { language: Type.String(), sections: Type.Record(Type.String(), Type.String()), order: Type.Array(Type.String()) },
          { description: 'Lyrics to sing; absent or null: instrumental' },
        ),
      ]),
    ),
  },
  { title: 'TrackJob' },
);

const WireTrackVocals = Type.Object(
  {
    voice: Type.String(),
    stemMp3: Base64,
    notes: Type.Array(Type.Object({ midi: Type.Number(), startSec: Type.Number(), endSec: Type.Number(), syllable: Type.Integer() })),
    lines: Type.Array(Type.Object({ text: Type.String(), startSec: Type.Number(), endSec: Type.Number(), syllables: Type.Integer() })),
  },
  { description: 'The vocal stem (mono MP3) and the sung melody; null for an instrumental track' },
);

export const WireTrackResult = Type.Object(
  {
    mp3: Base64,
    master: Type.Optional(Base64),
    coverPng: Base64,
    durationSec: Type.Number(),
    bpm: Type.Number(),
    key: Type.String(),
    mode: Mode,
    title: Type.String(),
    waveform: Type.Unknown(),
    vocals: Type.Optional(Type.Union([Type.Null(), WireTrackVocals])),
    timings: Type.Object({ composeMs: Type.Number(), renderMs: Type.Number(), encodeMs: Type.Number(), vocalMs: Type.Optional(Type.Number()) }),
  },
  { title: 'TrackResult' },
);
export type WireTrackResult = Static<typeof WireTrackResult>;

export const LyricsJobBody = Type.Object(
  {
    lyricsModel: Type.Ref(WireArtifactRef),
    mood: Type.Array(Type.String()),
    theme: Type.String(),
    language: Type.String(),
    structure: Type.String(),
    styleArtistIds: Type.Array(Type.String()),
    seed: Type.Integer(),
    avoidLines: Type.Optional(Type.Array(Type.String({ maxLength: 500 }), { maxItems: 2000 })),
  },
  { title: 'LyricsJob' },
);

export const LyricsResultSchema = Type.Object(
  {
    structure: Type.Record(Type.String(), Type.String()),
    title: Type.Union([Type.String(), Type.Null()]),
    order: Type.Array(Type.String()),
    modelVersion: Type.String(),
  },
  { title: 'LyricsResult' },
);

export const SafetyVerdictSchema = Type.Object(
  {
    safety_score: Type.Number(),
    explicit_detected: Type.Boolean(),
    flagged_categories: Type.Array(Type.String()),
    playable: Type.Boolean(),
    details: Type.Unknown(),
  },
  { title: 'SafetyVerdict' },
);

export const CheckLyricsBody = Type.Object({
  reference: Type.Ref(WireArtifactRef),
  lyrics: Type.Union([Type.String(), Type.Record(Type.String(), Type.String())]),
  explicitAllowed: Type.Boolean(),
});

export const CheckAudioBody = Type.Object({
  reference: Type.Ref(WireArtifactRef),
  features: Type.Ref(AudioFeaturesSchema),
});

export const FeaturesBody = Type.Object(
  {
    format: Type.Union([Type.Literal('mp3'), Type.Literal('wav')]),
    audio: Type.Optional(Base64),
    url: Type.Optional(Type.String({ pattern: '^https?://', description: 'fetch the audio from here instead (send audio or url)' })),
  },
  { description: 'Exactly one of audio and url.' },
);

export const MP3 = 'audio/mpeg';

export const TranscodeQuery = Type.Object({
  quality: Type.Union([Type.Literal('128kbps'), Type.Literal('192kbps'), Type.Literal('320kbps')]),
});

export const InfluencesBody = Type.Object({
  styleModel: Type.Ref(WireArtifactRef),
  reference: Type.Ref(WireArtifactRef),
  features: Type.Ref(AudioFeaturesSchema),
  k: Type.Integer({ minimum: 1, maximum: 100 }),
});

export const StyleInfluenceSchema = Type.Object({ id: Type.String(), similarity: Type.Number() }, { title: 'StyleInfluence' });

export const TrainingSpecBody = Type.Object(
  {
    modelType: Type.Union([Type.Literal('audio'), Type.Literal('lyrics'), Type.Literal('style_embedding')]),
    dataset: Type.Ref(WireArtifactRef),
    hyperparams: Type.Object({
      epochs: Type.Integer(),
      learningRate: Type.Number(),
      batchSize: Type.Integer(),
      warmupSteps: Type.Integer(),
      dropout: Type.Optional(Type.Number({ description: 'lyrics model only: dropout of the neural LM' })),
    }),
    base: Type.Union([Type.Ref(WireArtifactRef), Type.Null()]),
    resumeFrom: Type.Unknown({ description: 'a checkpoint from an earlier run of the same spec, or null' }),
    seed: Type.Integer(),
  },
  { title: 'TrainingSpec' },
);

export const TrainingEpochSchema = Type.Object({
  epoch: Type.Integer(),
  loss: Type.Number(),
  heldOutLoss: Type.Union([Type.Number(), Type.Null()]),
  perplexity: Type.Union([Type.Number(), Type.Null()]),
});

export const TrainingResultSchema = Type.Object(
  {
    artifact: Type.Unknown({ description: 'the trained model (JSON), or null when the run stopped early' }),
    metrics: Type.Record(Type.String(), Type.Unknown()),
    stopped: Type.Boolean(),
  },
  { title: 'TrainingResult' },
);

export const TrainAckBody = Type.Object({
  seq: Type.Integer({ minimum: 1, description: 'the `seq` of the epoch or checkpoint line that was handled' }),
  stop: Type.Optional(Type.Boolean({ description: 'stop the run at this checkpoint' })),
});

export const RunIdParams = Type.Object({ run_id: Type.String() });

export const EngineHealthSchema = Type.Object(
  {
    status: Type.Union([Type.Literal('ok'), Type.Literal('degraded'), Type.Literal('down')]),
    detail: Type.String(),
    workers: Type.Object({ size: Type.Integer(), busy: Type.Integer(), queued: Type.Integer() }),
    recentFailures: Type.Optional(Type.Object({ crashed: Type.Integer(), timedOut: Type.Integer() })),
  },
  { title: 'EngineHealth' },
);

// ---- NDJSON stream lines ----

export type GenerateLine =
  | { type: 'progress'; pct: number; eta: number }
  | { type: 'result'; result: WireTrackResult }
  | { type: 'error'; error: EngineErrorJson }
  | { type: 'heartbeat' };

export type TrainLine =
  | { type: 'started'; run_id: string }
  | { type: 'epoch'; seq: number; epoch: Static<typeof TrainingEpochSchema> }
  | { type: 'checkpoint'; seq: number; checkpoint: unknown }
  | { type: 'result'; result: Static<typeof TrainingResultSchema> }
  | { type: 'error'; error: EngineErrorJson }
  | { type: 'heartbeat' };

const line = (type: string, fields: Record<string, TSchema>) => Type.Object({ type: Type.Literal(type), ...fields });
const errorLine = line('error', { error: Type.Ref(EngineErrorJsonSchema) });
const heartbeatLine = line('heartbeat', {});

/** Documents one line of the generate stream (the response is `application/x-ndjson`). */
export const GenerateLineSchema = Type.Union(
  [line('progress', { pct: Type.Number(), eta: Type.Number() }), line('result', { result: WireTrackResult }), errorLine, heartbeatLine],
  { title: 'GenerateStreamLine' },
);

/** Documents one line of the training stream; every epoch and checkpoint must be acknowledged. */
export const TrainLineSchema = Type.Union(
  [
    line('started', { run_id: Type.String() }),
    line('epoch', { seq: Type.Integer(), epoch: TrainingEpochSchema }),
    line('checkpoint', { seq: Type.Integer(), checkpoint: Type.Unknown() }),
    line('result', { result: TrainingResultSchema }),
    errorLine,
    heartbeatLine,
  ],
  { title: 'TrainStreamLine' },
);

/** The error envelope, as the station's, plus the EngineError the client rebuilds. */
export const MlErrorEnvelope = Type.Object(
  {
    error: Type.Object({
      code: Type.String({ examples: ['ML_UNSUPPORTED_LANGUAGE'] }),
      http_status: Type.Integer(),
      message: Type.String(),
      detail: Type.String(),
      retry_after: Type.Union([Type.Integer(), Type.Null()]),
      request_id: Type.String(),
      engine: Type.Optional(Type.Ref(EngineErrorJsonSchema)),
    }),
  },
  { $id: 'MlErrorEnvelope', title: 'Error envelope' },
);
export type MlErrorEnvelope = Static<typeof MlErrorEnvelope>;

/** Schemas registered once with app.addSchema (referenced with Type.Ref above). */
export const SHARED_SCHEMAS = [WireArtifactRef, AudioFeaturesSchema, EngineErrorJsonSchema, MlErrorEnvelope];
