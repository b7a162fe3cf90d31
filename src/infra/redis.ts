/**
 * One way to open and close Redis connections, so every adapter (pub/sub, rate-limit counters) behaves the
 * same when Redis is slow to start or restarts: connect lazily, retry with a capped backoff, never crash the
 * process on a connection error. BullMQ opens its own connections from the URL (it needs blocking ones).
 */
import { Redis } from 'ioredis';

export interface RedisConnectionOptions {
  /** Shown in CLIENT LIST, which makes a busy Redis easier to read. */
  name?: string;
  /** Connection errors are reported here; ioredis keeps reconnecting meanwhile. */
  onError?: (error: Error) => void;
  /** Commands fail after this many reconnect attempts instead of waiting forever (ioredis default 20). */
  maxRetriesPerRequest?: number | null;
}

/** Reconnect quickly at first, then every 5 s at most: a Redis restart heals without a thundering herd. */
export function reconnectDelayMs(attempt: number): number {
  return Math.min(100 * 2 ** Math.max(0, attempt - 1), 5_000);
}

export function createRedisConnection(url: string, options: RedisConnectionOptions = {}): Redis {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectionName: options.name,
    maxRetriesPerRequest: options.maxRetriesPerRequest === undefined ? 20 : options.maxRetriesPerRequest,
    retryStrategy: reconnectDelayMs,
  });
  // Without a listener an 'error' event would throw and take the process down on a Redis restart.
  redis.on('error', options.onError ?? (() => undefined));
  return redis;
}

/**
 * QUIT when connected (pending replies arrive first) and resolve once the socket is gone; a never-connected
 * lazy client only needs dropping.
 */
export async function closeRedisConnection(redis: Redis): Promise<void> {
  if (redis.status === 'end') return;
  if (redis.status === 'wait') {
    redis.disconnect();
    return;
  }
  const ended = new Promise<void>((resolve) => redis.once('end', () => resolve()));
  try {
    await redis.quit();
  } catch {
    // Already closing or the server went away: either way there is nothing left to release.
    redis.disconnect();
  }
  await ended;
}
