/**
 * The LeaseStore contract, run against the in-process store always and the Redis store when REDIS_URL is set.
 * Two Redis stores on one prefix stand for two instances; one that stops renewing stands for a crashed one.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { LeaseStore } from '../../src/infra/leases/lease-store.js';
import { InProcessLeaseStore } from '../../src/infra/leases/in-process-lease-store.js';
import { RedisLeaseStore } from '../../src/infra/leases/redis-lease-store.js';
import { REDIS_URL, deleteKeysUnder, eventually, inspector, sleep } from './support.js';

const redis = REDIS_URL ? inspector(REDIS_URL) : null;
const prefix = `test-${randomBytes(5).toString('hex')}:leases`;

afterAll(async () => {
  if (!redis) return;
  await deleteKeysUnder(redis, prefix);
  redis.disconnect();
});

const backends: { name: string; enabled: boolean; shared: boolean; make: (ttlMs?: number) => LeaseStore }[] = [
  { name: 'InProcessLeaseStore', enabled: true, shared: false, make: () => new InProcessLeaseStore() },
  { name: 'RedisLeaseStore', enabled: redis !== null, shared: true, make: (ttlMs) => new RedisLeaseStore(redis!, prefix, { ttlMs }) },
];

for (const backend of backends) {
  describe.skipIf(!backend.enabled)(`LeaseStore contract: ${backend.name}`, () => {
    const stores: LeaseStore[] = [];
    const open = (ttlMs?: number) => {
      const store = backend.make(ttlMs);
      stores.push(store);
      return store;
    };
    const group = () => `g-${randomBytes(6).toString('hex')}`;

    afterEach(async () => {
      await Promise.all(stores.splice(0).map((store) => store.close()));
    });

    it('admits members up to max, refuses the next, and admits again once one is released', async () => {
      const store = open();
      const g = group();
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => store.acquire(g, `m${i}`, 3)));
      expect(answers.filter(Boolean)).toHaveLength(3);
      expect(await store.count(g)).toBe(3);
      const admitted = answers.flatMap((ok, i) => (ok ? [`m${i}`] : []));
      expect(await store.acquire(g, admitted[0], 3)).toBe(true); // a member already held is kept
      await store.release(g, admitted[0]);
      expect(await store.count(g)).toBe(2);
      expect(await store.acquire(g, 'late', 3)).toBe(true);
      expect(await store.acquire(g, 'later', 3)).toBe(false);
    });

    it('counts members by their part before the last @', async () => {
      const store = open();
      const g = group();
      for (const member of ['user:1@a', 'user:1@b', 'user:2@a', 'key@x@a']) await store.acquire(g, member, Infinity);
      expect(await store.count(g)).toBe(4);
      expect(await store.countDistinct(g)).toBe(3);
      await store.release(g, 'user:1@a');
      expect(await store.countDistinct(g)).toBe(3);
      await store.release(g, 'user:1@b');
      expect(await store.countDistinct(g)).toBe(2);
    });

    it.runIf(backend.shared)('shares the limit between instances, and a crashed instance’s members expire', async () => {
      const g = group();
      const live = open(300);
      const crashed = open(300);
      expect(await crashed.acquire(g, 'c1', 2)).toBe(true);
      expect(await live.acquire(g, 'l1', 2)).toBe(true);
      expect(await live.acquire(g, 'l2', 2)).toBe(false); // the other instance holds one of the two
      await crashed.close(); // stops renewing without releasing, as a crash would
      await sleep(700); // more than two lease times: the live instance renewed its own meanwhile
      expect(await live.count(g)).toBe(1);
      await eventually(async () => expect(await live.acquire(g, 'l2', 2)).toBe(true));
    });
  });
}
