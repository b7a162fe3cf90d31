/**
 * Broadcast between parts of the product and, with Redis, between instances. Every fan-out (now-playing,
 * listener counts, progress ticks, cache invalidation) goes through this port, never through a global.
 */
export type MessageHandler = (message: unknown) => void;

export interface EventBus {
  publish(channel: string, message: unknown): Promise<void>;
  /** Resolves once the subscription is live; the returned function unsubscribes. */
  subscribe(channel: string, handler: MessageHandler): Promise<() => Promise<void>>;
  close(): Promise<void>;
}
