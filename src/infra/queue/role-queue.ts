/**
 * A JobQueue that runs only some queues' jobs on this process: every process adds jobs to every queue, but
 * an API instance (STATION_ROLE=api) leaves the engine's queues to the workers (`npm run worker`,
 * STATION_ROLE=worker), which run nothing else. The jobs themselves wait in BullMQ for whoever consumes them.
 */
import type { JobHandler, JobOptions, JobQueue } from './job-queue.js';

export class ConsumingJobQueue implements JobQueue {
  /** Queues whose workers were not registered here (another process runs them). */
  readonly skipped: string[] = [];

  constructor(
    private readonly inner: JobQueue,
    private readonly consumes: (queue: string) => boolean,
  ) {}

  add(queue: string, name: string, data: Record<string, unknown>, options?: JobOptions): Promise<string> {
    return this.inner.add(queue, name, data, options);
  }

  async process(queue: string, handler: JobHandler, options?: { concurrency?: number }): Promise<void> {
    if (!this.consumes(queue)) {
      this.skipped.push(queue);
      return;
    }
    await this.inner.process(queue, handler, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/** Whether a process of `role` runs the jobs of `queue`, given the queues that belong to workers. */
export function consumesQueue(role: 'all' | 'api' | 'worker', workerQueues: readonly string[], queue: string): boolean {
  if (role === 'all') return true;
  return role === 'worker' ? workerQueues.includes(queue) : !workerQueues.includes(queue);
}
