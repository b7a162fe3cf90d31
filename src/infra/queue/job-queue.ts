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
  /**
   * The job was started before by a worker that stopped holding it (died, or froze past its lock) and the
   * queue hands it out again: its handler may take over work left in progress. The queue gives a job to one
   * worker at a time, so the previous holder no longer runs it as far as the queue knows.
   */
  redelivered: boolean;
}

export type JobHandler = (job: Job) => Promise<void>;

export interface JobQueue {
  add(queue: string, name: string, data: Record<string, unknown>, options?: JobOptions): Promise<string>;
  /** Registers the worker of a queue; at most `concurrency` jobs of it run at once. */
  process(queue: string, handler: JobHandler, options?: { concurrency?: number }): Promise<void>;
  close(): Promise<void>;
}
