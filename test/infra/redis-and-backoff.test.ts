/** The small shared pieces: the reconnect schedule, closing lazy connections, and the job backoff formula. */
import { describe, expect, it } from 'vitest';
import { closeRedisConnection, createRedisConnection, reconnectDelayMs } from '../../src/infra/redis.js';
import { BACKOFF_JITTER, backoffDelayMs } from '../../src/infra/queue/retry-policy.js';
import { REDIS_URL } from './support.js';

describe('reconnectDelayMs', () => {
  it('doubles from 100 ms and caps at 5 s', () => {
    expect([1, 2, 3, 4, 7, 50].map(reconnectDelayMs)).toEqual([100, 200, 400, 800, 5_000, 5_000]);
  });
});

describe('backoffDelayMs', () => {
  it('doubles per failed attempt and takes at most the jitter off', () => {
    expect([1, 2, 3].map((attempt) => backoffDelayMs(attempt, 100, () => 0))).toEqual([100, 200, 400]);
    expect(backoffDelayMs(3, 100, () => 1)).toBe(Math.floor(400 * (1 - BACKOFF_JITTER)));
  });
});

describe('createRedisConnection', () => {
  it('does not connect until used, and closes without ever connecting', async () => {
    const redis = createRedisConnection('redis://127.0.0.1:1');
    expect(redis.status).toBe('wait');
    await closeRedisConnection(redis);
    expect(redis.status).toBe('end');
  });

  it.skipIf(!REDIS_URL)('connects on first command and quits on close', async () => {
    const redis = createRedisConnection(REDIS_URL!, { name: 'test:redis-helper' });
    expect(await redis.ping()).toBe('PONG');
    await closeRedisConnection(redis);
    expect(redis.status).toBe('end');
    await closeRedisConnection(redis); // twice is harmless
  });
});
