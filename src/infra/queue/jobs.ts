/**
 * The one table of the product's queues and their job payloads: producers add through `addJob` and consumers
 * register through `processJobs`, so a payload's shape is checked at both ends by the compiler. Payloads carry
 * ids only (job-queue.ts). The JobQueue port itself stays untyped: it is the transport (in-process or BullMQ),
 * and its contract tests use queues of their own.
 */
import type { Job, JobOptions, JobQueue } from './job-queue.js';

/** Queue names as they are stored in BullMQ (changing one orphans the jobs waiting under the old name). */
export const QUEUES = {
  generation: 'generation',
  training: 'training',
  uploads: 'track-uploads',
  webhooks: 'webhooks',
} as const;

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

/** What a job of each queue carries. */
export interface JobPayloads {
  /** Module E: one generation to render (generation.runner.ts). */
  generation: { generationId: string };
  /** Module I: one training job to run or resume (training/runner.ts). */
  training: { jobId: string };
  /** An uploaded track to render into its stream renditions (uploads/render.ts). */
  'track-uploads': { trackId: string };
  /** One webhook delivery attempt (webhooks/delivery.ts). */
  webhooks: { deliveryId: string };
}

export function addJob<Q extends QueueName>(queue: JobQueue, name: Q, jobName: string, data: JobPayloads[Q], options?: JobOptions): Promise<string> {
  return queue.add(name, jobName, data, options);
}

export function processJobs<Q extends QueueName>(
  queue: JobQueue,
  name: Q,
  handler: (job: Job<JobPayloads[Q]>) => Promise<void>,
  options?: { concurrency?: number },
): Promise<void> {
  // The transport hands back what addJob put under this queue name (its only producer), serialised and parsed.
  return queue.process(name, (job) => handler(job as Job<JobPayloads[Q]>), options);
}
