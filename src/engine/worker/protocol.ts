/**
 * The messages between EngineWorkerPool (main thread) and engine-worker.ts (worker thread).
 *
 *   main -> worker   task            run a named task (one at a time per worker)
 *                    artifact        bytes the worker asked for (or why they could not be read)
 *                    ack             an event was handled by the caller's hook (the worker may go on)
 *                    stop            the caller's shouldStop() turned true (also set in the shared flag)
 *   worker -> main   progress        pct / eta of the running task
 *                    need-artifact   the worker has no parsed copy of this artifact cached
 *                    event           a training epoch or checkpoint; the worker waits for its ack
 *                    done / failed   the task's result, or an EngineErrorJson
 */
import type { AudioFeatures, AudioQuality } from '../types.js';
import type { RenditionBitrate } from '../audio/renditions.js';
import type { PcmFormat } from '../audio/pcm.js';
import type { EngineErrorJson } from '../errors.js';
import type {
  ArtifactRef,
  LyricsJob,
  LyricsResult,
  SafetyVerdict,
  StyleInfluence,
  TrackJob,
  TrackResult,
  TrainingEpoch,
  TrainingResult,
  TrainingSpec,
} from '../engine.js';

export interface EngineTasks {
  generateTrack: { input: TrackJob; output: TrackResult };
  generateLyrics: { input: LyricsJob; output: LyricsResult };
  checkLyrics: { input: { reference: ArtifactRef; lyrics: string | Record<string, string>; explicitAllowed: boolean }; output: SafetyVerdict };
  checkAudio: { input: { reference: ArtifactRef; features: AudioFeatures }; output: SafetyVerdict };
  extractFeatures: { input: { audio: Uint8Array; format: 'mp3' | 'wav' }; output: AudioFeatures };
  transcode: { input: { audio: Uint8Array; quality: AudioQuality }; output: Uint8Array };
  nearest: { input: { styleModel: ArtifactRef; reference: ArtifactRef; features: AudioFeatures; k: number }; output: StyleInfluence[] };
  train: { input: TrainingSpec; output: TrainingResult };
  /** An upload's MP3 renditions; the bytes arrive as `renditions` events, in order (streamed to storage). */
  renderRenditions: {
    input: { master: Uint8Array; format: PcmFormat; bitrates: RenditionBitrate[]; sliceFrames?: number; losslessMaster?: boolean };
    /** `losslessMaster`: the WAV or AIFF master as FLAC, when asked (renditions.ts). */
    output: { frames: number; threadId: number; losslessMaster?: Uint8Array };
  };
}

export type TaskName = keyof EngineTasks;
export type TaskInput<N extends TaskName> = EngineTasks[N]['input'];
export type TaskOutput<N extends TaskName> = EngineTasks[N]['output'];

export const TASK_NAMES: readonly TaskName[] = [
  'generateTrack',
  'generateLyrics',
  'checkLyrics',
  'checkAudio',
  'extractFeatures',
  'transcode',
  'nearest',
  'train',
  'renderRenditions',
];

/** What a task reports while it runs, besides progress: training epochs and checkpoints, rendition bytes, in order. */
export type TaskEvent =
  | { kind: 'epoch'; epoch: TrainingEpoch }
  | { kind: 'checkpoint'; checkpoint: unknown }
  | { kind: 'renditions'; chunks: { bitrateKbps: RenditionBitrate; bytes: Uint8Array }[] };

export type ToWorker =
  | {
      type: 'task';
      id: number;
      name: TaskName;
      input: unknown;
      /** Int32Array view [0] = 1 once stop was requested; readable without yielding to the event loop. */
      stopFlag: SharedArrayBuffer;
      injectFault?: 'crash';
    }
  | { type: 'artifact'; id: number; request: number; bytes: Uint8Array }
  | { type: 'artifact-failed'; id: number; request: number; error: EngineErrorJson }
  | { type: 'ack'; id: number; seq: number; ok: boolean }
  | { type: 'stop'; id: number };

export type FromWorker =
  | { type: 'progress'; id: number; pct: number; eta: number }
  | { type: 'need-artifact'; id: number; request: number; ref: ArtifactRef }
  | { type: 'event'; id: number; seq: number; event: TaskEvent }
  | { type: 'done'; id: number; result: unknown }
  | { type: 'failed'; id: number; error: EngineErrorJson };
