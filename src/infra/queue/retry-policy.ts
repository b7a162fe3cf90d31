/**
 * What both JobQueue adapters agree on, so a job behaves the same in-process and on BullMQ: default attempts
 * and backoff, the exponential backoff with jitter (BullMQ's own formula), and how failures are reported.
 */
import type { Job } from './job-queue.js';

export const DEFAULT_ATTEMPTS = 1;
export const DEFAULT_BACKOFF_MS = 1_000;
/** Up to 20% shorter than the full delay, so jobs that failed together do not all retry on the same tick. */
export const BACKOFF_JITTER = 0.2;

/** The wait before the attempt after `failedAttempt` (1-based): base, 2 x base, 4 x base..., minus jitter. */
export function backoffDelayMs(failedAttempt: number, baseMs: number, random: () => number = Math.random): number {
  const full = Math.round(2 ** (failedAttempt - 1) * baseMs);
  return Math.floor(full * (1 - BACKOFF_JITTER * random()));
}

/** `final` is true when no attempt is left: the job is dropped, not retried. */
export type JobErrorReporter = (error: unknown, job: Job, final: boolean) => void;

export const reportJobErrorToConsole: JobErrorReporter = (error, job, final) => {
  const outcome = final ? 'failed for good' : 'will be retried';
  console.error(`job ${job.queue}/${job.name} (${job.id}) attempt ${job.attempt} ${outcome}`, error);
};

export class QueueClosedError extends Error {
  constructor() {
    super('the job queue is closed');
    this.name = 'QueueClosedError';
  }
}

export class WorkerAlreadyRegisteredError extends Error {
  constructor(queue: string) {
    super(`queue ${queue} already has a worker in this process`);
    this.name = 'WorkerAlreadyRegisteredError';
  }
}
