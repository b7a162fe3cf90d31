/**
 * Redis restarted, then PostgreSQL cut off, under a steady load of requests on two instances: every request
 * is answered (200, or a clean 503 with the error envelope; none hangs or fails otherwise), /readyz answers
 * 503 on both while the service is down and 200 again after, and the radio goes on once both are back.
 * Redis is a private redis-server (killed and started again on the same port); PostgreSQL is the shared
 * server behind a TCP proxy that the test cuts and partitions. The shared Redis and PostgreSQL are never touched.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { TcpProxy } from '../helpers/tcp-proxy.js';
import { DATABASE_URL, FaultStation, REDIS_URL, freePort, load, readyz, serviceHeaders, sleep, startRedis, tally, until } from './support.js';

describe.skipIf(!DATABASE_URL || !REDIS_URL)('Redis restarted and PostgreSQL cut off under load (2 instances)', () => {
  const station = new FaultStation();
  const cleanups: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    await station.close();
  });

  // Requests that need the missing service answer 503 within the clients' bounds (a Redis command 2 s, a new
  // PostgreSQL connection 3 s: src/app.ts, src/infra/db/client.ts) and src/infra/outage.ts maps those failures
  // to 503 with Retry-After; before, they waited for the service to come back (8-10 s, some never answered).
  // The radio goes on after both outages: when Redis came back the lead could move to the other instance, whose
  // cards the first one received but never showed (it kept the card of the last track it had put on air itself),
  // so in about one run in two `a` showed the same card for good (issue 20; src/station/scheduler/README.md).
  // Fixed (the newest start wins, its own or the bus's); it passed three runs in a row on this machine, so the
  // services suite runs it again (support.ts now gives instances 90 s to answer /readyz under load).
  it('answers every request with 200 or a clean 503, and recovers when each service is back', { timeout: 170_000 }, async () => {
    const t0 = Date.now();
    const phase = (what: string) => process.stdout.write(`outage: ${what} at ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
    await station.seed({ trackCount: 4, trackSec: 8, crossfadeSec: 1 });
    const redisPort = await freePort();
    let redis = await startRedis(redisPort);
    cleanups.push(() => void redis.kill('SIGKILL'));
    const pgProxy = await TcpProxy.start(station.database.url!);
    cleanups.push(() => pgProxy.close());
    const env = { DATABASE_URL: pgProxy.url(station.database.url!), REDIS_URL: `redis://127.0.0.1:${redisPort}` };
    const a = await station.start('a', env);
    const b = await station.start('b', env);
    const instances = [a, b];
    phase('two instances ready');

    // Two authenticated reads (the key checked, the rate limit counted in Redis, the rows read from PostgreSQL);
    // not the now-playing card, limited by the contract to one read a second per user.
    const traffic = load(instances, ['/station/v1/radio/history', '/station/v1/radio/stream-info']);
    await sleep(2_000);

    redis.kill('SIGKILL');
    phase('Redis killed');
    for (const instance of instances)
      await until(
        `${instance.name} answers 503 without Redis`,
        () => readyz(instance),
        (s) => s === 503,
        15_000,
      );
    await sleep(6_000);
    redis = await startRedis(redisPort);
    phase('Redis back');
    for (const instance of instances)
      await until(
        `${instance.name} is ready with Redis back`,
        () => readyz(instance),
        (s) => s === 200,
        30_000,
      );
    phase('both ready again');

    pgProxy.cut(); // every PostgreSQL connection reset at once...
    pgProxy.stall(); // ...and nothing crosses (new connections hang) until healed
    phase('PostgreSQL cut off');
    for (const instance of instances)
      await until(
        `${instance.name} answers 503 without PostgreSQL`,
        () => readyz(instance),
        (s) => s === 503,
        15_000,
      );
    await sleep(6_000);
    pgProxy.heal();
    phase('PostgreSQL back');
    for (const instance of instances)
      await until(
        `${instance.name} is ready with PostgreSQL back`,
        () => readyz(instance),
        (s) => s === 200,
        30_000,
      );
    phase('both ready again');
    await sleep(2_000);
    await traffic.stop();

    const { answers } = traffic;
    const { counts, slowest } = tally(answers, 'outage', t0);
    phase(`${answers.length} requests: ${[...counts].map(([status, n]) => `${status} x${n}`).join(', ')}; slowest ${slowest} ms`);
    // Every request answered, and only with 200 or a 503 carrying the contract's error envelope.
    expect(answers.filter((answer) => answer.status !== 200 && !(answer.status === 503 && answer.envelope))).toEqual([]);
    expect(counts.get(503) ?? 0).toBeGreaterThan(0);
    expect(slowest).toBeLessThan(5_000);

    // On a failure below, what the instances logged (the lead's moves, the scheduler's and the stream's errors).
    const dump = () => {
      for (const instance of instances) process.stdout.write(`--- ${instance.name} output ---\n${instance.output()}\n`);
    };
    // Both back in service: the radio goes on (a new track comes on air) and both instances show the same card.
    const before = (await fetch(`${a.base}/station/v1/radio/now-playing`, { headers: serviceHeaders }).then((r) => r.json())) as {
      started_at?: string;
    } | null;
    phase(`on air before: ${before?.started_at ?? 'nothing'}`);
    await until(
      'a new track after the outages',
      async () => (await fetch(`${a.base}/station/v1/radio/now-playing`, { headers: serviceHeaders }).then((r) => r.json())) as { started_at?: string } | null,
      (card) => !!card?.started_at && card.started_at !== before?.started_at,
      30_000,
    ).catch((error: unknown) => {
      dump();
      throw error;
    });
    await until(
      'both instances show the same card',
      async () =>
        Promise.all(instances.map((instance) => fetch(`${instance.base}/station/v1/radio/now-playing`, { headers: serviceHeaders }).then((r) => r.json()))),
      ([x, y]) => JSON.stringify((x as { started_at?: string })?.started_at) === JSON.stringify((y as { started_at?: string })?.started_at),
      10_000,
    );
    for (const instance of instances) expect(instance.child.exitCode).toBeNull();
  });
});
