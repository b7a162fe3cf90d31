/**
 * /readyz follows what each instance can reach: on every one of three instances sharing a station, 503 while
 * Redis is down or PostgreSQL is cut off (answered promptly, never hanging on the dead connection), 200 again
 * once they are back, without restarting any instance. Redis is a
 * private redis-server started (and killed) by the test; PostgreSQL is the shared server behind a TCP proxy
 * that the test partitions. The shared Redis and PostgreSQL are never touched.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { TcpProxy } from '../helpers/tcp-proxy.js';
import { DATABASE_URL, FaultStation, REDIS_URL, freePort, startRedis, until } from './support.js';

describe.skipIf(!DATABASE_URL || !REDIS_URL)('/readyz on three instances while Redis or PostgreSQL is unreachable', () => {
  const station = new FaultStation();
  const cleanups: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    await station.close();
  });

  it('answers 503 promptly while either is down and 200 once it is back', { timeout: 150_000 }, async () => {
    await station.createDatabase();
    const redisPort = await freePort();
    let redis = await startRedis(redisPort);
    cleanups.push(() => void redis.kill('SIGKILL'));
    const pgProxy = await TcpProxy.start(station.database.url!);
    cleanups.push(() => pgProxy.close());
    const env = { DATABASE_URL: pgProxy.url(station.database.url!), REDIS_URL: `redis://127.0.0.1:${redisPort}` };
    const instances = await Promise.all(['a', 'b', 'c'].map((name) => station.start(name, env)));

    const slowest = { ms: 0 };
    /** Every instance's /readyz status, asked at once. */
    const probe = () =>
      Promise.all(
        instances.map(async (instance) => {
          const started = Date.now();
          const status = await fetch(`${instance.base}/readyz`, { signal: AbortSignal.timeout(10_000) })
            .then((r) => r.status)
            .catch(() => 0);
          slowest.ms = Math.max(slowest.ms, Date.now() - started);
          return status;
        }),
      );
    const all = (wanted: number) => (statuses: number[]) => statuses.every((status) => status === wanted);
    expect(await probe()).toEqual([200, 200, 200]);

    redis.kill('SIGKILL');
    await until('503 without Redis on every instance', probe, all(503), 15_000);
    expect(await probe()).toEqual([503, 503, 503]);
    redis = await startRedis(redisPort);
    await until('200 with Redis back on every instance', probe, all(200), 30_000);

    pgProxy.stall(); // a partition: PostgreSQL's packets stop crossing, queries hang
    await until('503 without PostgreSQL on every instance', probe, all(503), 15_000);
    expect(await probe()).toEqual([503, 503, 503]);
    pgProxy.heal();
    await until('200 with PostgreSQL back on every instance', probe, all(200), 30_000);

    for (const instance of instances) expect(instance.child.exitCode).toBeNull();
    process.stdout.write(`readyz: slowest answer ${slowest.ms} ms\n`);
    expect(slowest.ms).toBeLessThan(3000);
  });
});
