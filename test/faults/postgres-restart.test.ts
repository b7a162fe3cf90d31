/**
 * A real PostgreSQL restart under light load (issue 20), where outage-under-load.test.ts only cuts the TCP path:
 * the instance's server is stopped with a fast shutdown (every session terminated by the server, then nothing
 * listening) and started again on the same port and data. Meanwhile requests get 200 or a clean 503 with the
 * contract's envelope, none hangs; /readyz answers 503 while it is down and 200 again after, and requests
 * succeed without the instance being restarted. The cluster is private to the test (initdb on a free port, as
 * the postgres user); the shared PostgreSQL on 5432 is never touched.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { DATABASE_URL, FaultStation, PrivatePostgres, REDIS_URL, freePort, load, readyz, serviceHeaders, sleep, tally, until } from './support.js';

describe.skipIf(!DATABASE_URL || !REDIS_URL)('PostgreSQL stopped and started again under load', () => {
  const station = new FaultStation();
  let cluster: PrivatePostgres | undefined;
  afterAll(async () => {
    await station.close();
    await cluster?.close();
  });

  it('answers 200 or a clean 503 while it is down, and serves again once it is back', { timeout: 150_000 }, async () => {
    const t0 = Date.now();
    const phase = (what: string) => process.stdout.write(`pg-restart: ${what} at ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
    cluster = await PrivatePostgres.create(await freePort());
    station.database = cluster.database();
    await station.seed({ trackCount: 2, trackSec: 8, crossfadeSec: 1 });
    phase('private cluster seeded');
    const instance = await station.start('a');
    phase('instance ready');

    const traffic = load([instance], ['/station/v1/radio/history', '/station/v1/radio/stream-info']);
    await sleep(2_000);

    const stopping = Date.now();
    await cluster.stop();
    phase(`PostgreSQL stopped (fast shutdown, ${Date.now() - stopping} ms)`);
    await until(
      '503 without PostgreSQL',
      () => readyz(instance),
      (s) => s === 503,
      15_000,
    );
    await sleep(5_000);
    expect(await readyz(instance)).toBe(503);
    await cluster.start();
    phase('PostgreSQL started again');
    await until(
      '200 with PostgreSQL back',
      () => readyz(instance),
      (s) => s === 200,
      30_000,
    );
    const readyAt = Date.now();
    phase('ready again');
    await sleep(2_000);
    await traffic.stop();

    const { answers } = traffic;
    const { counts, slowest } = tally(answers, 'pg-restart', t0);
    phase(`${answers.length} requests: ${[...counts].map(([status, n]) => `${status} x${n}`).join(', ')}; slowest ${slowest} ms`);
    expect(answers.filter((answer) => answer.status !== 200 && !(answer.status === 503 && answer.envelope))).toEqual([]);
    expect(counts.get(503) ?? 0).toBeGreaterThan(0);
    expect(slowest).toBeLessThan(5_000);
    // The last requests, after the restart, were served: the instance reconnected by itself.
    const last = answers.filter((answer) => answer.at > readyAt);
    expect(last.length).toBeGreaterThan(0);
    expect(last.every((answer) => answer.status === 200)).toBe(true);
    const history = await fetch(`${instance.base}/station/v1/radio/history`, { headers: serviceHeaders });
    expect(history.status).toBe(200);
    expect(instance.child.exitCode).toBeNull();
  });
});
