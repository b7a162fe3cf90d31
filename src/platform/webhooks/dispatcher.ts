/**
 * From events to delivery rows, the webhooks' transactional outbox. An event raised by a database change has its
 * rows written in the change's transaction (recordIn(), through StationEvents/PlatformEvents.recordIn): the
 * change and its event commit together, and a crash after the commit delays the event, never loses it. An event
 * from no transaction (the playout's now-playing) is recorded on its own before it is published (record()).
 * Either way the event then survives a Redis outage of any length. Every instance also receives the bus copy
 * (dispatch()); the rows' unique (webhook_id, event_id, attempt) makes only the first insert count, and only
 * the instance whose insert counted queues the jobs. A queued job is only a wake-up: the relay is the sweep, which on every
 * instance re-queues pending attempts left without a job (the queue was down or restarted empty, an in-process
 * queue died with its instance), and the worker's claim (repository.ts) lets one of them send each attempt.
 */
import type { Clock } from '../../infra/clock/clock.js';
import type { DbOrTx } from '../../infra/db/client.js';
import type { AfterCommit } from '../../infra/pubsub/recorded-publish.js';
import type { EventBus } from '../../infra/pubsub/event-bus.js';
import type { JobQueue } from '../../infra/queue/job-queue.js';
import { STATION_EVENTS_CHANNEL } from '../../station/events/station-events.js';
import type { Environment } from '../../kernel/environment.js';
import { enqueueDelivery } from './delivery.js';
import { recipientMayHear, type EventAudience } from './event-audience.js';
import { familyOf, isWebhookEventName } from './event-names.js';
import { PLATFORM_EVENTS_CHANNEL } from './platform-events.js';
import type { NewDelivery, WebhookRepository } from './repository.js';

/** What the dispatcher asks of the repository (repository.ts), on the database or on a caller's transaction. */
export type DispatcherRepository = Pick<WebhookRepository, 'activeWebhooksFor' | 'insertDeliveries' | 'pendingDeliveries'> & {
  in(tx: DbOrTx): DispatcherRepository;
};
import type { SecretBox } from './secret-box.js';
import { bodyFor, eventIdOf, webhookMessageIdOf, type EventMessage } from './signing.js';

export type WebhookErrorReporter = (message: string, error: unknown) => void;

export interface DispatcherOptions {
  /** How often to look for pending attempts that are overdue (0 disables; default 10 s). */
  sweepIntervalMs: number;
  onError: WebhookErrorReporter;
}

const RECOVERY_BATCH = 500;

export class WebhookDispatcher {
  private unsubscribers: (() => Promise<void>)[] = [];
  private sweepTimer: NodeJS.Timeout | null = null;
  /** The sweep in flight, if any (stop waits for it). */
  private sweeping: Promise<unknown> = Promise.resolve();
  private sweepRunning = false;

  constructor(
    private readonly repo: DispatcherRepository,
    private readonly box: SecretBox,
    private readonly queue: JobQueue,
    private readonly clock: Clock,
    private readonly options: DispatcherOptions,
  ) {}

  async start(bus: EventBus): Promise<void> {
    for (const channel of [STATION_EVENTS_CHANNEL, PLATFORM_EVENTS_CHANNEL]) {
      this.unsubscribers.push(await bus.subscribe(channel, (message) => this.dispatch(message)));
    }
    await this.requeuePending();
    if (this.options.sweepIntervalMs > 0) {
      this.sweepTimer = setInterval(() => {
        // One sweep at a time: during a Redis outage a sweep's adds wait for Redis, and every tick meanwhile
        // would start another that reads the same attempts and waits beside it. The tick after it ends sweeps.
        if (this.sweepRunning) return;
        this.sweepRunning = true;
        this.sweeping = this.requeuePending(new Date(this.clock.now() - this.options.sweepIntervalMs))
          .catch((error) => this.options.onError('webhook sweep failed', error))
          .finally(() => (this.sweepRunning = false));
      }, this.options.sweepIntervalMs);
      this.sweepTimer.unref();
    }
  }

  async stop(): Promise<void> {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = null;
    // A sweep already running finishes first: the database closes after this returns.
    await this.sweeping;
    const unsubscribers = this.unsubscribers;
    this.unsubscribers = [];
    await Promise.allSettled(unsubscribers.map((unsubscribe) => unsubscribe()));
  }

  /**
   * The outbox: records the event's first attempts and resolves once they are in the database. Their jobs are
   * queued without waiting (during a Redis outage BullMQ holds the add until Redis is back); a job that never
   * gets queued is the sweep's to queue.
   */
  async record(message: unknown): Promise<void> {
    this.queueWithoutWaiting(await this.insertFirstAttempts(message, this.repo));
  }

  /**
   * The outbox in the caller's transaction: the event's first attempts are inserted in `tx`, and the answer
   * queues their jobs once the caller has committed (without waiting, as record()). If the process dies before
   * that, the attempts are committed and pending: the sweep (or the next start) queues them.
   */
  async recordIn(tx: DbOrTx, message: unknown): Promise<AfterCommit> {
    const inserted = await this.insertFirstAttempts(message, this.repo.in(tx));
    return async () => this.queueWithoutWaiting(inserted);
  }

  private queueWithoutWaiting(inserted: { id: string; nextAttemptAt: Date }[]): void {
    for (const row of inserted)
      enqueueDelivery(this.queue, this.clock, { id: row.id, runAt: row.nextAttemptAt }).catch((error: unknown) =>
        this.options.onError(`webhook attempt ${row.id} not queued (the sweep will queue it)`, error),
      );
  }

  /**
   * Creates the first attempt of this event for every subscribed webhook whose owner may hear it now
   * (event-audience.ts), and queues them; answers how many this call created (none if recorded already).
   */
  async dispatch(message: unknown): Promise<number> {
    const inserted = await this.insertFirstAttempts(message, this.repo);
    // Each attempt its own job: one slow receiver holds one worker slot, never the others' deliveries.
    await Promise.all(inserted.map((row) => enqueueDelivery(this.queue, this.clock, { id: row.id, runAt: row.nextAttemptAt })));
    return inserted.length;
  }

  private async insertFirstAttempts(message: unknown, repo: DispatcherRepository): Promise<{ id: string; nextAttemptAt: Date }[]> {
    const parsed = parseMessage(message);
    if (!parsed) return [];
    const subscribed = await repo.activeWebhooksFor(parsed.event, parsed.environment);
    const hooks = subscribed.filter((hook) => recipientMayHear(parsed.event, hook, parsed.audience));
    if (hooks.length === 0) return [];
    const eventId = eventIdOf(parsed);
    const family = familyOf(parsed.event);
    const runAt = this.clock.date();
    const rows: NewDelivery[] = [];
    for (const hook of hooks) {
      let secret: string;
      try {
        secret = this.box.open(hook.secretCiphertext, hook.id);
      } catch (error) {
        this.options.onError(`webhook ${hook.id}: cannot sign event ${parsed.event}`, error);
        continue;
      }
      rows.push({
        webhookId: hook.id,
        eventId,
        event: parsed.event,
        payload: bodyFor(family, parsed, secret),
        webhookMessageId: webhookMessageIdOf(hook.id, eventId),
        attempt: 1,
        nextAttemptAt: runAt,
      });
    }
    return repo.insertDeliveries(rows);
  }

  /**
   * Queues pending attempts again, each at max(next_attempt_at, claim expiry). Without `dueBefore`, all of
   * them (start-up); with it, only the overdue ones (the sweep). Re-queuing a job that exists is a no-op,
   * and a job whose attempt is already done or claimed returns at once.
   */
  async requeuePending(dueBefore?: Date): Promise<number> {
    let after: { nextAttemptAt: Date; id: string } | undefined;
    let total = 0;
    for (;;) {
      const batch = await this.repo.pendingDeliveries({ dueBefore, now: this.clock.date(), limit: RECOVERY_BATCH, after });
      for (const row of batch) {
        const runAt = row.lockedUntil && row.lockedUntil > row.nextAttemptAt ? row.lockedUntil : row.nextAttemptAt;
        await enqueueDelivery(this.queue, this.clock, { id: row.id, runAt });
      }
      total += batch.length;
      if (batch.length < RECOVERY_BATCH) return total;
      const last = batch[batch.length - 1];
      after = { nextAttemptAt: last.nextAttemptAt, id: last.id };
    }
  }
}

type ParsedMessage = EventMessage & { event: Parameters<typeof familyOf>[0]; environment: Environment; audience: EventAudience | undefined };

/**
 * A bus message as the webhooks see it; station events, and platform events that name none, are live. The
 * audience (who owns what the event is about) is kept apart from the message that is signed and sent.
 */
function parseMessage(message: unknown): ParsedMessage | null {
  if (typeof message !== 'object' || message === null) return null;
  const { event, timestamp, data, environment, audience } = message as Record<string, unknown>;
  if (!isWebhookEventName(event) || typeof timestamp !== 'string') return null;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  if (environment !== undefined && environment !== 'live' && environment !== 'test') return null;
  return { event, timestamp, data: data as Record<string, unknown>, environment: environment ?? 'live', audience: audienceOf(audience) };
}

/** An audience that does not name its owner as a string names none: the event then reaches admins only. */
function audienceOf(value: unknown): EventAudience | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { ownerUserId } = value as Record<string, unknown>;
  return typeof ownerUserId === 'string' ? { ownerUserId } : undefined;
}
