/**
 * Platform events (track.published, user.signup, ...) on the event bus, the platform's counterpart of
 * StationEvents. Webhook delivery listens here; other modules call `PlatformEvents.emit`. Built with the
 * webhooks' outbox, an event is recorded in the database before it is published.
 */
import type { Clock } from '../../infra/clock/clock.js';
import type { EventBus } from '../../infra/pubsub/event-bus.js';
import { recordThenPublish, type MessageOutbox } from '../../infra/pubsub/recorded-publish.js';
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

export class PlatformEvents {
  constructor(
    private readonly bus: EventBus,
    private readonly clock: Clock,
    /** The webhooks' outbox (dispatcher.ts): an event recorded there is delivered even if the bus loses it. */
    private readonly outbox?: MessageOutbox,
  ) {}

  /** Resolves once the event is recorded in the outbox (without one: once published). */
  emit(event: PlatformEventName, data: Record<string, unknown>, environment: Environment = 'live', audience?: EventAudience): Promise<void> {
    const message: PlatformEvent = { event, data, timestamp: this.clock.date().toISOString(), environment, ...(audience ? { audience } : {}) };
    if (this.outbox) return recordThenPublish(this.bus, this.outbox, PLATFORM_EVENTS_CHANNEL, message);
    return this.bus.publish(PLATFORM_EVENTS_CHANNEL, message);
  }
}
