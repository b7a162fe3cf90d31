/**
 * The one interface the station uses to reach the AI engine. Two implementations speak it: LocalEngine
 * (in-process, worker threads) and RemoteEngine (an ML service over HTTP, see src/engine/remote/). Models
 * and the safety reference travel as ArtifactRefs (version + content hash + where to fetch the JSON),
 * so a remote service needs no access to the station's database.
 */
import type { AudioFeatures, AudioQuality, LyricsDocument, Mode, MusicContext, ProgressFn, TrackLyrics } from './types.js';

export type { TrackLyrics } from './types.js';

export interface ArtifactRef {
  /** Model version name, or the reference's content hash. */
  version: string;
  /** Hex SHA-256 of the artifact bytes; a fetched artifact that does not match is refused. */
  sha256: string;
  /** Blob key in the station's storage; the remote client turns it into a signed URL. */
  blobKey: string;
}

export interface TrackJob {
  context: MusicContext;
  seed: number;
  maxDurationSec: number;
  quality: AudioQuality;
  audioModel: ArtifactRef;
  stationName: string;
  /** Written into the MP3's AI label (ID3) when the registry id is already assigned. */
  stationTrackId?: string;
  titleWords?: string[];
  /** Lyrics to sing (src/engine/voice): the track gets a vocal. Absent or null: instrumental. */
  lyrics?: TrackLyrics | null;
}

/** The vocal stem and what was sung, kept beside the master (tests, transparency). */
export interface TrackVocals {
  voice: string;
  /** Mono MP3 of the vocal alone, as long as the master. */
  stemMp3: Buffer;
  notes: { midi: number; startSec: number; endSec: number; syllable: number }[];
  lines: { text: string; startSec: number; endSec: number; syllables: number }[];
}

export interface TrackResult {
  /**
   * The lossless master (FLAC); every rendition and the radio's stream are encoded from it. Null only from
   * an engine that predates lossless masters (a remote ML service not yet updated): then `mp3` is the master.
   */
  master: Buffer | null;
  /** The MP3 at the requested quality, encoded once from the master. */
  mp3: Buffer;
  durationSec: number;
  bpm: number;
  key: string;
  mode: Mode;
  title: string;
  waveform: unknown;
  coverPng: Buffer;
  /** Null for an instrumental track. */
  vocals?: TrackVocals | null;
  timings: { composeMs: number; renderMs: number; encodeMs: number; vocalMs?: number };
}

export interface LyricsJob {
  lyricsModel: ArtifactRef;
  mood: string[];
  theme: string;
  language: string;
  structure: string;
  styleArtistIds: string[];
  seed: number;
  /** Lines of the caller's recent songs (the station's session) that this song must not sing again. */
  avoidLines?: string[];
}

export interface LyricsResult {
  structure: Record<string, string>;
  title: string | null;
  order: string[];
  modelVersion: string;
}

export interface SafetyVerdict {
  safety_score: number;
  explicit_detected: boolean;
  flagged_categories: string[];
  playable: boolean;
  details: unknown;
}

/** The texts and features generated content is compared with: training corpus, catalog lyrics, catalog audio. */
export interface SafetyReference {
  lyrics: LyricsDocument[];
  audio: { id: string; features: AudioFeatures }[];
}

export type TrainableModel = 'audio' | 'lyrics' | 'style_embedding';

export interface TrainingHyperparams {
  epochs: number;
  learningRate: number;
  batchSize: number;
  warmupSteps: number;
  /** Lyrics model only: dropout of the neural LM (default 0.5). */
  dropout?: number;
}

export interface TrainingEpoch {
  epoch: number;
  loss: number;
  heldOutLoss: number | null;
  perplexity: number | null;
}

export interface TrainingSpec {
  modelType: TrainableModel;
  /** The dataset: snapshot items resolved to training inputs (features or lyrics). */
  dataset: ArtifactRef;
  hyperparams: TrainingHyperparams;
  base: ArtifactRef | null;
  /** Resume state from the last checkpoint, as produced by onCheckpoint. */
  resumeFrom: unknown | null;
  seed: number;
}

export interface TrainingHooks {
  onEpoch?(epoch: TrainingEpoch): void | Promise<void>;
  onCheckpoint?(checkpoint: unknown): void | Promise<void>;
  shouldStop?(): boolean;
}

export interface TrainingResult {
  /**
   * The trained model as a JSON value (AudioModel, LyricsModel or StyleEmbeddingModel): JSON.stringify it
   * to store it as the model's artifact. null when training stopped before finishing (pause).
   */
  artifact: unknown | null;
  metrics: Record<string, unknown>;
  stopped: boolean;
}

export interface EngineHealth {
  status: 'ok' | 'degraded' | 'down';
  detail: string;
  workers: { size: number; busy: number; queued: number };
  /** Tasks that crashed their worker or timed out in the last few minutes (LocalEngine only). */
  recentFailures?: { crashed: number; timedOut: number };
}

/** A catalog item near a piece in style-embedding space (the transparency panel's "influenced by"). */
export interface StyleInfluence {
  id: string;
  /** Cosine similarity of the two style embeddings, -1..1. */
  similarity: number;
}

export interface Engine {
  readonly kind: 'local' | 'remote';
  generateTrack(job: TrackJob, onProgress?: ProgressFn): Promise<TrackResult>;
  generateLyrics(job: LyricsJob): Promise<LyricsResult>;
  checkLyrics(reference: ArtifactRef, lyrics: string | Record<string, string>, explicitAllowed: boolean): Promise<SafetyVerdict>;
  checkAudio(reference: ArtifactRef, features: AudioFeatures): Promise<SafetyVerdict>;
  extractFeatures(audio: Buffer, format: 'mp3' | 'wav'): Promise<AudioFeatures>;
  /** The same MP3 re-encoded at another bitrate (stream renditions of catalog masters). */
  transcode(audio: Buffer, quality: AudioQuality): Promise<Buffer>;
  /** The k catalog items of reference.audio nearest to `features` in the style model's embedding space. */
  influences(styleModel: ArtifactRef, reference: ArtifactRef, features: AudioFeatures, k: number): Promise<StyleInfluence[]>;
  train(spec: TrainingSpec, hooks: TrainingHooks): Promise<TrainingResult>;
  health(): Promise<EngineHealth>;
  close(): Promise<void>;
}

/**
 * Reads artifacts named by ArtifactRefs (blob storage in-process; signed URLs in the ML service).
 * Every artifact is UTF-8 JSON:
 *   audio model      AudioModel (compose/audio-model.ts, serialiseAudioModel = JSON.stringify, format 'station-audio-model')
 *   lyrics model     LyricsModel (lyrics/model.ts, format 'station-lyrics-v1')
 *   style model      StyleEmbeddingModel (style/model.ts, format 'station.style-embedding/1')
 *   safety reference SafetyReference
 *   dataset          audio / style_embedding: { id, genre, mood[], features }[]; lyrics: LyricsDocument[]
 */
export interface ArtifactSource {
  read(ref: ArtifactRef): Promise<Buffer>;
}
