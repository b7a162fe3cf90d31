/**
 * Background jobs. Payloads carry ids, never objects: the handler reloads state, so a retried job is safe.
 * In-process by default; BullMQ on Redis when REDIS_URL is set, so workers can run on other machines.
 */
export interface JobOptions {
  /** A dedupe key: adding a job whose id is already queued or running does nothing. */
  jobId?: string;
  delayMs?: number;
  /** Total attempts including the first (default 1). */
  attempts?: number;
  /** Base of the exponential backoff between attempts. */
  backoffMs?: number;
}

export interface Job<T = Record<string, unknown>> {
  id: string;
  queue: string;
  name: string;
  data: T;
  /** 1 for the first attempt. */
  attempt: number;
}

export type JobHandler = (job: Job) => Promise<void>;

export interface JobQueue {
  add(queue: string, name: string, data: Record<string, unknown>, options?: JobOptions): Promise<string>;
  /** Registers the worker of a queue; at most `concurrency` jobs of it run at once. */
  process(queue: string, handler: JobHandler, options?: { concurrency?: number }): Promise<void>;
  close(): Promise<void>;
}
