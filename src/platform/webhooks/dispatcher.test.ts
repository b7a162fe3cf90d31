/**
 * The dispatcher's sweep, the relay of attempts whose job the queue lost (Redis restarted empty): it runs every
 * period, and one at a time. During a Redis outage a sweep's job adds wait for Redis to come back; the ticks
 * meanwhile must not start more sweeps that read the same attempts and wait beside it (one read per period
 * and instance is the sweep's cost). Fake timers, an in-memory repository: no database, no Redis.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../infra/clock/clock.js';
import { InProcessEventBus } from '../../infra/pubsub/in-process-bus.js';
import type { JobQueue } from '../../infra/queue/job-queue.js';
import { WebhookDispatcher, type DispatcherRepository } from './dispatcher.js';
import { SecretBox } from './secret-box.js';

const SWEEP_MS = 10_000;

/** A repository holding one pending attempt, overdue, that the start-up pass has not seen (it answers none to it). */
function repository(): DispatcherRepository & { reads: number } {
  const repo = {
    reads: 0,
    async pendingDeliveries() {
      repo.reads++;
      return repo.reads === 1 ? [] : [{ id: 'attempt-1', nextAttemptAt: new Date(0), lockedUntil: null }];
    },
    async activeWebhooksFor() {
      return [];
    },
    async insertDeliveries() {
      return [];
    },
    in: () => repo,
  };
  return repo;
}

/** A queue whose adds wait until `redisBack()` (BullMQ's, while Redis is down). */
function queueDuringOutage() {
  let redisBack!: () => void;
  const back = new Promise<void>((resolve) => (redisBack = resolve));
  const adds: string[] = [];
  const queue: JobQueue = {
    async add(_queue, _name, _data, options) {
      adds.push(options?.jobId ?? '');
      await back;
      return options?.jobId ?? '';
    },
    process: async () => undefined,
    close: async () => undefined,
  };
  return { queue, adds, redisBack };
}

describe('the sweep', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs one at a time: ticks while a sweep waits for Redis start none, and the next tick after it sweeps again', async () => {
    const repo = repository();
    const { queue, adds, redisBack } = queueDuringOutage();
    const clock = new ManualClock();
    const dispatcher = new WebhookDispatcher(repo, new SecretBox(Buffer.alloc(32, 1)), queue, clock, { sweepIntervalMs: SWEEP_MS, onError: () => undefined });
    await dispatcher.start(new InProcessEventBus());
    expect(repo.reads).toBe(1); // the start-up pass

    await vi.advanceTimersByTimeAsync(SWEEP_MS);
    expect([repo.reads, adds]).toEqual([2, ['attempt-1']]); // the first sweep found the attempt; its add waits for Redis

    await vi.advanceTimersByTimeAsync(5 * SWEEP_MS);
    expect([repo.reads, adds]).toEqual([2, ['attempt-1']]); // five ticks, no second sweep beside the waiting one

    redisBack();
    await vi.advanceTimersByTimeAsync(SWEEP_MS);
    expect([repo.reads, adds]).toEqual([3, ['attempt-1', 'attempt-1']]); // swept again once the first finished
    await dispatcher.stop();
  });
});
