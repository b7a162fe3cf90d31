/**
 * The in-process engine: every Engine call becomes a named task on an EngineWorkerPool, so generation,
 * safety checks, feature extraction and training run on worker threads and the API's event loop only
 * passes messages. Artifacts are read through the ArtifactSource when a worker has no parsed copy cached,
 * and refused when their bytes do not match the ref's sha256 (EngineError ARTIFACT_INVALID).
 *
 * Errors: every failure is an EngineError (errors.ts), whatever thread it happened on; an error thrown by
 * a training hook (onEpoch/onCheckpoint) is passed through as thrown.
 */
import type {
  ArtifactRef,
  ArtifactSource,
  Engine,
  EngineHealth,
  LyricsJob,
  LyricsResult,
  SafetyVerdict,
  StyleInfluence,
  TrackJob,
  TrackResult,
  TrainingHooks,
  TrainingResult,
  TrainingSpec,
} from './engine.js';
import type { AudioFeatures, AudioQuality, ProgressFn } from './types.js';
import { EngineWorkerPool, type PoolStats } from './worker/engine-worker-pool.js';

export interface LocalEngineOptions {
  artifacts: ArtifactSource;
  /** Worker threads (default: cores - 1, at least 1). */
  poolSize?: number;
  /** Limit for every task but training (default 5 minutes); training runs without a limit. */
  taskTimeoutMs?: number;
  /** Nice value of the worker threads (default ENGINE_THREAD_NICENESS). */
  niceness?: number;
}

/** More queued tasks than this many per worker and the engine reports itself degraded. */
const QUEUE_DEGRADED_PER_WORKER = 4;

export class LocalEngine implements Engine {
  readonly kind = 'local' as const;
  private readonly pool: EngineWorkerPool;

  constructor(options: LocalEngineOptions) {
    this.pool = new EngineWorkerPool({
      artifacts: options.artifacts,
      size: options.poolSize,
      taskTimeoutMs: options.taskTimeoutMs,
      niceness: options.niceness,
    });
  }

  async generateTrack(job: TrackJob, onProgress?: ProgressFn): Promise<TrackResult> {
    const result = await this.pool.run('generateTrack', job, { onProgress });
    // Structured clone turns Buffers into Uint8Arrays; give callers Buffers back.
    const vocals = result.vocals ? { ...result.vocals, stemMp3: toBuffer(result.vocals.stemMp3) } : null;
    return { ...result, master: result.master && toBuffer(result.master), mp3: toBuffer(result.mp3), coverPng: toBuffer(result.coverPng), vocals };
  }

  generateLyrics(job: LyricsJob): Promise<LyricsResult> {
    return this.pool.run('generateLyrics', job);
  }

  checkLyrics(reference: ArtifactRef, lyrics: string | Record<string, string>, explicitAllowed: boolean): Promise<SafetyVerdict> {
    return this.pool.run('checkLyrics', { reference, lyrics, explicitAllowed });
  }

  checkAudio(reference: ArtifactRef, features: AudioFeatures): Promise<SafetyVerdict> {
    return this.pool.run('checkAudio', { reference, features });
  }

  extractFeatures(audio: Buffer, format: 'mp3' | 'wav'): Promise<AudioFeatures> {
    return this.pool.run('extractFeatures', { audio, format });
  }

  async transcode(audio: Buffer, quality: AudioQuality): Promise<Buffer> {
    const bytes = await this.pool.run('transcode', { audio, quality });
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  influences(styleModel: ArtifactRef, reference: ArtifactRef, features: AudioFeatures, k: number): Promise<StyleInfluence[]> {
    return this.pool.run('nearest', { styleModel, reference, features, k });
  }

  train(spec: TrainingSpec, hooks: TrainingHooks): Promise<TrainingResult> {
    return this.pool.run('train', spec, {
      timeoutMs: null,
      shouldStop: hooks.shouldStop && (() => hooks.shouldStop!()),
      async onEvent(event) {
        if (event.kind === 'epoch') await hooks.onEpoch?.(event.epoch);
        else if (event.kind === 'checkpoint') await hooks.onCheckpoint?.(event.checkpoint);
      },
    });
  }

  async health(): Promise<EngineHealth> {
    const stats = this.pool.stats();
    const workers = { size: stats.size, busy: stats.busy, queued: stats.queued };
    const recentFailures = { crashed: stats.recentCrashes, timedOut: stats.recentTimeouts };
    if (this.pool.isClosed) return { status: 'down', detail: 'engine is closed', workers, recentFailures };
    const problems = healthProblems(stats);
    return { status: problems.length > 0 ? 'degraded' : 'ok', detail: problems.join('; ') || 'workers ready', workers, recentFailures };
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

function healthProblems(stats: PoolStats): string[] {
  const problems: string[] = [];
  if (stats.queued > stats.size * QUEUE_DEGRADED_PER_WORKER) problems.push(`${stats.queued} tasks queued for ${stats.size} workers`);
  if (stats.recentCrashes > 0) problems.push(`${stats.recentCrashes} task(s) crashed their worker recently`);
  if (stats.recentTimeouts > 0) problems.push(`${stats.recentTimeouts} task(s) timed out recently`);
  return problems;
}

function toBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
