/**
 * The JobQueue on Redis through BullMQ, so jobs survive a restart and workers can run on other machines.
 * One BullMQ Queue (to add) and at most one Worker (to run) per queue name, opened on first use.
 *
 * Dedupe uses BullMQ's deduplication id rather than a custom job id: a custom id would also block re-adding
 * while the finished job is kept in the completed/failed history, and the port promises dedupe only while a
 * job is queued, delayed or running.
 */
import { Queue, Worker, type ConnectionOptions, type Job as BullJob, type KeepJobs } from 'bullmq';
import type { Job, JobHandler, JobOptions, JobQueue } from './job-queue.js';
import {
  BACKOFF_JITTER,
  DEFAULT_ATTEMPTS,
  DEFAULT_BACKOFF_MS,
  type JobErrorReporter,
  QueueClosedError,
  reportJobErrorToConsole,
  WorkerAlreadyRegisteredError,
} from './retry-policy.js';

export interface BullMqJobQueueOptions {
  url: string;
  /** Namespaces every Redis key (`<prefix>:<queue>:...`); tests and several stations can share one Redis. */
  prefix?: string;
  onError?: JobErrorReporter;
  /** Redis connection trouble, which belongs to no job; BullMQ keeps reconnecting meanwhile. */
  onConnectionError?: (error: Error, queue: string) => void;
  /** Finished jobs kept for inspection; bounded so Redis does not grow forever. */
  removeOnComplete?: KeepJobs;
  removeOnFail?: KeepJobs;
  /** How long close() waits for running jobs before abandoning them (BullMQ re-queues them as stalled). */
  closeTimeoutMs?: number;
  /**
   * How long a running job's lock lives without renewal (the worker renews it every half). A worker that dies
   * stops renewing: its job is handed to another worker as stalled within this plus the stall check's period
   * (checked as often as the lock lives). Default BullMQ's 30 s.
   */
  lockDurationMs?: number;
}

const DAY_SECONDS = 24 * 60 * 60;

export class BullMqJobQueue implements JobQueue {
  private readonly connection: ConnectionOptions;
  private readonly prefix: string;
  private readonly onError: JobErrorReporter;
  private readonly onConnectionError: (error: Error, queue: string) => void;
  private readonly removeOnComplete: KeepJobs;
  private readonly removeOnFail: KeepJobs;
  private readonly closeTimeoutMs: number;
  private readonly lockDurationMs: number;
  private readonly queues = new Map<string, Queue>();
  private readonly workers = new Map<string, Worker>();
  private closed = false;

  constructor(options: BullMqJobQueueOptions) {
    // BullMQ requires maxRetriesPerRequest null: its blocking commands must wait through a Redis restart.
    this.connection = { url: options.url, maxRetriesPerRequest: null };
    this.prefix = options.prefix ?? 'station';
    this.onError = options.onError ?? reportJobErrorToConsole;
    this.onConnectionError = options.onConnectionError ?? ((error, queue) => console.error(`job queue ${queue}: redis error`, error));
    this.removeOnComplete = options.removeOnComplete ?? { count: 1_000, age: DAY_SECONDS };
    this.removeOnFail = options.removeOnFail ?? { count: 5_000, age: 7 * DAY_SECONDS };
    this.closeTimeoutMs = options.closeTimeoutMs ?? 10_000;
    this.lockDurationMs = options.lockDurationMs ?? 30_000;
  }

  async add(queue: string, name: string, data: Record<string, unknown>, options: JobOptions = {}): Promise<string> {
    if (this.closed) throw new QueueClosedError();
    const attempts = Math.max(1, options.attempts ?? DEFAULT_ATTEMPTS);
    const job = await this.queue(queue).add(name, data, {
      delay: options.delayMs,
      attempts,
      backoff: attempts > 1 ? { type: 'exponential', delay: options.backoffMs ?? DEFAULT_BACKOFF_MS, jitter: BACKOFF_JITTER } : undefined,
      deduplication: options.jobId === undefined ? undefined : { id: options.jobId },
      removeOnComplete: this.removeOnComplete,
      removeOnFail: this.removeOnFail,
    });
    // A deduplicated add answers with the job already holding the key, which is the id the port promises.
    return job.id!;
  }

  async process(queue: string, handler: JobHandler, options: { concurrency?: number } = {}): Promise<void> {
    if (this.closed) throw new QueueClosedError();
    if (this.workers.has(queue)) throw new WorkerAlreadyRegisteredError(queue);
    const worker = new Worker(queue, (bullJob: BullJob) => handler(toPortJob(queue, bullJob)), {
      connection: this.connection,
      prefix: this.prefix,
      concurrency: Math.max(1, options.concurrency ?? 1),
      lockDuration: this.lockDurationMs,
      stalledInterval: this.lockDurationMs,
    });
    this.workers.set(queue, worker);
    worker.on('failed', (bullJob, error) => {
      if (!bullJob) return;
      const final = bullJob.attemptsMade >= (bullJob.opts.attempts ?? 1);
      // 'failed' fires after attemptsMade was counted, so the attempt that failed is attemptsMade itself.
      this.report(error, { ...toPortJob(queue, bullJob), attempt: bullJob.attemptsMade }, final);
    });
    worker.on('error', (error) => this.onConnectionError(error, queue));
    await worker.waitUntilReady();
  }

  /** Workers first (they stop taking jobs and finish running ones, up to the timeout), then the queues. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.workers.values()].map((worker) => this.closeWorker(worker)));
    await Promise.all([...this.queues.values()].map((queue) => queue.close()));
    this.workers.clear();
    this.queues.clear();
  }

  private queue(name: string): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: this.connection, prefix: this.prefix });
      queue.on('error', (error) => this.onConnectionError(error, name));
      this.queues.set(name, queue);
    }
    return queue;
  }

  private async closeWorker(worker: Worker): Promise<void> {
    let timeout: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<'timeout'>((resolve) => {
      timeout = setTimeout(() => resolve('timeout'), this.closeTimeoutMs);
    });
    const closing = worker.close();
    const outcome = await Promise.race([closing, gaveUp]);
    clearTimeout(timeout);
    if (outcome !== 'timeout') return;
    // A stuck job: drop the connections so its lock expires and BullMQ hands it to another worker as stalled.
    // The abandoned close() and the job then fail on the dead connection, which is expected and not reported.
    worker.removeAllListeners('error');
    worker.removeAllListeners('failed');
    worker.on('error', () => undefined);
    closing.catch(() => undefined);
    await worker.disconnect();
  }

  private report(error: unknown, job: Job, final: boolean): void {
    try {
      this.onError(error, job, final);
    } catch {
      // A broken reporter must not become an unhandled error inside BullMQ's event emitter.
    }
  }
}

function toPortJob(queue: string, bullJob: BullJob): Job {
  return {
    id: bullJob.id!,
    queue,
    name: bullJob.name,
    data: bullJob.data as Record<string, unknown>,
    // attemptsMade counts failed attempts, so the running one is the next.
    attempt: bullJob.attemptsMade + 1,
    // BullMQ moved it back from a worker whose lock lapsed (maxStalledCount 1: a second stall fails it).
    redelivered: (bullJob.stalledCounter ?? 0) > 0,
  };
}
