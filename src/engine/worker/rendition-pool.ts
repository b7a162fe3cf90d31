/**
 * Upload renditions on engine worker threads (task `renderRenditions`, ../audio/renditions.ts): the API's
 * event loop only forwards the encoded bytes, which arrive as events, a bounded batch at a time, and the
 * worker waits for each batch to be taken (`onChunks` resolves) before it goes on. Its own pool, sized to
 * the renders an instance runs at once, so an hour of renders never queues behind generation (or the
 * reverse), and uploads render the same with an in-process or a remote engine.
 */
import type { RenditionBitrate } from '../audio/renditions.js';
import type { PcmFormat } from '../audio/pcm.js';
import type { ArtifactSource } from '../engine.js';
import { EngineError } from '../errors.js';
import { EngineWorkerPool } from './engine-worker-pool.js';

export type RenditionChunks = { bitrateKbps: RenditionBitrate; bytes: Uint8Array }[];

export interface RenditionPoolOptions {
  /** Renders at once on this instance (worker threads). */
  size: number;
  /** A render still running after this is stopped with its worker (default 1 hour). */
  timeoutMs?: number;
  /** Input frames per slice (tests use small ones). */
  sliceFrames?: number;
  /** Nice value of the worker threads (default ENGINE_THREAD_NICENESS). */
  niceness?: number;
}

/** Renders read no model or dataset: a request for one is a bug. */
const NO_ARTIFACTS: ArtifactSource = {
  read: (ref) => Promise.reject(new EngineError('ARTIFACT_INVALID', `a render reads no artifact (asked for ${ref.blobKey})`, { stage: 'renderRenditions' })),
};

export class RenditionPool {
  private readonly pool: EngineWorkerPool;

  constructor(private readonly options: RenditionPoolOptions) {
    this.pool = new EngineWorkerPool({ artifacts: NO_ARTIFACTS, size: options.size, taskTimeoutMs: options.timeoutMs ?? 3600_000, niceness: options.niceness });
  }

  /**
   * Renders `bitrates` from the master; `onChunks` gets the bytes in order. Resolves with the worker's thread
   * id, and with `losslessMaster` (a WAV or AIFF master as FLAC, made in the same pass) when asked.
   */
  render(
    master: Uint8Array,
    format: PcmFormat,
    bitrates: readonly RenditionBitrate[],
    onChunks: (chunks: RenditionChunks) => Promise<void>,
    shouldStop?: () => boolean,
    options: { losslessMaster?: boolean } = {},
  ): Promise<{ frames: number; threadId: number; losslessMaster?: Uint8Array }> {
    return this.pool.run(
      'renderRenditions',
      { master, format, bitrates: [...bitrates], sliceFrames: this.options.sliceFrames, losslessMaster: options.losslessMaster },
      {
        shouldStop,
        onEvent: async (event) => {
          if (event.kind === 'renditions') await onChunks(event.chunks);
        },
      },
    );
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
