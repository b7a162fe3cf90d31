/**
 * The timing of the in-process JobQueue on a hand-driven clock: delays, the backoff between attempts, that
 * nothing runs after the last attempt or after close, and the close timeout, each checked on both sides of
 * its bound. (The JobQueue contract checks the same behaviour on both queues without timing it; BullMQ's
 * scheduling is checked in bullmq-queue.test.ts by reading the jobs back from Redis.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ManualTimers } from '../../src/infra/clock/timers.js';
import { InProcessJobQueue } from '../../src/infra/queue/in-process-queue.js';
import type { Job } from '../../src/infra/queue/job-queue.js';
import { backoffDelayMs } from '../../src/infra/queue/retry-policy.js';
import { eventually } from './support.js';

/** Lets promise chains (a handler's end, the next job's start) run to completion. */
async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

describe('InProcessJobQueue on a hand-driven clock', () => {
  const queues: InProcessJobQueue[] = [];
  let timers: ManualTimers;
  const failures: { attempt: number; final: boolean }[] = [];
  const open = (options: { closeTimeoutMs?: number; random?: () => number } = {}) => {
    timers = new ManualTimers();
    const queue = new InProcessJobQueue({ timers, onError: (_error, job, final) => failures.push({ attempt: job.attempt, final }), ...options });
    queues.push(queue);
    return queue;
  };

  afterEach(async () => {
    failures.length = 0;
    const closing = Promise.all(queues.splice(0).map((queue) => queue.close()));
    timers.advance(60_000); // past any close timeout
    await closing;
  });

  it('runs a delayed job at its delay, not a millisecond before', async () => {
    const queue = open();
    const ran: string[] = [];
    await queue.process('q', async (job) => void ran.push(job.name));
    await queue.add('q', 'later', {}, { delayMs: 400 });
    await queue.add('q', 'now', {});
    await eventually(() => expect(ran).toEqual(['now']));
    timers.advance(399);
    await settle();
    expect(ran).toEqual(['now']);
    timers.advance(1);
    await eventually(() => expect(ran).toEqual(['now', 'later']));
  });

  it('waits the exponential backoff between attempts, and nothing runs after the one that succeeded', async () => {
    const queue = open({ random: () => 0.5 });
    const attempts: number[] = [];
    await queue.process('q', async (job: Job) => {
      attempts.push(job.attempt);
      if (job.attempt < 3) throw new Error(`fail ${job.attempt}`);
    });
    await queue.add('q', 'flaky', {}, { attempts: 4, backoffMs: 100 });
    await eventually(() => expect(attempts).toEqual([1]));
    for (const failed of [1, 2]) {
      const wait = backoffDelayMs(failed, 100, () => 0.5); // 90 then 180: base doubling, jitter pinned at 10 %
      timers.advance(wait - 1);
      await settle();
      expect(attempts).toHaveLength(failed);
      timers.advance(1);
      await eventually(() => expect(attempts).toHaveLength(failed + 1));
    }
    await settle();
    expect(timers.pending()).toBe(0); // no retry scheduled after the success
    timers.advance(60_000);
    await settle();
    expect(attempts).toEqual([1, 2, 3]);
    expect(failures).toEqual([
      { attempt: 1, final: false },
      { attempt: 2, final: false },
    ]);
  });

  it('runs nothing after the last attempt failed, nor a second time a job that has one attempt', async () => {
    const queue = open();
    const calls: string[] = [];
    await queue.process('q', async (job) => {
      calls.push(`${job.name}@${job.attempt}`);
      throw new Error('always');
    });
    await queue.add('q', 'doomed', {}, { attempts: 2, backoffMs: 20 });
    await queue.add('q', 'single', {});
    await eventually(() => expect(calls).toEqual(['doomed@1', 'single@1']));
    timers.advance(20);
    await eventually(() => expect(calls).toEqual(['doomed@1', 'single@1', 'doomed@2']));
    await settle();
    expect(timers.pending()).toBe(0);
    timers.advance(60_000);
    await settle();
    expect(calls).toEqual(['doomed@1', 'single@1', 'doomed@2']);
    expect(failures.map((f) => f.final)).toEqual([false, true, true]);
  });

  it('starts nothing after close: queued and delayed jobs are dropped', async () => {
    const queue = open();
    const ran: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    await queue.process('q', async (job) => {
      ran.push(job.name);
      if (job.name === 'first') await gate;
    });
    await queue.add('q', 'first', {});
    await queue.add('q', 'queued', {});
    await queue.add('q', 'delayed', {}, { delayMs: 100 });
    await eventually(() => expect(ran).toEqual(['first']));
    const closing = queue.close();
    release();
    await closing;
    timers.advance(60_000);
    await settle();
    expect(ran).toEqual(['first']);
  });

  it('waits for a stuck job exactly until the close timeout', async () => {
    const queue = open({ closeTimeoutMs: 200 });
    let started = false;
    await queue.process('q', () => {
      started = true;
      return new Promise<void>(() => undefined); // never finishes
    });
    await queue.add('q', 'stuck', {});
    await eventually(() => expect(started).toBe(true));
    let closed = false;
    const closing = queue.close().then(() => (closed = true));
    timers.advance(199);
    await settle();
    expect(closed).toBe(false);
    timers.advance(1);
    await closing;
    expect(closed).toBe(true);
  });
});
