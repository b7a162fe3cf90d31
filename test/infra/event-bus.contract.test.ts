/** The EventBus contract, run against the in-process bus always and the Redis bus when REDIS_URL is set. */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventBus } from '../../src/infra/pubsub/event-bus.js';
import { InProcessEventBus } from '../../src/infra/pubsub/in-process-bus.js';
import { RedisEventBus } from '../../src/infra/pubsub/redis-bus.js';
import { REDIS_URL, eventually } from './support.js';

type ErrorReporter = (error: unknown, channel: string) => void;

const backends: { name: string; enabled: boolean; make: (onError: ErrorReporter) => EventBus }[] = [
  { name: 'InProcessEventBus', enabled: true, make: (onError) => new InProcessEventBus({ onHandlerError: onError }) },
  {
    name: 'RedisEventBus',
    enabled: Boolean(REDIS_URL),
    make: (onError) => new RedisEventBus({ url: REDIS_URL!, onError, connectionName: 'test:bus' }),
  },
];

/*
 * "Nothing more arrives" is checked with a barrier, not a pause: a message published after, by the same bus,
 * on the channel watched. Both buses deliver one publisher's messages in order, so once the barrier is in,
 * anything that was going to arrive before it has.
 */
const BARRIER = '--barrier--';

for (const backend of backends) {
  describe.skipIf(!backend.enabled)(`EventBus contract: ${backend.name}`, () => {
    const buses: EventBus[] = [];
    const errors: unknown[] = [];
    const channel = () => `test:${randomUUID()}`;
    const open = () => {
      const bus = backend.make((error) => errors.push(error));
      buses.push(bus);
      return bus;
    };

    afterEach(async () => {
      await Promise.all(buses.splice(0).map((bus) => bus.close()));
      errors.length = 0;
    });

    it('fans a message out to every subscriber of the channel, and only that channel', async () => {
      const bus = open();
      const ch = channel();
      const elsewhere = channel();
      const received: string[] = [];
      await bus.subscribe(ch, (m) => received.push(`a:${JSON.stringify(m)}`));
      await bus.subscribe(ch, (m) => received.push(`b:${JSON.stringify(m)}`));
      await bus.subscribe(elsewhere, (m) => received.push(`other:${JSON.stringify(m)}`));

      await bus.publish(ch, { trackId: 't1', listeners: 3 });
      await bus.publish(ch, BARRIER);
      await bus.publish(elsewhere, BARRIER);

      await eventually(() => expect(received.filter((r) => r.includes(BARRIER))).toHaveLength(3));
      expect(received.filter((r) => !r.includes(BARRIER)).sort()).toEqual(['a:{"trackId":"t1","listeners":3}', 'b:{"trackId":"t1","listeners":3}']);
    });

    it('delivers asynchronously, never inside publish', async () => {
      const bus = open();
      const ch = channel();
      const received: unknown[] = [];
      await bus.subscribe(ch, (m) => received.push(m));
      await bus.publish(ch, 1);
      expect(received).toEqual([]);
      await eventually(() => expect(received).toEqual([1]));
    });

    it('delivers JSON: each handler gets its own copy, Dates arrive as strings', async () => {
      const bus = open();
      const ch = channel();
      const copies: { list: number[]; at: unknown }[] = [];
      const message = { list: [1], at: new Date(Date.UTC(2026, 0, 1)) };
      const mutate = (m: unknown) => {
        const copy = m as { list: number[]; at: unknown };
        copy.list.push(99);
        copies.push(copy);
      };
      await bus.subscribe(ch, mutate);
      await bus.subscribe(ch, mutate);
      await bus.publish(ch, message);
      await eventually(() => expect(copies).toHaveLength(2));
      expect(copies.map((c) => c.list)).toEqual([
        [1, 99],
        [1, 99],
      ]);
      expect(copies[0].at).toBe('2026-01-01T00:00:00.000Z');
      expect(message.list).toEqual([1]);
    });

    it('stops delivering to an unsubscribed handler and keeps the others', async () => {
      const bus = open();
      const ch = channel();
      const kept: unknown[] = [];
      const dropped: unknown[] = [];
      await bus.subscribe(ch, (m) => kept.push(m));
      const unsubscribe = await bus.subscribe(ch, (m) => dropped.push(m));

      await bus.publish(ch, 'first');
      await eventually(() => expect(dropped).toEqual(['first']));
      await unsubscribe();
      await unsubscribe(); // twice is harmless
      await bus.publish(ch, 'second');

      await bus.publish(ch, BARRIER);
      await eventually(() => expect(kept).toEqual(['first', 'second', BARRIER]));
      expect(dropped).toEqual(['first']);
    });

    it('counts the same handler subscribed twice as two subscriptions', async () => {
      const bus = open();
      const ch = channel();
      const received: unknown[] = [];
      const handler = (m: unknown) => received.push(m);
      const first = await bus.subscribe(ch, handler);
      await bus.subscribe(ch, handler);
      await first();
      await bus.publish(ch, 'x');
      await bus.publish(ch, BARRIER);
      await eventually(() => expect(received).toContain(BARRIER));
      expect(received).toEqual(['x', BARRIER]);
    });

    it('isolates a throwing or rejecting handler from the publisher and the other handlers', async () => {
      const bus = open();
      const ch = channel();
      const received: unknown[] = [];
      await bus.subscribe(ch, () => {
        throw new Error('sync boom');
      });
      await bus.subscribe(ch, async () => {
        throw new Error('async boom');
      });
      await bus.subscribe(ch, (m) => received.push(m));

      await expect(bus.publish(ch, 'one')).resolves.toBeUndefined();
      await bus.publish(ch, 'two');

      await eventually(() => expect(received).toEqual(['one', 'two']));
      await eventually(() => expect(errors.map((e) => (e as Error).message).sort()).toEqual(['async boom', 'async boom', 'sync boom', 'sync boom']));
    });

    it('publishes to a channel nobody listens to without error', async () => {
      const bus = open();
      await expect(bus.publish(channel(), { nobody: true })).resolves.toBeUndefined();
    });

    it('refuses to publish or subscribe once closed', async () => {
      const bus = open();
      const ch = channel();
      const received: unknown[] = [];
      await bus.subscribe(ch, (m) => received.push(m));
      await bus.close();
      await expect(bus.publish(ch, 'late')).rejects.toThrow(/closed/);
      await expect(bus.subscribe(ch, () => undefined)).rejects.toThrow(/closed/);
      await bus.close(); // idempotent
      expect(received).toEqual([]);
    });
  });
}
