/**
 * Scheduler leader election on the real servers: PostgreSQL advisory locks (DATABASE_URL) and a Redis lease
 * (REDIS_URL). Two candidates, exactly one leads; the leader's death (backend terminated, process killed,
 * connection cut or partitioned, lease stolen) hands the lead to the other within its retry interval; a
 * clean stop() hands it over at once; and two candidates never lead at the same moment.
 *
 * Timing is injected (retry 100-200 ms instead of 5 s) and every wait polls for a state with a bound; the
 * lease deadlines themselves are checked against a hand-moved clock.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/infra/clock/clock.js';
import { PgAdvisoryLeader, RedisLeader, SingleProcessLeader, type LeaderElection } from '../../src/station/scheduler/leader.js';
import { TcpProxy } from '../helpers/tcp-proxy.js';
import { pollUntil } from '../helpers/poll.js';

const DATABASE_URL = process.env.DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL;

const until = async (what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> => {
  await pollUntil(what, condition, Boolean, timeoutMs, 5);
};

/** Samples the candidates every few milliseconds and remembers any moment when more than one led. */
function watchForOverlap(candidates: LeaderElection[]): { overlaps: number; stop(): void } {
  const watch = {
    overlaps: 0,
    stop: () => clearInterval(timer),
  };
  const timer = setInterval(() => {
    if (candidates.filter((candidate) => candidate.isLeader()).length > 1) watch.overlaps++;
  }, 2);
  return watch;
}

/** A candidate in a child process (test/fixtures/leader-candidate.ts); resolves once it leads. */
async function leadingChild(args: string[]): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/leader-candidate.ts', ...args], {
    cwd: process.cwd(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  await until(
    'the child candidate leads',
    () => {
      if (child.exitCode !== null) throw new Error(`the candidate exited with ${child.exitCode}: ${output}`);
      return output.includes('leading');
    },
    60_000,
  );
  return child;
}

const children: ChildProcess[] = [];
const started: LeaderElection[] = [];
const proxies: TcpProxy[] = [];

async function begin<T extends LeaderElection>(candidate: T): Promise<T> {
  started.push(candidate);
  await candidate.start();
  return candidate;
}

afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const proxy of proxies) proxy.heal();
  await Promise.all(started.splice(0).map((candidate) => candidate.stop()));
  await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
});

async function proxyTo(url: string): Promise<TcpProxy> {
  const proxy = await TcpProxy.start(url);
  proxies.push(proxy);
  return proxy;
}

describe('SingleProcessLeader', () => {
  it('always leads: the embedded default runs one process', async () => {
    const leader = new SingleProcessLeader();
    await leader.start();
    expect(leader.isLeader()).toBe(true);
    await leader.stop();
  });
});

describe.skipIf(!DATABASE_URL)('PgAdvisoryLeader on PostgreSQL (needs DATABASE_URL)', () => {
  const RETRY_MS = 200;
  let admin: pg.Client;
  let key = 0;

  /** The candidate's connection string, named so pg_stat_activity shows whose session is whose. */
  const named = (url: string, name: string) => {
    const withName = new URL(url);
    withName.searchParams.set('application_name', name);
    return withName.toString();
  };
  const candidate = (name: string, url = DATABASE_URL!) => new PgAdvisoryLeader(named(url, name), key, { retryMs: RETRY_MS });

  /** application_name of every session holding our advisory lock (granted, in this database). */
  async function lockHolders(): Promise<string[]> {
    const { rows } = await admin.query<{ name: string }>(
      `select a.application_name as name
         from pg_locks l join pg_stat_activity a on a.pid = l.pid
        where l.locktype = 'advisory' and l.granted and l.classid = 0 and l.objid = $1
          and l.database = (select oid from pg_database where datname = current_database())`,
      [key],
    );
    return rows.map((row) => row.name);
  }

  async function backendPid(name: string): Promise<number> {
    const { rows } = await admin.query<{ pid: number }>('select pid from pg_stat_activity where application_name = $1', [name]);
    expect(rows).toHaveLength(1);
    return rows[0].pid;
  }

  /** Resolves once the named session has run `count` more statements (its state_change moved on). */
  async function statementsBy(name: string, count: number): Promise<void> {
    const stateChange = async () =>
      (await admin.query<{ at: string }>('select state_change::text as at from pg_stat_activity where application_name = $1', [name])).rows[0]?.at;
    for (let i = 0; i < count; i++) {
      const before = await stateChange();
      await until(`${name} runs another statement`, async () => (await stateChange()) !== before);
    }
  }

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
  });
  // A lock key of our own per test: other suites (and other test runs) on the same server never collide.
  const freshKey = () => (key = randomInt(1_000_000, 2 ** 31 - 1));

  it('elects exactly one of two candidates, the one whose session holds the lock, and it stays so', async () => {
    freshKey();
    const a = await begin(candidate('leader-a'));
    const b = await begin(candidate('leader-b'));
    expect(a.isLeader()).toBe(true);
    expect(b.isLeader()).toBe(false);
    expect(await lockHolders()).toEqual(['leader-a']);
    // b keeps asking (and a keeps checking its session) without anything changing.
    await statementsBy('leader-b', 3);
    expect([a.isLeader(), b.isLeader()]).toEqual([true, false]);
    expect(await lockHolders()).toEqual(['leader-a']);
  });

  it('stops leading at once when its backend is terminated (pg_terminate_backend); the lock goes to a live session', async () => {
    freshKey();
    const a = await begin(candidate('leader-a'));
    const b = await begin(candidate('leader-b'));
    const overlap = watchForOverlap([a, b]);
    const terminated = await backendPid('leader-a');
    await admin.query('select pg_terminate_backend($1)', [terminated]);
    await until('a no longer leads', () => !a.isLeader(), 20 * RETRY_MS);
    // Both race for the free lock (a on a new session): exactly one wins, within a retry interval or so.
    await until('someone leads', () => a.isLeader() || b.isLeader(), 20 * RETRY_MS);
    expect([a, b].filter((c) => c.isLeader())).toHaveLength(1);
    const winner = a.isLeader() ? 'leader-a' : 'leader-b';
    expect(await lockHolders()).toEqual([winner]);
    expect(await backendPid(winner)).not.toBe(terminated);
    overlap.stop();
    expect(overlap.overlaps).toBe(0);
  });

  it('hands over when the leader process is killed (SIGKILL)', async () => {
    freshKey();
    const child = await leadingChild(['pg', named(DATABASE_URL!, 'leader-child'), String(key), String(RETRY_MS)]);
    expect(await lockHolders()).toEqual(['leader-child']);
    const b = await begin(candidate('leader-b'));
    expect(b.isLeader()).toBe(false);
    child.kill('SIGKILL');
    await until('b leads', () => b.isLeader(), 20 * RETRY_MS);
    expect(await lockHolders()).toEqual(['leader-b']);
  });

  it('hands over on a clean stop()', async () => {
    freshKey();
    const a = await begin(candidate('leader-a'));
    const b = await begin(candidate('leader-b'));
    await a.stop();
    expect(a.isLeader()).toBe(false);
    await until('b leads', () => b.isLeader(), 20 * RETRY_MS);
    expect(await lockHolders()).toEqual(['leader-b']);
  });

  it('a leader whose connection is reset (and cannot reconnect) stops leading at once, and the follower takes over', async () => {
    freshKey();
    const proxy = await proxyTo(DATABASE_URL!);
    const a = await begin(candidate('leader-a', proxy.url(DATABASE_URL!)));
    const b = await begin(candidate('leader-b'));
    expect(a.isLeader()).toBe(true);
    const overlap = watchForOverlap([a, b]);
    proxy.stall(); // new connections hang...
    proxy.cut(); // ...and the current one is reset
    await until('a no longer leads', () => !a.isLeader(), 20 * RETRY_MS);
    await until('b leads', () => b.isLeader(), 20 * RETRY_MS);
    overlap.stop();
    expect(overlap.overlaps).toBe(0);
  });

  it('a leader cut off from the server (partition) stops claiming the lead before the other takes it', async () => {
    freshKey();
    const proxy = await proxyTo(DATABASE_URL!);
    const a = await begin(candidate('leader-a', proxy.url(DATABASE_URL!)));
    const b = await begin(candidate('leader-b'));
    expect(a.isLeader()).toBe(true);
    const overlap = watchForOverlap([a, b]);
    proxy.stall();
    // a cannot hear from its session any more: it must stop claiming the lead by itself...
    await until('a no longer leads', () => !a.isLeader(), 30 * RETRY_MS);
    // ...and the server ends the idle session, releasing the lock to b.
    await until('b leads', () => b.isLeader(), 60 * RETRY_MS);
    proxy.heal();
    await until(
      'a is back on a session of its own',
      async () => (await admin.query("select 1 from pg_stat_activity where application_name = 'leader-a'")).rowCount === 1,
    );
    await statementsBy('leader-a', 2);
    expect([a.isLeader(), b.isLeader()]).toEqual([false, true]);
    overlap.stop();
    expect(overlap.overlaps).toBe(0);
  });

  it('opens one session at a time while the server is unreachable, and holds nothing once stopped', async () => {
    freshKey();
    const sessions = async (name: string) => (await admin.query('select 1 from pg_stat_activity where application_name = $1', [name])).rowCount ?? 0;
    const proxy = await proxyTo(DATABASE_URL!);
    const b = await begin(candidate('leader-b'));
    const a = await begin(candidate('leader-a', proxy.url(DATABASE_URL!)));
    expect([a.isLeader(), b.isLeader()]).toEqual([false, true]);
    proxy.stall();
    proxy.cut();
    const tried = proxy.accepted;
    await until('a has tried to reconnect three times', () => proxy.accepted >= tried + 3, 60 * RETRY_MS);
    proxy.heal();
    await until('a is back', async () => (await sessions('leader-a')) >= 1);
    await b.stop();
    await until('a leads', () => a.isLeader(), 20 * RETRY_MS);
    expect(await sessions('leader-a')).toBe(1);
    await a.stop();
    await until('a has no session left', async () => (await sessions('leader-a')) === 0, 20 * RETRY_MS);
    expect(await lockHolders()).toEqual([]);
  });

  it('counts itself leader only until twice the retry interval after its last good check', async () => {
    freshKey();
    const clock = new ManualClock();
    // A retry interval longer than the test: only the checks made by start() happen.
    const a = await begin(new PgAdvisoryLeader(named(DATABASE_URL!, 'leader-a'), key, { retryMs: 60_000, clock }));
    expect(a.isLeader()).toBe(true);
    clock.advance(2 * 60_000 - 1);
    expect(a.isLeader()).toBe(true);
    clock.advance(1);
    expect(a.isLeader()).toBe(false);
    expect(await lockHolders()).toEqual(['leader-a']); // it still holds the lock: nobody else can lead either
  });
});

describe.skipIf(!REDIS_URL)('RedisLeader on Redis (needs REDIS_URL)', () => {
  const TTL_MS = 1_000;
  const RENEW_MS = 100;
  let redis: Redis;
  let key = '';
  const freshKey = () => (key = `test-leader-${randomBytes(6).toString('hex')}:scheduler-leader`);
  const candidate = (url = REDIS_URL!, options: { ttlMs?: number; renewMs?: number } = {}) =>
    new RedisLeader(url, key, { ttlMs: TTL_MS, renewMs: RENEW_MS, ...options });

  /** Resolves once the lease has been renewed `count` more times (its remaining time went back up). */
  async function renewals(count: number): Promise<void> {
    for (let i = 0; i < count; i++) {
      let low = await redis.pttl(key);
      await until('the lease is renewed', async () => {
        const now = await redis.pttl(key);
        if (now > low) return true;
        low = now;
        return false;
      });
    }
  }

  beforeAll(() => {
    redis = new Redis(REDIS_URL!, { maxRetriesPerRequest: 1 });
  });
  afterEach(async () => {
    if (key) await redis.del(key);
  });
  afterAll(async () => {
    await redis?.quit();
  });

  it('elects exactly one of two candidates, holding the lease, and it stays so while renewing', async () => {
    freshKey();
    const a = await begin(candidate());
    const b = await begin(candidate());
    expect([a.isLeader(), b.isLeader()]).toEqual([true, false]);
    const holder = await redis.get(key);
    expect(holder).not.toBeNull();
    expect(await redis.pttl(key)).toBeLessThanOrEqual(TTL_MS);
    await renewals(3);
    expect([a.isLeader(), b.isLeader()]).toEqual([true, false]);
    expect(await redis.get(key)).toBe(holder);
  });

  it('hands over once the lease of a killed leader (SIGKILL) expires', async () => {
    freshKey();
    const child = await leadingChild(['redis', REDIS_URL!, key, String(TTL_MS), String(RENEW_MS)]);
    child.kill('SIGKILL');
    const b = await begin(candidate());
    expect(b.isLeader()).toBe(false); // the dead leader's lease still runs
    await until('b leads', () => b.isLeader(), 10 * TTL_MS);
  });

  it('hands over on a clean stop(), without waiting for the lease to expire', async () => {
    freshKey();
    const long = { ttlMs: 60_000 }; // a takeover by expiry would take a minute
    const a = await begin(candidate(REDIS_URL!, long));
    const b = await begin(candidate(REDIS_URL!, long));
    await a.stop();
    expect(a.isLeader()).toBe(false);
    await until('b leads', () => b.isLeader(), 50 * RENEW_MS);
  });

  it('a leader whose lease is taken over stops leading at its next renewal', async () => {
    freshKey();
    const a = await begin(candidate());
    const b = await begin(candidate());
    await redis.set(key, 'someone-else', 'PX', 60_000);
    await until('a no longer leads', () => !a.isLeader(), 20 * RENEW_MS);
    expect(b.isLeader()).toBe(false);
    await redis.del(key); // the lease is free again: one of them takes it
    await until('one leads', () => a.isLeader() || b.isLeader(), 20 * RENEW_MS);
    expect([a, b].filter((c) => c.isLeader())).toHaveLength(1);
  });

  it('a leader cut off from Redis (partition) stops claiming the lead before the other takes it', async () => {
    freshKey();
    const proxy = await proxyTo(REDIS_URL!);
    const a = await begin(candidate(proxy.url(REDIS_URL!)));
    const b = await begin(candidate());
    expect(a.isLeader()).toBe(true);
    const overlap = watchForOverlap([a, b]);
    proxy.stall();
    await until('b leads', () => b.isLeader(), 10 * TTL_MS);
    expect(a.isLeader()).toBe(false);
    proxy.heal();
    await renewals(2);
    expect([a.isLeader(), b.isLeader()]).toEqual([false, true]);
    overlap.stop();
    expect(overlap.overlaps).toBe(0);
  });

  it('keeps (or takes back) its own lease after a connection reset, without waiting for it to expire', async () => {
    freshKey();
    const proxy = await proxyTo(REDIS_URL!);
    const a = await begin(candidate(proxy.url(REDIS_URL!), { ttlMs: 60_000 }));
    expect(a.isLeader()).toBe(true);
    const holder = await redis.get(key);
    proxy.cut();
    await until('a has reconnected', () => proxy.connections() > 0);
    await renewals(1);
    await until('a leads', () => a.isLeader(), 50 * RENEW_MS);
    expect(await redis.get(key)).toBe(holder);
  });

  it('counts itself leader only until its lease could have expired, less the clock-drift allowance', async () => {
    freshKey();
    const clock = new ManualClock();
    const a = await begin(new RedisLeader(REDIS_URL!, key, { ttlMs: 60_000, renewMs: 60_000, clock }));
    expect(a.isLeader()).toBe(true);
    const drift = 60_000 * 0.01 + 2;
    clock.advance(60_000 - drift - 1);
    expect(a.isLeader()).toBe(true);
    clock.advance(1);
    expect(a.isLeader()).toBe(false);
  });
});
