/** What only the Redis bus can show: two instances ("servers") talking, and the connections it holds. */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RedisEventBus } from '../../src/infra/pubsub/redis-bus.js';
import { REDIS_URL, clientNames, eventually, inspector } from './support.js';

describe.skipIf(!REDIS_URL)('RedisEventBus across connections', () => {
  let redis: Redis;
  const buses: RedisEventBus[] = [];
  const open = (connectionName = `test:bus:${randomUUID()}`) => {
    const bus = new RedisEventBus({ url: REDIS_URL!, connectionName, onError: () => undefined });
    buses.push(bus);
    return bus;
  };

  beforeAll(() => {
    redis = inspector(REDIS_URL!);
  });
  afterEach(async () => {
    await Promise.all(buses.splice(0).map((bus) => bus.close()));
  });
  afterAll(async () => {
    await redis.quit();
  });

  it('delivers a message published on one instance to subscribers on another', async () => {
    const serverA = open();
    const serverB = open();
    const ch = `test:${randomUUID()}`;
    const onA: unknown[] = [];
    const onB: unknown[] = [];
    await serverA.subscribe(ch, (m) => onA.push(m));
    await serverB.subscribe(ch, (m) => onB.push(m));

    // No wait between subscribe and publish: subscribe resolved only once Redis acknowledged it.
    await serverB.publish(ch, { nowPlaying: 'gen-42' });

    await eventually(() => {
      expect(onA).toEqual([{ nowPlaying: 'gen-42' }]);
      expect(onB).toEqual([{ nowPlaying: 'gen-42' }]);
    });
  });

  it('shares one SUBSCRIBE per channel and drops it when the last handler leaves', async () => {
    const bus = open();
    const ch = `test:${randomUUID()}`;
    const numsub = async () => Number(((await redis.pubsub('NUMSUB', ch)) as [string, number])[1]);
    const first = await bus.subscribe(ch, () => undefined);
    const second = await bus.subscribe(ch, () => undefined);
    expect(await numsub()).toBe(1);
    await first();
    expect(await numsub()).toBe(1);
    await second();
    await eventually(async () => expect(await numsub()).toBe(0));

    // Subscribing again after the UNSUBSCRIBE works: the commands run in order on the one connection.
    const received: unknown[] = [];
    await bus.subscribe(ch, (m) => received.push(m));
    await open().publish(ch, 'again');
    await eventually(() => expect(received).toEqual(['again']));
  });

  it('subscribes concurrently to the same channel without losing anyone', async () => {
    const bus = open();
    const ch = `test:${randomUUID()}`;
    const received: string[] = [];
    await Promise.all(['a', 'b', 'c'].map((who) => bus.subscribe(ch, () => received.push(who))));
    await open().publish(ch, 1);
    await eventually(() => expect(received.sort()).toEqual(['a', 'b', 'c']));
  });

  it('uses one publisher and one subscriber connection, and close quits both', async () => {
    const name = `test:bus:${randomUUID()}`;
    const bus = open(name);
    for (let i = 0; i < 5; i += 1) await bus.subscribe(`test:${randomUUID()}`, () => undefined);
    await bus.publish(`test:${randomUUID()}`, 'x');
    const mine = async () => (await clientNames(redis)).filter((n) => n.startsWith(name)).sort();
    expect(await mine()).toEqual([`${name}:pub`, `${name}:sub`]);
    await bus.close();
    await eventually(async () => expect(await mine()).toEqual([]));
  });

  it('reports a message that is not JSON instead of handing it to handlers', async () => {
    const errors: unknown[] = [];
    const bus = new RedisEventBus({ url: REDIS_URL!, onError: (e) => errors.push(e) });
    buses.push(bus);
    const ch = `test:${randomUUID()}`;
    const received: unknown[] = [];
    await bus.subscribe(ch, (m) => received.push(m));
    await redis.publish(ch, 'not json{');
    await redis.publish(ch, '"fine"');
    await eventually(() => expect(received).toEqual(['fine']));
    expect(errors).toHaveLength(1);
  });

  it('closes cleanly when it never connected', async () => {
    const bus = open();
    await expect(bus.close()).resolves.toBeUndefined();
  });
});
