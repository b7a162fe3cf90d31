import type { EventBus, MessageHandler } from './event-bus.js';

/** Namespaces every channel (REDIS_PREFIX), so several stations or test runs can share one Redis. */
export class PrefixedEventBus implements EventBus {
  constructor(
    private readonly inner: EventBus,
    private readonly prefix: string,
  ) {}

  publish(channel: string, message: unknown): Promise<void> {
    return this.inner.publish(`${this.prefix}:${channel}`, message);
  }

  subscribe(channel: string, handler: MessageHandler): Promise<() => Promise<void>> {
    return this.inner.subscribe(`${this.prefix}:${channel}`, handler);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
