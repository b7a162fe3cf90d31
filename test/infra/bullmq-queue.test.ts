/** What only the BullMQ queue can show: a producer and a worker on different instances, and Redis hygiene. */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BullMqJobQueue } from '../../src/infra/queue/bullmq-queue.js';
import { REDIS_URL, clientNames, deleteKeysUnder, eventually, inspector, keysUnder } from './support.js';

describe.skipIf(!REDIS_URL)('BullMqJobQueue on Redis', () => {
  let redis: Redis;
  let prefix = '';
  const queues: BullMqJobQueue[] = [];
  const open = (options: Partial<ConstructorParameters<typeof BullMqJobQueue>[0]> = {}) => {
    const queue = new BullMqJobQueue({ url: REDIS_URL!, prefix, onError: () => undefined, ...options });
    queues.push(queue);
    return queue;
  };

  beforeAll(() => {
    redis = inspector(REDIS_URL!);
  });
  afterEach(async () => {
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
});
