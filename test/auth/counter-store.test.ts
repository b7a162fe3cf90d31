/**
 * The CounterStore behind login throttling and the 2FA step's attempt budget: the in-process one always,
 * the Redis one against the local Redis when REDIS_URL is set. Two throttles on one Redis stand for two
 * instances: an attacker spreading attempts over them is counted once.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { ManualClock } from '../../src/infra/clock/clock.js';
import type { CounterStore } from '../../src/infra/counters/counter-store.js';
import { InProcessCounterStore } from '../../src/infra/counters/in-process-counter-store.js';
import { RedisCounterStore } from '../../src/infra/counters/redis-counter-store.js';
import { LoginThrottle } from '../../src/auth/login-throttle.js';
import { deleteKeysUnder, eventually, keysUnder } from '../infra/support.js';

const REDIS_URL = process.env.REDIS_URL;
const redis = REDIS_URL ? new Redis(REDIS_URL, { maxRetriesPerRequest: 1 }) : null;
const prefix = `test-${randomBytes(5).toString('hex')}:auth`;

afterAll(async () => {
  if (!redis) return;
  await deleteKeysUnder(redis, prefix);
  redis.disconnect();
});

const backends: { name: string; enabled: boolean; make: (clock: ManualClock) => CounterStore }[] = [
  { name: 'InProcessCounterStore', enabled: true, make: (clock) => new InProcessCounterStore(clock) },
  { name: 'RedisCounterStore', enabled: redis !== null, make: () => new RedisCounterStore(redis!, prefix) },
];

for (const backend of backends) {
  describe.skipIf(!backend.enabled)(`CounterStore: ${backend.name}`, () => {
    const key = () => `k-${randomBytes(6).toString('hex')}`;

    it('counts concurrent increments without losing one', async () => {
      const store = backend.make(new ManualClock());
      const k = key();
      const counts = await Promise.all(Array.from({ length: 50 }, () => store.increment(k, 60_000)));
      expect(counts.sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
      expect(await store.get(k)).toBe('50');
    });

    it('sets, reads and deletes values', async () => {
      const store = backend.make(new ManualClock());
      const [a, b] = [key(), key()];
      expect(await store.get(a)).toBeNull();
      await store.set(a, 'one', 60_000);
      await store.set(b, 'two', 60_000);
      expect(await store.get(a)).toBe('one');
      await store.delete(a, b);
      expect([await store.get(a), await store.get(b)]).toEqual([null, null]);
      expect(await store.increment(a, 60_000)).toBe(1);
    });

    it('forgets a key when its time is up', async () => {
      const clock = new ManualClock();
      const store = backend.make(clock);
      const k = key();
      await store.increment(k, 50);
      clock.advance(51); // the in-process store's time; Redis expires keys by its own
      await eventually(async () => expect(await store.get(k)).toBeNull(), 2_000);
      expect(await store.increment(k, 60_000)).toBe(1);
    });

    it('lets one of many concurrent callers claim a key for a window, again only once it is over', async () => {
      const clock = new ManualClock();
      const store = backend.make(clock);
      const k = key();
      const claims = await Promise.all(Array.from({ length: 20 }, () => store.claim(k, clock.now(), 60_000)));
      expect(claims.filter(Boolean)).toHaveLength(1);
      clock.advance(59_999);
      expect(await store.claim(k, clock.now(), 60_000)).toBe(false); // a refused claim does not extend the window
      clock.advance(1);
      expect(await store.claim(k, clock.now(), 60_000)).toBe(true);
      expect(await store.claim(k, clock.now(), 60_000)).toBe(false);
    });
  });
}

describe.skipIf(!redis)('RedisCounterStore on the local Redis', () => {
  it('keeps every key under the configured prefix', async () => {
    const store = new RedisCounterStore(redis!, prefix);
    await store.increment('login:failures:abc', 60_000);
    expect(await keysUnder(redis!, prefix)).toContain(`${prefix}:login:failures:abc`);
  });

  it('lets two instances throttle one e-mail together', async () => {
    const clock = new ManualClock();
    const [first, second] = [new LoginThrottle(new RedisCounterStore(redis!, prefix), clock), new LoginThrottle(new RedisCounterStore(redis!, prefix), clock)];
    const email = `shared-${randomBytes(4).toString('hex')}@example.com`;
    for (let i = 0; i < 5; i++) await (i % 2 ? first : second).recordFailure(email, `198.18.0.${i + 1}`);
    expect(await first.retryAfterSec(email, '198.18.1.1')).toBe(30);
    expect(await second.retryAfterSec(email, '198.18.1.2')).toBe(30);
    await second.recordSuccess(email, '198.18.1.2');
    expect(await first.retryAfterSec(email, '198.18.1.3')).toBe(0);
  });
});
