/** STATION_ROLE: which process runs which queue's jobs (API instances and `npm run worker`). */
import { describe, expect, it } from 'vitest';
import { WORKER_QUEUES } from '../../src/app.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { InProcessJobQueue } from '../../src/infra/queue/in-process-queue.js';
import { ConsumingJobQueue, consumesQueue } from '../../src/infra/queue/role-queue.js';

describe('STATION_ROLE', () => {
  it('gives the engine queues and webhook delivery to workers, the rest to API instances, everything to all', () => {
    expect([...WORKER_QUEUES].sort()).toEqual(['generation', 'training', 'webhooks']);
    for (const queue of WORKER_QUEUES) {
      expect(consumesQueue('worker', WORKER_QUEUES, queue)).toBe(true);
      expect(consumesQueue('api', WORKER_QUEUES, queue)).toBe(false);
      expect(consumesQueue('all', WORKER_QUEUES, queue)).toBe(true);
    }
    expect(consumesQueue('worker', WORKER_QUEUES, 'track-uploads')).toBe(false);
    expect(consumesQueue('api', WORKER_QUEUES, 'track-uploads')).toBe(true);
  });

  it('registers no worker for a queue another role runs, and still adds its jobs', async () => {
    const inner = new InProcessJobQueue();
    const queue = new ConsumingJobQueue(inner, (name) => consumesQueue('api', WORKER_QUEUES, name));
    const ran: string[] = [];
    await queue.process('generation', async (job) => void ran.push(job.name));
    await queue.process('track-uploads', async (job) => void ran.push(job.name));
    await queue.add('generation', 'generate', {});
    await queue.add('track-uploads', 'render', {});
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(ran).toEqual(['render']);
    expect(queue.skipped).toEqual(['generation']);
    await queue.close();
  });

  it('is all by default, and api or worker only with REDIS_URL and DATABASE_URL', () => {
    const services = { REDIS_URL: 'redis://127.0.0.1:6379', DATABASE_URL: 'postgres://u@127.0.0.1/db' };
    expect(loadConfig({}).role).toBe('all');
    expect(loadConfig({ ...services, STATION_ROLE: 'worker' }).role).toBe('worker');
    expect(loadConfig({ ...services, STATION_ROLE: 'API' }).role).toBe('api');
    expect(() => loadConfig({ STATION_ROLE: 'worker' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...services, STATION_ROLE: 'scheduler' })).toThrow(/STATION_ROLE must be one of all, api, worker/);
    expect(loadConfig({}).jobLockMs).toBe(30_000);
    expect(loadConfig({ STATION_JOB_LOCK_SEC: '10' }).jobLockMs).toBe(10_000);
  });
});
