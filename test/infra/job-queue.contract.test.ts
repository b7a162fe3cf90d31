/** The JobQueue contract, run against the in-process queue always and BullMQ when REDIS_URL is set. */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BullMqJobQueue } from '../../src/infra/queue/bullmq-queue.js';
import { InProcessJobQueue } from '../../src/infra/queue/in-process-queue.js';
import type { Job, JobQueue } from '../../src/infra/queue/job-queue.js';
import { REDIS_URL, deleteKeysUnder, eventually, inspector, keysUnder, sleep } from './support.js';

interface Failure {
  error: unknown;
  job: Job;
  final: boolean;
}
interface MakeOptions {
  onError: (error: unknown, job: Job, final: boolean) => void;
  closeTimeoutMs?: number;
}

const backends: { name: string; enabled: boolean; make: (options: MakeOptions, prefix: string) => JobQueue }[] = [
  { name: 'InProcessJobQueue', enabled: true, make: (options) => new InProcessJobQueue(options) },
  {
    name: 'BullMqJobQueue',
    enabled: Boolean(REDIS_URL),
    make: (options, prefix) => new BullMqJobQueue({ url: REDIS_URL!, prefix, ...options }),
  },
];

for (const backend of backends) {
  describe.skipIf(!backend.enabled)(`JobQueue contract: ${backend.name}`, () => {
    let redis: Redis | null = null;
    let prefix = '';
    const queues: JobQueue[] = [];
    const failures: Failure[] = [];
    const open = (options: Partial<MakeOptions> = {}) => {
      const queue = backend.make({ onError: (error, job, final) => failures.push({ error, job, final }), ...options }, prefix);
      queues.push(queue);
      return queue;
    };
    const name = () => `q-${randomUUID().slice(0, 8)}`;

    beforeAll(() => {
      if (REDIS_URL) redis = inspector(REDIS_URL);
    });
    // Every test gets its own key prefix on Redis, deleted afterwards.
    afterEach(async () => {
      await Promise.all(queues.splice(0).map((queue) => queue.close()));
      failures.length = 0;
      if (redis) {
        await deleteKeysUnder(redis, prefix);
        expect(await keysUnder(redis, prefix)).toEqual([]);
      }
    });
    afterAll(async () => {
      await redis?.quit();
    });
    const freshPrefix = () => {
      prefix = `test-station-${randomUUID()}`;
    };

    it('runs a job with its name, data, id and first attempt', async () => {
      freshPrefix();
      const queue = open();
      const q = name();
      const seen: Job[] = [];
      await queue.process(q, async (job) => {
        seen.push(job);
      });
      const id = await queue.add(q, 'render', { generationId: 'g1', nested: { n: 1 } });
      await eventually(() => expect(seen).toHaveLength(1));
      expect(seen[0]).toEqual({ id, queue: q, name: 'render', data: { generationId: 'g1', nested: { n: 1 } }, attempt: 1 });
    });

    it('keeps jobs added before a worker exists and runs them in order once it does', async () => {
      freshPrefix();
      const queue = open();
      const q = name();
      for (const n of [1, 2, 3]) await queue.add(q, 'step', { n });
      const order: unknown[] = [];
      await queue.process(q, async (job) => {
        order.push(job.data.n);
      });
      await eventually(() => expect(order).toEqual([1, 2, 3]));
    });

    it('keeps named queues apart', async () => {
      freshPrefix();
      const queue = open();
      const [a, b] = [name(), name()];
      const ran: string[] = [];
      await queue.process(a, async (job) => {
        ran.push(`${job.queue}:${job.data.n}`);
      });
      await queue.add(a, 'x', { n: 1 });
      await queue.add(b, 'x', { n: 2 });
      await eventually(() => expect(ran).toEqual([`${a}:1`]));
      await sleep(100);
      expect(ran).toEqual([`${a}:1`]);
    });

    it('never runs more jobs of a queue at once than its concurrency', async () => {
      freshPrefix();
      const queue = open();
      const q = name();
      let running = 0;
      let peak = 0;
      let done = 0;
      await queue.process(
        q,
        async () => {
          running += 1;
          peak = Math.max(peak, running);
          await sleep(80);
          running -= 1;
          done += 1;
        },
        { concurrency: 2 },
      );
      for (let n = 0; n < 6; n += 1) await queue.add(q, 'slow', { n });
      await eventually(() => expect(done).toBe(6));
      expect(peak).toBe(2);
    });

    it('does not run a delayed job early', async () => {
      freshPrefix();
      const queue = open();
      const q = name();
      let ranAt = 0;
      await queue.process(q, async () => {
        ranAt = Date.now();
      });
      const addedAt = Date.now();
      await queue.add(q, 'later', {}, { delayMs: 400 });
      await sleep(250);
      expect(ranAt).toBe(0);
      await eventually(() => expect(ranAt).toBeGreaterThan(0));
      expect(ranAt - addedAt).toBeGreaterThanOrEqual(390);
    });

    it('retries a failing job with exponential backoff until it succeeds', async () => {
      freshPrefix();
      const queue = open();
      const q = name();
      const attempts: { attempt: number; at: number }[] = [];
      await queue.process(q, async (job) => {
        attempts.push({ attempt: job.attempt, at: Date.now() });
        if (job.attempt < 3) throw new Error(`fail ${job.attempt}`);
      });
      await queue.add(q, 'flaky', { id: 'x' }, { attempts: 4, backoffMs: 100 });

      await eventually(() => expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3]));
      // Backoff base 100 ms, doubling, with up to 20% jitter off: >= 80 ms, then >= 160 ms.
      expect(attempts[1].at - attempts[0].at).toBeGreaterThanOrEqual(75);
      expect(attempts[2].at - attempts[1].at).toBeGreaterThanOrEqual(155);
      await sleep(300);
      expect(attempts).toHaveLength(3);
      await eventually(() =>
        expect(failures.map((f) => [f.job.attempt, f.final, (f.error as Error).message])).toEqual([
          [1, false, 'fail 1'],
          [2, false, 'fail 2'],
        ]),
      );
    });

    it('gives up after the last attempt and reports it as final', async () => {
      freshPrefix();
      const queue = open();
      const q = name();
      let calls = 0;
      await queue.process(q, async () => {
        calls += 1;
        throw new Error('always');
      });
      await queue.add(q, 'doomed', {}, { attempts: 2, backoffMs: 20 });
      await eventually(() => expect(failures.map((f) => [f.job.attempt, f.final])).toEqual([[1, false], [2, true]]));
      await sleep(150);
      expect(calls).toBe(2);
    });

    it('runs a job once by default when it fails', async () => {
      freshPrefix();
      const queue = open();
      const q = name();
      let calls = 0;
      await queue.process(q, async () => {
        calls += 1;
        throw new Error('once');
      });
      await queue.add(q, 'single', {});
      await eventually(() => expect(failures.map((f) => f.final)).toEqual([true]));
      await sleep(100);
      expect(calls).toBe(1);
    });

    it('ignores a duplicate jobId while the job is queued, and accepts it again once done', async () => {
      freshPrefix();
      const queue = open();
      const q = name();
      const first = await queue.add(q, 'train', { n: 1 }, { jobId: 'train:lyrics' });
      const second = await queue.add(q, 'train', { n: 2 }, { jobId: 'train:lyrics' });
      const other = await queue.add(q, 'train', { n: 3 }, { jobId: 'train:melody' });
      expect(second).toBe(first);
      expect(other).not.toBe(first);

      const ran: unknown[] = [];
      await queue.process(q, async (job) => {
        ran.push(job.data.n);
      });
      await eventually(() => expect(ran).toEqual([1, 3]));
      await sleep(100);
      expect(ran).toEqual([1, 3]);

      await queue.add(q, 'train', { n: 4 }, { jobId: 'train:lyrics' });
      await eventually(() => expect(ran).toEqual([1, 3, 4]));
    });

    it('ignores a duplicate jobId while the job is running or waiting to retry', async () => {
      freshPrefix();
      const queue = open();
      const q = name();
      const ran: string[] = [];
      let release!: () => void;
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      await queue.process(q, async (job) => {
        ran.push(`${job.data.n}@${job.attempt}`);
        if (job.attempt === 1) throw new Error('retry me');
        await gate;
      });
      await queue.add(q, 'x', { n: 1 }, { jobId: 'k', attempts: 2, backoffMs: 150 });
      await eventually(() => expect(ran).toEqual(['1@1']));
      await queue.add(q, 'x', { n: 2 }, { jobId: 'k' }); // waiting for its retry
      await eventually(() => expect(ran).toEqual(['1@1', '1@2']));
      await queue.add(q, 'x', { n: 3 }, { jobId: 'k' }); // running
      release();
      await sleep(200);
      expect(ran).toEqual(['1@1', '1@2']);
    });

    it('on close waits for the running job, starts no other, and refuses new ones', async () => {
      freshPrefix();
      const queue = open();
      const q = name();
      const events: string[] = [];
      await queue.process(q, async (job) => {
        events.push(`start ${job.data.n}`);
        await sleep(300);
        events.push(`end ${job.data.n}`);
      });
      await queue.add(q, 'x', { n: 1 });
      await queue.add(q, 'x', { n: 2 });
      await eventually(() => expect(events).toEqual(['start 1']));

      await queue.close();
      expect(events).toEqual(['start 1', 'end 1']);
      await sleep(350);
      expect(events).toEqual(['start 1', 'end 1']);
      await expect(queue.add(q, 'x', { n: 3 })).rejects.toThrow(/closed/);
      await expect(queue.process(name(), async () => undefined)).rejects.toThrow(/closed/);
    });

    it('stops waiting for a stuck job after the close timeout', async () => {
      freshPrefix();
      const queue = open({ closeTimeoutMs: 200 });
      const q = name();
      let started = false;
      await queue.process(q, async () => {
        started = true;
        await sleep(1_500);
      });
      await queue.add(q, 'stuck', {});
      await eventually(() => expect(started).toBe(true));
      const before = Date.now();
      await queue.close();
      expect(Date.now() - before).toBeLessThan(1_000);
    });

    it('refuses a second worker for the same queue', async () => {
      freshPrefix();
      const queue = open();
      const q = name();
      await queue.process(q, async () => undefined);
      await expect(queue.process(q, async () => undefined)).rejects.toThrow(/already has a worker/);
    });
  });
}
