/**
 * Platform events (track.published, user.signup, ...) on the event bus, the platform's counterpart of
 * StationEvents. Webhook delivery listens here. Every platform event is raised by a database change: its
 * module calls `recordIn` with the change's transaction (the webhooks' outbox rows commit with the change) and
 * runs the answer after the commit (the bus publish, only a wake-up). `emit` records and publishes an event
 * outside any transaction.
 */
import type { Clock } from '../../infra/clock/clock.js';
import type { DbOrTx } from '../../infra/db/client.js';
import type { EventBus } from '../../infra/pubsub/event-bus.js';
import { recordInTransaction, recordThenPublish, type AfterCommit, type MessageOutbox } from '../../infra/pubsub/recorded-publish.js';
import type { Environment } from '../../kernel/environment.js';
import type { EventAudience } from './event-audience.js';
import type { PlatformEventName } from './event-names.js';

export const PLATFORM_EVENTS_CHANNEL = 'platform.events';

export interface PlatformEvent {
  event: PlatformEventName;
  data: Record<string, unknown>;
  timestamp: string;
  /** The data space it happened in: only webhooks registered in the same one receive it (absent: live). */
  environment?: Environment;
  /**
   * For payment.success and capsule.unlocked: the user owning what the event is about, who hears it beside
   * admins (event-audience.ts). Not part of `data`, so receivers never see it; absent, only admins hear it.
   */
  audience?: EventAudience;
}

/** A platform event as its module raises it; the timestamp defaults to now (a given one keeps a repeated notice's event id). */
export type RaisedPlatformEvent = Omit<PlatformEvent, 'timestamp'> & { timestamp?: string };

/** The narrow port a module raising platform events is given: each is recorded in the transaction of its change. */
export interface TransactionalPlatformEvents {
  /**
   * Records the event in `tx`, the transaction of the change it reports; answers what to run once `tx` has
   * committed (the bus publish and the delivery jobs: wake-ups only, which never reject).
   */
  recordIn(tx: DbOrTx, event: RaisedPlatformEvent): Promise<AfterCommit>;
}

export class PlatformEvents implements TransactionalPlatformEvents {
  constructor(
    private readonly bus: EventBus,
    private readonly clock: Clock,
    /** The webhooks' outbox (dispatcher.ts): an event recorded there is delivered even if the bus loses it. */
    private readonly outbox?: MessageOutbox,
  ) {}

  /** Records and publishes an event outside any transaction; resolves once it is recorded (without an outbox: once published). */
  emit(event: PlatformEventName, data: Record<string, unknown>, environment: Environment = 'live', audience?: EventAudience): Promise<void> {
    const message = this.message({ event, data, environment, ...(audience ? { audience } : {}) });
    if (this.outbox) return recordThenPublish(this.bus, this.outbox, PLATFORM_EVENTS_CHANNEL, message);
    return this.bus.publish(PLATFORM_EVENTS_CHANNEL, message);
  }

  /** See TransactionalPlatformEvents. Without an outbox (some tests) nothing is recorded: the publish after the commit is the event's only way. */
  async recordIn(tx: DbOrTx, event: RaisedPlatformEvent): Promise<AfterCommit> {
    const message = this.message(event);
    if (this.outbox) return recordInTransaction(this.bus, this.outbox, tx, PLATFORM_EVENTS_CHANNEL, message);
    return () => this.bus.publish(PLATFORM_EVENTS_CHANNEL, message);
  }

  private message(event: RaisedPlatformEvent): PlatformEvent {
    return { environment: 'live', ...event, timestamp: event.timestamp ?? this.clock.date().toISOString() };
  }
}
