/**
 * The EventBus across instances: Redis PUBLISH/SUBSCRIBE with JSON messages. A subscribed Redis connection
 * can run nothing but (UN)SUBSCRIBE, so there are two: one to publish, and one subscriber shared by every
 * subscription of this instance (one SUBSCRIBE per channel, however many handlers listen to it).
 */
import type { Redis } from 'ioredis';
import type { EventBus, MessageHandler } from './event-bus.js';
import { BusClosedError, type BusErrorReporter, deliverIsolated, reportToConsole } from './delivery.js';
import { closeRedisConnection, createRedisConnection } from '../redis.js';

export interface RedisEventBusOptions {
  url: string;
  /** Where a throwing handler, an unreadable message or a connection error is reported; defaults to console.error. */
  onError?: BusErrorReporter;
  /** Prefix of the two connection names in CLIENT LIST (default `station:bus`). */
  connectionName?: string;
  /** Reconnect attempts a publish waits through before it fails (ioredis maxRetriesPerRequest; default 20, ~75 s). */
  publishRetries?: number;
}

interface Subscription {
  handler: MessageHandler;
}

interface ChannelState {
  subscriptions: Set<Subscription>;
  /** Settles when Redis acknowledged the SUBSCRIBE; later subscribers of the channel wait on it too. */
  subscribed: Promise<unknown>;
}

export class RedisEventBus implements EventBus {
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private readonly channels = new Map<string, ChannelState>();
  private readonly onError: BusErrorReporter;
  private closed = false;

  constructor(options: RedisEventBusOptions) {
    this.onError = options.onError ?? reportToConsole;
    const onConnectionError = (error: Error) => this.onError(error, '(connection)');
    const name = options.connectionName ?? 'station:bus';
    this.publisher = createRedisConnection(options.url, {
      name: `${name}:pub`,
      onError: onConnectionError,
      maxRetriesPerRequest: options.publishRetries,
    });
    this.subscriber = createRedisConnection(options.url, { name: `${name}:sub`, onError: onConnectionError });
    this.subscriber.on('message', (channel: string, raw: string) => this.dispatch(channel, raw));
  }

  async publish(channel: string, message: unknown): Promise<void> {
    if (this.closed) throw new BusClosedError();
    await this.publisher.publish(channel, JSON.stringify(message ?? null));
  }

  async subscribe(channel: string, handler: MessageHandler): Promise<() => Promise<void>> {
    if (this.closed) throw new BusClosedError();
    const subscription: Subscription = { handler };
    let state = this.channels.get(channel);
    if (!state) {
      state = { subscriptions: new Set(), subscribed: this.subscriber.subscribe(channel) };
      this.channels.set(channel, state);
    }
    state.subscriptions.add(subscription);
    try {
      await state.subscribed;
    } catch (error) {
      await this.remove(channel, subscription);
      throw error;
    }
    return () => this.remove(channel, subscription);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.channels.clear();
    await Promise.all([closeRedisConnection(this.publisher), closeRedisConnection(this.subscriber)]);
  }

  private async remove(channel: string, subscription: Subscription): Promise<void> {
    const state = this.channels.get(channel);
    if (!state || !state.subscriptions.delete(subscription)) return;
    if (state.subscriptions.size > 0) return;
    this.channels.delete(channel);
    // Commands on one connection run in order, so a SUBSCRIBE sent after this one still wins.
    if (!this.closed) await this.subscriber.unsubscribe(channel);
  }

  private dispatch(channel: string, raw: string): void {
    const state = this.channels.get(channel);
    if (!state) return;
    let message: unknown;
    try {
      message = JSON.parse(raw);
    } catch (error) {
      // Someone outside the product published on our channel; drop it rather than hand handlers garbage.
      this.onError(error, channel);
      return;
    }
    for (const subscription of [...state.subscriptions]) {
      // A handler may unsubscribe another one of the same channel while this message is being delivered.
      if (!state.subscriptions.has(subscription)) continue;
      // Each handler gets its own copy, as on the in-process bus.
      const copy = state.subscriptions.size > 1 ? structuredClone(message) : message;
      deliverIsolated(subscription.handler, copy, channel, this.onError);
    }
  }
}
