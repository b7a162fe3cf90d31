/**
 * The webhooks module assembled from its ports, for the composition root: the registry's routes, the outbox
 * that turns events into delivery attempts (and the bus subscription that dedupes against it), and the queue
 * worker that sends them.
 *
 *   StationEvents / PlatformEvents.recordIn(tx, ...): an event raised by a database change, in its transaction
 *   (StationEvents.emit: an event from no transaction, the playout's now-playing; with the resource's owner
 *   for owner-scoped events)
 *     -> outbox (in the change's transaction)  dispatcher.ts: one row per subscribed webhook whose owner may hear
 *        after the commit: event bus           it (event-audience.ts), deduped by event id: the bus copy adds none
 *     -> JobQueue 'webhooks' (job id = attempt) delivery.ts: claim, POST, record; retry = new row + delayed job
 *        (wake-ups only: the sweep re-queues an attempt whose job never got queued, a crash after the commit,
 *        or that Redis lost)
 */
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../infra/clock/clock.js';
import type { Db } from '../../infra/db/client.js';
import type { EgressPolicy } from '../../infra/egress/egress-policy.js';
import type { EventBus } from '../../infra/pubsub/event-bus.js';
import type { MessageOutbox } from '../../infra/pubsub/recorded-publish.js';
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

/**
 * How often every instance looks for attempts whose job was lost, and how overdue one must be: an event
 * recorded while Redis was down or committed by an instance that died before queuing it, or a retry Redis lost
 * on an empty restart, goes out 10-20 s late at most once Redis answers. One indexed read of the pending
 * attempts per instance and period, one sweep at a time (dispatcher.ts).
 */
const DEFAULT_SWEEP_INTERVAL_MS = 10_000;

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
    sweepIntervalMs: deps.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS,
    onError,
  });

  const outbox: MessageOutbox = dispatcher;

  return {
    service,
    dispatcher,
    /** For StationEvents and PlatformEvents: an event's delivery rows, in the transaction of its change or on their own. */
    outbox,
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
