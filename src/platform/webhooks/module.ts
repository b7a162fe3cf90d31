/**
 * The webhooks module assembled from its ports, for the composition root: the registry's routes, the bus
 * subscription that turns events into delivery attempts, and the queue worker that sends them.
 *
 *   StationEvents.emit / PlatformEvents.emit (with the resource's owner, for owner-scoped events)
 *     -> event bus (every instance)            dispatcher.ts: one row per subscribed webhook whose owner may hear
 *                                              it (event-audience.ts), deduped by event id
 *     -> JobQueue 'webhooks' (job id = attempt) delivery.ts: claim, POST, record; retry = new row + delayed job
 */
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../infra/clock/clock.js';
import type { Db } from '../../infra/db/client.js';
import type { EgressPolicy } from '../../infra/egress/egress-policy.js';
import type { EventBus } from '../../infra/pubsub/event-bus.js';
import type { JobQueue } from '../../infra/queue/job-queue.js';
import { DEFAULT_TIMEOUT_MS, WEBHOOK_QUEUE, WebhookDeliveryWorker } from './delivery.js';
import { WebhookDispatcher, type WebhookErrorReporter } from './dispatcher.js';
import { WebhookRepository, type OwnerStanding } from './repository.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry-policy.js';
import { webhookRoutes } from './routes.js';
import { SecretBox } from './secret-box.js';
import { WebhookService } from './service.js';
import { processJobs } from '../../infra/queue/jobs.js';

export interface WebhookOptions {
  /** Per-attempt timeout (default 10 s). */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /** Attempts sent at once by this instance (default 8). */
  concurrency?: number;
  sweepIntervalMs?: number;
  onError?: WebhookErrorReporter;
}

export interface WebhookDeps extends WebhookOptions {
  db: Db;
  /** Auth's read of a hook owner's role and status, in the statement that picks the hooks. */
  owners: OwnerStanding;
  bus: EventBus;
  queue: JobQueue;
  clock: Clock;
  /** STATION_WEBHOOK_ALLOWED_HOSTS applied: checked at registration and at every delivery. */
  egress: EgressPolicy;
  /** Key material for secrets at rest: loadOrCreateSecret(dataDir, 'webhook-secrets', null). */
  secretKey: Buffer;
}

export function buildWebhooksModule(deps: WebhookDeps) {
  const onError: WebhookErrorReporter = deps.onError ?? ((message, error) => console.error(message, error));
  const repo = new WebhookRepository(deps.db, deps.owners);
  const box = new SecretBox(deps.secretKey);
  const service = new WebhookService(repo, box, deps.egress);
  const retry: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...deps.retry };
  const worker = new WebhookDeliveryWorker(repo, box, deps.queue, deps.clock, {
    egress: deps.egress,
    timeoutMs: deps.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    retry,
  });
  const dispatcher = new WebhookDispatcher(repo, box, deps.queue, deps.clock, {
    sweepIntervalMs: deps.sweepIntervalMs ?? 60_000,
    onError,
  });

  return {
    service,
    dispatcher,
    routes: async (app: FastifyInstance) => {
      await app.register(webhookRoutes(service));
    },
    /** Starts the worker, subscribes to both event channels and re-queues attempts left pending. */
    async start(): Promise<void> {
      await processJobs(deps.queue, WEBHOOK_QUEUE, (job) => worker.deliver(job.data.deliveryId), {
        concurrency: deps.concurrency ?? 8,
      });
      await dispatcher.start(deps.bus);
    },
    /** Before the queue closes: no new events, and in-flight POSTs abort (their attempts stay pending). */
    async stop(): Promise<void> {
      await dispatcher.stop();
      worker.stop();
    },
  };
}

export type Webhooks = ReturnType<typeof buildWebhooksModule>;
