/**
 * What only the BullMQ queue can show: a producer and a worker on different instances, Redis hygiene, and
 * the schedule it hands BullMQ (delays, backoff, what is left pending), read back from Redis rather than
 * timed: when a delayed job becomes due is BullMQ's business.
 */
import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BullMqJobQueue } from '../../src/infra/queue/bullmq-queue.js';
import { REDIS_URL, clientNames, deleteKeysUnder, eventually, inspector, keysUnder } from './support.js';

describe.skipIf(!REDIS_URL)('BullMqJobQueue on Redis', () => {
  let redis: Redis;
  let prefix = '';
  const queues: BullMqJobQueue[] = [];
  const readers: Queue[] = [];
  const open = (options: Partial<ConstructorParameters<typeof BullMqJobQueue>[0]> = {}) => {
    const queue = new BullMqJobQueue({ url: REDIS_URL!, prefix, onError: () => undefined, ...options });
    queues.push(queue);
    return queue;
  };
  /** A job as BullMQ holds it in Redis. */
  const stored = async (queue: string, id: string) => {
    const reader = new Queue(queue, { connection: { url: REDIS_URL! }, prefix });
    readers.push(reader);
    const job = await reader.getJob(id);
    if (!job) throw new Error(`no job ${id} in ${queue}`);
    return { job, state: await job.getState() };
  };

  beforeAll(() => {
    redis = inspector(REDIS_URL!);
  });
  afterEach(async () => {
    await Promise.all(readers.splice(0).map((reader) => reader.close()));
    await Promise.all(queues.splice(0).map((queue) => queue.close()));
    await deleteKeysUnder(redis, prefix);
  });
  afterAll(async () => {
    await redis.quit();
  });

  it('runs on a worker instance a job added by another instance, with the same id', async () => {
    prefix = `test-station-${randomUUID()}`;
    const api = open();
    const worker = open();
    const seen: string[] = [];
    await worker.process('render', async (job) => {
      seen.push(`${job.id}:${job.data.generationId}`);
    });
    const id = await api.add('render', 'render', { generationId: 'g7' });
    await eventually(() => expect(seen).toEqual([`${id}:g7`]));
  });

  it('dedupes across instances: a jobId queued by one is ignored when another adds it', async () => {
    prefix = `test-station-${randomUUID()}`;
    const a = open();
    const b = open();
    const first = await a.add('train', 'train', {}, { jobId: 'train:lyrics', delayMs: 200 });
    const second = await b.add('train', 'train', {}, { jobId: 'train:lyrics' });
    expect(second).toBe(first);
  });

  it('keeps every key under its prefix and bounds the completed history', async () => {
    prefix = `test-station-${randomUUID()}`;
    const queue = open({ removeOnComplete: { count: 2 } });
    let done = 0;
    await queue.process('bounded', async () => {
      done += 1;
    });
    for (let n = 0; n < 5; n += 1) await queue.add('bounded', 'x', { n });
    await eventually(() => expect(done).toBe(5));
    await eventually(async () => expect(await redis.zcard(`${prefix}:bounded:completed`)).toBe(2));
    const keys = await keysUnder(redis, prefix);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.every((key) => key.startsWith(`${prefix}:bounded:`))).toBe(true);
  });

  it('leaves no worker connection open after close', async () => {
    prefix = `test-station-${randomUUID()}`;
    // BullMQ names worker connections `<prefix>:<base64 queue name>...`, which the unique prefix makes ours.
    const mine = async () => (await clientNames(redis)).filter((name) => name.startsWith(`${prefix}:`));
    const queue = open();
    await queue.process('c', async () => undefined);
    await queue.add('c', 'x', {});
    await eventually(async () => expect((await mine()).length).toBeGreaterThan(0));
    await queue.close();
    await eventually(async () => expect(await mine()).toEqual([]));
  });

  it('hands BullMQ a delayed job as delayed, with its delay', async () => {
    prefix = `test-station-${randomUUID()}`;
    const queue = open();
    const id = await queue.add('later', 'later', {}, { delayMs: 60_000 });
    const { job, state } = await stored('later', id);
    expect(state).toBe('delayed');
    expect(job.opts.delay).toBe(60_000);
  });

  it('parks a failed attempt in the delayed set with the shared backoff policy', async () => {
    prefix = `test-station-${randomUUID()}`;
    const failed: number[] = [];
    const queue = open({ onError: (_error, job) => failed.push(job.attempt) });
    await queue.process('flaky', async () => {
      throw new Error('not yet');
    });
    const id = await queue.add('flaky', 'flaky', {}, { attempts: 3, backoffMs: 60_000 });
    await eventually(() => expect(failed).toEqual([1]));
    await eventually(async () => expect((await stored('flaky', id)).state).toBe('delayed'));
    const { job } = await stored('flaky', id);
    expect(job.opts.backoff).toEqual({ type: 'exponential', delay: 60_000, jitter: 0.2 });
    expect(job.attemptsMade).toBe(1);
  });

  it('leaves nothing pending after a success or the last attempt: completed and failed', async () => {
    prefix = `test-station-${randomUUID()}`;
    const queue = open();
    await queue.process('jobs', async (job) => {
      if (job.data.fails === 'always' || (job.data.fails === 'once' && job.attempt === 1)) throw new Error('no');
    });
    const recovers = await queue.add('jobs', 'x', { fails: 'once' }, { attempts: 3, backoffMs: 20 });
    const doomed = await queue.add('jobs', 'x', { fails: 'always' }, { attempts: 2, backoffMs: 20 });
    const single = await queue.add('jobs', 'x', { fails: 'always' });
    await eventually(async () => expect((await stored('jobs', recovers)).state).toBe('completed'));
    await eventually(async () => expect((await stored('jobs', doomed)).state).toBe('failed'));
    await eventually(async () => expect((await stored('jobs', single)).state).toBe('failed'));
    // attemptsMade of a finished job: every attempt run, the last one included.
    expect((await stored('jobs', recovers)).job.attemptsMade).toBe(2);
    expect((await stored('jobs', doomed)).job.attemptsMade).toBe(2);
    expect((await stored('jobs', single)).job.attemptsMade).toBe(1);
  });

  it('keeps a job that had not started at close waiting, for the next worker', async () => {
    prefix = `test-station-${randomUUID()}`;
    const first = open();
    const ran: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    await first.process('q', async (job) => {
      ran.push(`first:${job.data.n}`);
      await gate;
    });
    await first.add('q', 'x', { n: 1 });
    const waiting = await first.add('q', 'x', { n: 2 });
    await eventually(() => expect(ran).toEqual(['first:1']));
    const closing = first.close();
    release();
    await closing;
    expect((await stored('q', waiting)).state).toBe('waiting');
    const next = open();
    await next.process('q', async (job) => void ran.push(`next:${job.data.n}`));
    await eventually(() => expect(ran).toEqual(['first:1', 'next:2']));
  });
});
