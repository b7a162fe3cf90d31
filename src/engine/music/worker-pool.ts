/**
 * Render worker pool: generation runs in worker_threads so the API's event loop never renders audio.
 * Bounded concurrency (default: cores - 1, at least 1) with a FIFO queue. A crash or a timeout fails only
 * the job that was running in that worker; the worker is discarded and a fresh one is started on demand.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ProgressFn } from '../types.js';
import { GenerationFailedError } from './errors.js';
import type { GeneratedTrack, GenerateTrackRequest } from './pipeline.js';
import type { WorkerReply, WorkerRequest } from './render-worker.js';

export interface WorkerPoolOptions {
  size?: number;
  /** Per-job limit; a job still running after this is killed with its worker. */
  jobTimeoutMs?: number;
  /** Lets tests ask a worker to crash; never enabled in production wiring. */
  allowFaultInjection?: boolean;
}

export interface JobOptions {
  timeoutMs?: number;
  injectFault?: 'crash';
}

interface Job {
  id: number;
  request: GenerateTrackRequest;
  options: JobOptions;
  onProgress?: ProgressFn;
  resolve(track: GeneratedTrack): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
  timer: NodeJS.Timeout | null;
}

const WORKER_ENTRY = new URL('./render-worker.mjs', import.meta.url);
const DEFAULT_JOB_TIMEOUT_MS = 5 * 60_000;

export function defaultPoolSize(): number {
  return Math.max(1, availableParallelism() - 1);
}

export class RenderWorkerPool {
  readonly size: number;
  private readonly jobTimeoutMs: number;
  private readonly allowFaultInjection: boolean;
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;

  constructor(options: WorkerPoolOptions = {}) {
    this.size = Math.max(1, Math.floor(options.size ?? defaultPoolSize()));
    this.jobTimeoutMs = options.jobTimeoutMs ?? DEFAULT_JOB_TIMEOUT_MS;
    this.allowFaultInjection = options.allowFaultInjection ?? false;
  }

  generate(request: GenerateTrackRequest, onProgress?: ProgressFn, options: JobOptions = {}): Promise<GeneratedTrack> {
    if (this.closed) return Promise.reject(new GenerationFailedError('render worker pool is closed', 'shutdown'));
    if (options.injectFault && !this.allowFaultInjection) return Promise.reject(new Error('fault injection is disabled on this pool'));
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, request, options, onProgress, resolve, reject });
      this.dispatch();
    });
  }

  stats(): { size: number; workers: number; busy: number; queued: number } {
    return { size: this.size, workers: this.slots.length, busy: this.slots.filter((s) => s.job).length, queued: this.queue.length };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new GenerationFailedError('render worker pool closed', 'shutdown'));
    await Promise.all(this.slots.splice(0).map((slot) => this.retire(slot, new GenerationFailedError('render worker pool closed', 'shutdown'))));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((s) => s.job === null);
      if (!slot && this.slots.length < this.size) slot = this.spawn();
      if (!slot) return;
      const job = this.queue.shift()!;
      slot.job = job;
      const timeoutMs = job.options.timeoutMs ?? this.jobTimeoutMs;
      const running = slot;
      slot.timer = setTimeout(() => void this.retire(running, new GenerationFailedError(`generation timed out after ${timeoutMs} ms`, 'timeout')), timeoutMs);
      const message: WorkerRequest = { type: 'job', id: job.id, request: job.request, injectFault: job.options.injectFault };
      slot.worker.postMessage(message);
    }
  }

  private spawn(): Slot {
    const worker = new Worker(WORKER_ENTRY);
    const slot: Slot = { worker, job: null, timer: null };
    worker.on('message', (reply: WorkerReply) => this.onReply(slot, reply));
    worker.on('error', (error) => void this.retire(slot, new GenerationFailedError(`render worker crashed: ${error.message}`, 'crash')));
    worker.on('exit', (code) => void this.retire(slot, new GenerationFailedError(`render worker exited with code ${code}`, 'crash')));
    this.slots.push(slot);
    return slot;
  }

  private onReply(slot: Slot, reply: WorkerReply): void {
    const job = slot.job;
    if (!job || job.id !== reply.id) return;
    if (reply.type === 'progress') {
      job.onProgress?.(reply.pct, reply.eta);
      return;
    }
    this.finish(slot);
    if (reply.type === 'done') {
      const result = reply.result;
      // Structured clone turns Buffers into Uint8Arrays; give callers Buffers back.
      job.resolve({ ...result, mp3: result.mp3 ? toBuffer(result.mp3) : null, coverPng: toBuffer(result.coverPng) });
    } else {
      job.reject(new GenerationFailedError(reply.message, 'error'));
    }
    this.dispatch();
  }

  private finish(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.job = null;
  }

  /** Fails the slot's job (if any), removes the worker and lets the queue continue on a fresh one. */
  private async retire(slot: Slot, error: GenerationFailedError): Promise<void> {
    const index = this.slots.indexOf(slot);
    if (index === -1) return;
    this.slots.splice(index, 1);
    const job = slot.job;
    this.finish(slot);
    job?.reject(error);
    slot.worker.removeAllListeners();
    slot.worker.on('error', () => {}); // a dying worker may still report; nobody is waiting for it
    await slot.worker.terminate();
    if (!this.closed) this.dispatch();
  }
}

function toBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
