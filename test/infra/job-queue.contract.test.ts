/**
 * The JobQueue contract, run against the in-process queue always and BullMQ when REDIS_URL is set.
 * Behaviour only, never timing: how long delays and backoffs last is checked on a hand-driven clock in
 * in-process-queue.test.ts, and for BullMQ by reading the jobs back from Redis in bullmq-queue.test.ts.
 * "Nothing else runs" is checked with a barrier job: jobs of one queue start in the order they were added.
 */
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
      expect(seen[0]).toEqual({ id, queue: q, name: 'render', data: { generationId: 'g1', nested: { n: 1 } }, attempt: 1, redelivered: false });
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
        ran.push(`worker a ran ${job.queue}:${job.data.n}`);
      });
      await queue.add(a, 'x', { n: 1 });
      await queue.add(b, 'x', { n: 2 });
      await eventually(() => expect(ran).toEqual([`worker a ran ${a}:1`]));
      // b's job waited for a worker of its own: it runs there, once (a job that worker a had taken would be gone).
      await queue.process(b, async (job) => {
        ran.push(`worker b ran ${job.queue}:${job.data.n}`);
      });
      await eventually(() => expect(ran).toEqual([`worker a ran ${a}:1`, `worker b ran ${b}:2`]));
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
          await sleep(80); // the job's work
          running -= 1;
          done += 1;
        },
        { concurrency: 2 },
      );
      for (let n = 0; n < 6; n += 1) await queue.add(q, 'slow', { n });
      await eventually(() => expect(done).toBe(6));
      expect(peak).toBe(2);
    });

    it('holds a delayed job back while later jobs run, then runs it', async () => {
      freshPrefix();
      const queue = open();
      const q = name();
      const ran: string[] = [];
      await queue.process(q, async (job) => {
        ran.push(job.name);
      });
      await queue.add(q, 'later', {}, { delayMs: 400 });
      await queue.add(q, 'now', {});
      await eventually(() => expect(ran).toEqual(['now']));
      await eventually(() => expect(ran).toEqual(['now', 'later']));
    });

    it('retries a failing job until it succeeds, reporting each failed attempt as not final', async () => {
      freshPrefix();
      const queue = open();
      const q = name();
      const attempts: number[] = [];
      await queue.process(q, async (job) => {
        attempts.push(job.attempt);
        if (job.attempt < 3) throw new Error(`fail ${job.attempt}`);
      });
      await queue.add(q, 'flaky', { id: 'x' }, { attempts: 4, backoffMs: 100 });

      await eventually(() => expect(attempts).toEqual([1, 2, 3]));
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
      await eventually(() =>
        expect(failures.map((f) => [f.job.attempt, f.final])).toEqual([
          [1, false],
          [2, true],
        ]),
      );
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
      // Jobs start in the order added: had the duplicate (n: 2) been queued, it would have run before n: 3.
      await eventually(() => expect(ran).toEqual([1, 3]));

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
      // A barrier added after both duplicates: had either been queued, it would run before this one.
      await queue.add(q, 'x', { n: 4 });
      await eventually(() => expect(ran).toContain('4@1'));
      expect(ran).toEqual(['1@1', '1@2', '4@1']);
    });

    it('on close waits for the running job, starts no other, and refuses new ones', async () => {
      freshPrefix();
      const queue = open();
      const q = name();
      const events: string[] = [];
      await queue.process(q, async (job) => {
        events.push(`start ${job.data.n}`);
        await sleep(300); // the job's work, which close() must wait for
        events.push(`end ${job.data.n}`);
      });
      await queue.add(q, 'x', { n: 1 });
      await queue.add(q, 'x', { n: 2 });
      await eventually(() => expect(events).toEqual(['start 1']));

      await queue.close();
      expect(events).toEqual(['start 1', 'end 1']);
      await expect(queue.add(q, 'x', { n: 3 })).rejects.toThrow(/closed/);
      await expect(queue.process(name(), async () => undefined)).rejects.toThrow(/closed/);
    });

    // The bound is the test's own timeout: the job below never ends, so only the close timeout can end close().
    it('stops waiting for a stuck job after the close timeout', async () => {
      freshPrefix();
      const queue = open({ closeTimeoutMs: 200 });
      const q = name();
      let started = false;
      let finished = false;
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      await queue.process(q, async () => {
        started = true;
        await gate;
        finished = true;
      });
      await queue.add(q, 'stuck', {});
      await eventually(() => expect(started).toBe(true));
      try {
        await queue.close();
        expect(finished).toBe(false);
      } finally {
        release();
      }
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
