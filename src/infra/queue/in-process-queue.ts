/**
 * The embedded JobQueue: jobs run in this process, on real timers unless others are injected, and live only
 * in memory (a restart loses what was queued, which is why handlers reload state from the database and jobs
 * carry only ids). It keeps BullMQ's semantics so the two are interchangeable: FIFO per named queue,
 * per-queue concurrency, delays, retries with exponential backoff, jobId dedupe while a job is queued,
 * delayed or running, and JSON data.
 */
import { randomUUID } from 'node:crypto';
import { systemTimers, type DelayTimers } from '../clock/timers.js';
import type { Job, JobHandler, JobOptions, JobQueue } from './job-queue.js';
import {
  backoffDelayMs,
  DEFAULT_ATTEMPTS,
  DEFAULT_BACKOFF_MS,
  type JobErrorReporter,
  QueueClosedError,
  reportJobErrorToConsole,
  WorkerAlreadyRegisteredError,
} from './retry-policy.js';

export interface InProcessJobQueueOptions {
  onError?: JobErrorReporter;
  /** How long close() waits for running jobs before giving up on them (default 10 s). */
  closeTimeoutMs?: number;
  /** The jitter's randomness; tests pin it. */
  random?: () => number;
  /** Delays, backoffs and the close timeout run on these; tests move them by hand. */
  timers?: DelayTimers;
}

interface Entry {
  job: Job;
  attempts: number;
  backoffMs: number;
  dedupeKey: string | null;
}

interface Lane {
  handler: JobHandler | null;
  concurrency: number;
  ready: Entry[];
  running: number;
}

export class InProcessJobQueue implements JobQueue {
  private readonly lanes = new Map<string, Lane>();
  /** queue + jobId -> id of the job holding that key until it completes or fails for good. */
  private readonly dedupe = new Map<string, string>();
  private readonly pending = new Set<unknown>();
  private readonly timers: DelayTimers;
  private readonly running = new Set<Promise<void>>();
  private readonly onError: JobErrorReporter;
  private readonly closeTimeoutMs: number;
  private readonly random: () => number;
  private closed = false;

  constructor(options: InProcessJobQueueOptions = {}) {
    this.onError = options.onError ?? reportJobErrorToConsole;
    this.closeTimeoutMs = options.closeTimeoutMs ?? 10_000;
    this.random = options.random ?? Math.random;
    this.timers = options.timers ?? systemTimers;
  }

  async add(queue: string, name: string, data: Record<string, unknown>, options: JobOptions = {}): Promise<string> {
    if (this.closed) throw new QueueClosedError();
    const dedupeKey = options.jobId === undefined ? null : `${queue}\u0000${options.jobId}`;
    const holder = dedupeKey === null ? undefined : this.dedupe.get(dedupeKey);
    if (holder !== undefined) return holder;

    const id = options.jobId ?? randomUUID();
    // Through JSON like a Redis-backed queue: the handler never shares an object with the caller.
    const copy = JSON.parse(JSON.stringify(data)) as Record<string, unknown>;
    const entry: Entry = {
      // One process holds every attempt: a job is never handed out again after its holder died.
      job: { id, queue, name, data: copy, attempt: 1, redelivered: false },
      attempts: Math.max(1, options.attempts ?? DEFAULT_ATTEMPTS),
      backoffMs: options.backoffMs ?? DEFAULT_BACKOFF_MS,
      dedupeKey,
    };
    if (dedupeKey !== null) this.dedupe.set(dedupeKey, id);
    this.enqueueAfter(entry, options.delayMs ?? 0);
    return id;
  }

  async process(queue: string, handler: JobHandler, options: { concurrency?: number } = {}): Promise<void> {
    if (this.closed) throw new QueueClosedError();
    const lane = this.lane(queue);
    if (lane.handler) throw new WorkerAlreadyRegisteredError(queue);
    lane.handler = handler;
    lane.concurrency = Math.max(1, options.concurrency ?? 1);
    this.pump(lane);
  }

  /** Stops starting jobs, drops queued and delayed ones, and waits for running ones up to the timeout. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const timer of this.pending) this.timers.clearTimeout(timer);
    this.pending.clear();
    for (const lane of this.lanes.values()) lane.ready.length = 0;
    this.dedupe.clear();

    let timeout: unknown;
    const gaveUp = new Promise<void>((resolve) => {
      timeout = this.timers.setTimeout(resolve, this.closeTimeoutMs);
    });
    await Promise.race([Promise.allSettled([...this.running]), gaveUp]);
    this.timers.clearTimeout(timeout);
  }

  private lane(queue: string): Lane {
    let lane = this.lanes.get(queue);
    if (!lane) {
      lane = { handler: null, concurrency: 1, ready: [], running: 0 };
      this.lanes.set(queue, lane);
    }
    return lane;
  }

  private enqueueAfter(entry: Entry, delayMs: number): void {
    const lane = this.lane(entry.job.queue);
    if (delayMs <= 0) {
      lane.ready.push(entry);
      this.pump(lane);
      return;
    }
    const timer = this.timers.setTimeout(() => {
      this.pending.delete(timer);
      lane.ready.push(entry);
      this.pump(lane);
    }, delayMs);
    this.pending.add(timer);
  }

  private pump(lane: Lane): void {
    while (!this.closed && lane.handler && lane.running < lane.concurrency && lane.ready.length > 0) {
      const entry = lane.ready.shift()!;
      lane.running += 1;
      const run = this.run(lane.handler, entry).finally(() => {
        lane.running -= 1;
        this.running.delete(run);
        this.pump(lane);
      });
      this.running.add(run);
    }
  }

  private async run(handler: JobHandler, entry: Entry): Promise<void> {
    // A fresh copy per attempt, as BullMQ reloads it: a handler that mutated data cannot poison its retry.
    const job: Job = { ...entry.job, data: structuredClone(entry.job.data) };
    try {
      await handler(job);
      this.release(entry);
    } catch (error) {
      const final = job.attempt >= entry.attempts;
      try {
        this.onError(error, job, final);
      } catch {
        // The reporter failing must not lose the retry.
      }
      if (final || this.closed) {
        this.release(entry);
        return;
      }
      const next: Entry = { ...entry, job: { ...entry.job, attempt: entry.job.attempt + 1 } };
      this.enqueueAfter(next, backoffDelayMs(job.attempt, entry.backoffMs, this.random));
    }
  }

  private release(entry: Entry): void {
    if (entry.dedupeKey !== null && this.dedupe.get(entry.dedupeKey) === entry.job.id) {
      this.dedupe.delete(entry.dedupeKey);
    }
  }
}
