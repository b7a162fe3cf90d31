/**
 * The embedded EventBus: one process, no Redis. It copies the Redis bus's behaviour on purpose, so code that
 * works here works across instances: messages go through JSON (a handler never shares an object with the
 * publisher), arrive on a later tick (never inside `publish`), and one failing handler affects no other.
 */
import type { EventBus, MessageHandler } from './event-bus.js';
import { BusClosedError, type BusErrorReporter, deliverIsolated, reportToConsole } from './delivery.js';

export interface InProcessEventBusOptions {
  /** Where a throwing (or rejecting) handler is reported; defaults to console.error. */
  onHandlerError?: BusErrorReporter;
}

/** One subscribe call; the same handler subscribed twice is two subscriptions, like two Redis clients. */
interface Subscription {
  handler: MessageHandler;
  active: boolean;
}

export class InProcessEventBus implements EventBus {
  private readonly channels = new Map<string, Set<Subscription>>();
  private readonly onHandlerError: BusErrorReporter;
  private closed = false;

  constructor(options: InProcessEventBusOptions = {}) {
    this.onHandlerError = options.onHandlerError ?? reportToConsole;
  }

  async publish(channel: string, message: unknown): Promise<void> {
    if (this.closed) throw new BusClosedError();
    const payload = JSON.stringify(message ?? null);
    // Who receives is decided now, as Redis would: a subscription made after publishing misses the message.
    const recipients = [...(this.channels.get(channel) ?? [])];
    if (recipients.length === 0) return;
    setImmediate(() => {
      for (const subscription of recipients) {
        if (!subscription.active) continue;
        deliverIsolated(subscription.handler, JSON.parse(payload), channel, this.onHandlerError);
      }
    });
  }

  async subscribe(channel: string, handler: MessageHandler): Promise<() => Promise<void>> {
    if (this.closed) throw new BusClosedError();
    const subscription: Subscription = { handler, active: true };
    let subscriptions = this.channels.get(channel);
    if (!subscriptions) {
      subscriptions = new Set();
      this.channels.set(channel, subscriptions);
    }
    subscriptions.add(subscription);
    return async () => {
      subscription.active = false;
      const current = this.channels.get(channel);
      current?.delete(subscription);
      if (current?.size === 0) this.channels.delete(channel);
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const subscriptions of this.channels.values()) {
      for (const subscription of subscriptions) subscription.active = false;
    }
    this.channels.clear();
  }
}
