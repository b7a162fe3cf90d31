/**
 * A follower plays on alone (issue 20): two instances share a station on a private redis-server, a listener
 * streams from the follower, and Redis is killed for twice as long as the ~6 s of the leader's frames a
 * follower holds. Without Redis there is no bus and no leader: each instance, its held frames running out,
 * continues the same timeline from the database (live-stream.ts, PlanReader). When Redis is back, one of them
 * leads from its own timeline and the other goes back to relaying it. Measured on the follower's byte stream:
 * the longest gap between two received chunks, and the bytes received against the stream's bitrate (a gap
 * or a stretch sent twice would show as too few or too many). Afterwards both instances send the same bytes,
 * and the running order in the database has every slot started once, none skipped.
 */
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import {
  DATABASE_URL,
  FaultStation,
  REDIS_URL,
  expectRunningOrder,
  freePort,
  getJson,
  listen,
  maxGap,
  sleep,
  startRedis,
  until,
  type Card,
  type Instance,
} from './support.js';

const TRACK_SEC = 20;
const OUTAGE_MS = 12_000;
/** 128 kbps. */
const BYTES_PER_SEC = 16_000;

const readyz = (instance: Instance) =>
  fetch(`${instance.base}/readyz`, { signal: AbortSignal.timeout(5_000) })
    .then((r) => r.status)
    .catch(() => 0);

/** Whether the last `length` bytes `b` received are somewhere in what `a` received. */
function sameBytes(a: Buffer[], b: Buffer[], length: number): boolean {
  const whole = Buffer.concat(a);
  const tail = Buffer.concat(b);
  return tail.length >= length && whole.includes(tail.subarray(tail.length - length));
}

describe.skipIf(!DATABASE_URL || !REDIS_URL)('a follower cut off from the leader by a Redis outage (2 instances)', () => {
  const station = new FaultStation();
  const cleanups: (() => void)[] = [];
  /** Set once the outage above has run its course (the running order is checked after it). */
  let outageRan = false;
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) cleanup();
    await station.close();
  });

  it("keeps the follower's stream flowing on the same timeline, and hands back to the relay when Redis returns", { timeout: 300_000 }, async () => {
    const t0 = Date.now();
    const phase = (what: string) => process.stdout.write(`redis-outage-stream: ${what} at ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
    await station.seed({ trackCount: 6, trackSec: TRACK_SEC, crossfadeSec: 3 });
    const redisPort = await freePort();
    let redis = await startRedis(redisPort);
    cleanups.push(() => void redis.kill('SIGKILL'));
    const env = { REDIS_URL: `redis://127.0.0.1:${redisPort}` };
    phase('seeded');
    const a = await station.start('a', env);
    phase('a ready');
    await until(
      'the leader plays a track',
      () => getJson<Card | null>(`${a.base}/station/v1/radio/now-playing`),
      (r) => r.status === 200 && !!r.body?.title,
      45_000,
    );
    phase('a plays');
    const b = await station.start('b', env);
    phase('two instances ready');

    const info = await getJson<{ stream_url: string }>(`${b.base}/station/v1/radio/stream-info`);
    const listener = listen(info.body.stream_url);
    await until(
      'the follower streams',
      () => listener.bytes(),
      (n) => n > 32_000,
      20_000,
    );
    await sleep(3_000); // past the new listener's lead: the steady stream
    const killedAt = Date.now();
    const bytesAtKill = listener.bytes();
    redis.kill('SIGKILL');
    phase('Redis killed');
    await sleep(OUTAGE_MS);
    redis = await startRedis(redisPort);
    phase('Redis back');
    for (const instance of [a, b])
      await until(
        `${instance.name} is ready with Redis back`,
        () => readyz(instance),
        (s) => s === 200,
        30_000,
      );
    phase('both ready again');
    // One leads again and the other relays it: listeners of both instances get the same bytes.
    const onA = listen((await getJson<{ stream_url: string }>(`${a.base}/station/v1/radio/stream-info`)).body.stream_url, true);
    const onB = listen((await getJson<{ stream_url: string }>(`${b.base}/station/v1/radio/stream-info`)).body.stream_url, true);
    await sleep(12_000);
    const endedAt = Date.now();
    outageRan = true;
    const received = listener.bytes() - bytesAtKill;
    listener.close();
    onA.close();
    onB.close();

    const gapMs = maxGap(listener.arrivals, killedAt, endedAt);
    const ratio = received / (((endedAt - killedAt) / 1000) * BYTES_PER_SEC);
    process.stdout.write(
      `redis-outage-stream: Redis down ${OUTAGE_MS / 1000} s; on the follower: max byte gap ${gapMs} ms, ` +
        `bytes ${(ratio * 100).toFixed(1)} % of the bitrate over the ${((endedAt - killedAt) / 1000).toFixed(1)} s from the kill\n`,
    );
    expect(gapMs).toBeLessThan(1000);
    // 2 % of 30 s is 0.6 s: a stretch of the held 6 s sent twice, or skipped, would show.
    expect(Math.abs(ratio - 1)).toBeLessThan(0.02);
    expect(sameBytes(onA.chunks, onB.chunks, 8_000) || sameBytes(onB.chunks, onA.chunks, 8_000)).toBe(true);
    for (const instance of [a, b]) expect(instance.child.exitCode).toBeNull();
  });

  // Found on quiet-machine runs (issue 20): the slot the leader cued just before the outage aired on both instances
  // playing alone, and the instance that got the lead returned it to the plan when its takeover continued the
  // next one, so it stayed unstarted while later slots started (src/station/scheduler/track-source.ts).
  it('records the start of the slot cued before the outage: every slot started once, none skipped', async () => {
    expect(outageRan, 'the outage above ran its course').toBe(true);
    const url = station.database.url!;
    try {
      const order = await expectRunningOrder(url);
      process.stdout.write(`redis-outage-stream: ${order.started} slots started, each once\n`);
    } catch (error) {
      // What the running order and the instances' logs say (the lead's moves, the starts heard and recorded).
      process.stdout.write(`redis-outage-stream: radio_slots\n${(await slotRows(url)).join('\n')}\n`);
      for (const instance of station.instances) process.stdout.write(`--- ${instance.name} output ---\n${instance.output()}\n`);
      throw error;
    }
  });
});

/** The running order, one line a slot. */
async function slotRows(databaseUrl: string): Promise<string[]> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const rows = await db.query<{ id: string; status: string; started_at: Date | null; ended_at: Date | null }>(
      'select id, status, started_at, ended_at from radio_slots order by id',
    );
    return rows.rows.map((row) => `${row.id} ${row.status} ${row.started_at?.getTime() ?? '-'} ${row.ended_at?.getTime() ?? '-'}`);
  } finally {
    await db.end();
  }
}
