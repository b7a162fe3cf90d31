/**
 * One scheduler leader per station. With several instances, the leader is whoever holds a Redis lease
 * (REDIS_URL) or a PostgreSQL session advisory lock (DATABASE_URL); the embedded default has one process,
 * which always leads. Followers keep trying, so a new leader takes over when the old one dies.
 *
 * Both elections bound how long an instance believes it leads without hearing back from the server:
 * `isLeader()` is true only until a deadline computed from when the last successful check was SENT, and the
 * server lets the lock go only after that deadline. A leader whose connection stalls, or whose process
 * froze, therefore stops claiming the lead before anyone else can take it; two leaders never overlap.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { Redis } from 'ioredis';
import type { Clock } from '../../infra/clock/clock.js';
import { reconnectDelayMs } from '../../infra/redis.js';

export interface LeaderElection {
  isLeader(): boolean;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export class SingleProcessLeader implements LeaderElection {
  isLeader(): boolean {
    return true;
  }
  async start(): Promise<void> {}
  async stop(): Promise<void> {}
}

/**
 * How long the station may go without a leader is what a listener's stream must bridge: followers hold a few
 * seconds of the timeline (live-stream.ts), so a dead leader must be replaced well within that. A Redis lease
 * of 3 s renewed every second is taken over 2-4 s after its holder dies; the PostgreSQL lock goes with the
 * dead session at once, and a follower asks for it every 2 s.
 */
const RETRY_MS = 2_000;
export const REDIS_LEASE_TTL_MS = 3_000;
const REDIS_RENEW_MS = 1_000;

/** Deadlines compare readings of one clock: a monotonic one, so a wall-clock step cannot stretch a lease. */
const monotonicClock: Pick<Clock, 'now'> = { now: () => performance.now() };

/** Runs `attempt` now and every `periodMs`, never two at once (a slow attempt makes the next one wait). */
class Retrier {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly periodMs: number,
    private readonly attempt: () => Promise<void>,
  ) {}

  async start(): Promise<void> {
    await this.runOnce();
    this.timer = setInterval(() => void this.runOnce(), this.periodMs);
    this.timer.unref();
  }

  /** Stops the timer and waits for an attempt in flight, so nothing of it lands after stop. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  private runOnce(): Promise<void> {
    if (!this.running) this.running = this.attempt().finally(() => (this.running = null));
    return this.running;
  }
}

export interface PgAdvisoryLeaderOptions {
  /** How often a follower asks for the lock and the leader checks its session (default 2 s). */
  retryMs?: number;
  clock?: Pick<Clock, 'now'>;
}

/**
 * Holds `pg_try_advisory_lock` on a dedicated connection: the lock lives exactly as long as the session.
 * The leader checks its session every `retryMs`, each check bounded by `retryMs`, and counts itself leader
 * for 2 x `retryMs` after the last good check; the session asks the server to end it after 3 x `retryMs`
 * idle (`idle_session_timeout`, PostgreSQL 14+), so a leader cut off from the server loses the lock soon
 * after it stopped claiming it, rather than when TCP keepalive notices, hours later.
 */
export class PgAdvisoryLeader implements LeaderElection {
  private readonly retryMs: number;
  private readonly clock: Pick<Clock, 'now'>;
  private readonly retrier: Retrier;
  private client: pg.Client | null = null;
  private holdsLock = false;
  private leaderUntil = 0;
  private stopped = false;

  constructor(
    private readonly url: string,
    private readonly lockKey: number,
    options: PgAdvisoryLeaderOptions = {},
  ) {
    this.retryMs = options.retryMs ?? RETRY_MS;
    this.clock = options.clock ?? monotonicClock;
    this.retrier = new Retrier(this.retryMs, () => this.attempt());
  }

  isLeader(): boolean {
    return this.holdsLock && this.clock.now() < this.leaderUntil;
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.retrier.start();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.retrier.stop();
    await this.drop(this.client); // ending the session releases the lock at once
  }

  private async attempt(): Promise<void> {
    let client: pg.Client | null = null;
    try {
      client = this.client ?? (await this.connect());
      if (!client) return;
      const sentAt = this.clock.now();
      if (this.holdsLock) {
        await client.query('select 1'); // the session, and so the lock, is still alive
      } else {
        const { rows } = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [this.lockKey]);
        if (client !== this.client) return; // the session died meanwhile: whatever it got is gone with it
        this.holdsLock = rows[0].locked;
      }
      if (client === this.client && this.holdsLock) this.leaderUntil = sentAt + 2 * this.retryMs;
    } catch {
      void this.drop(client);
    }
  }

  private async connect(): Promise<pg.Client | null> {
    const client = new pg.Client({
      connectionString: this.url,
      keepAlive: true,
      connectionTimeoutMillis: this.retryMs,
      query_timeout: this.retryMs,
    });
    // A terminated backend or a cut connection: the lock is gone with the session.
    client.on('error', () => void this.drop(client));
    client.on('end', () => void this.drop(client));
    try {
      await client.connect();
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return null;
    }
    this.client = client;
    // Older servers do not know the setting: the election still works, only slower to heal a partition.
    await client.query(`select set_config('idle_session_timeout', $1, false)`, [String(3 * this.retryMs)]).catch(() => undefined);
    return client;
  }

  /** Forgets the current session and ends it: no session, no lock, no lead. A stale client's events are ignored. */
  private drop(client: pg.Client | null): Promise<void> {
    if (!client || client !== this.client) return Promise.resolve();
    this.client = null;
    this.holdsLock = false;
    this.leaderUntil = 0;
    return client.end().catch(() => undefined);
  }
}

// Take the lease if it is free, renew it if it is ours; 1 when we hold it afterwards, 0 otherwise.
const ACQUIRE_OR_RENEW = `
local holder = redis.call('get', KEYS[1])
if holder == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end
if holder then return 0 end
redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

export interface RedisLeaderOptions {
  /** Lifetime of the lease on the server (default 3 s). */
  ttlMs?: number;
  /** How often the leader renews and a follower tries (default the smaller of 1 s and a third of the TTL). */
  renewMs?: number;
  clock?: Pick<Clock, 'now'>;
}

/**
 * A Redis lease (a key with a PX expiry holding this candidate's token), renewed well before it lapses.
 * A leader that cannot renew (Redis unreachable, its process frozen) stops claiming the lead when the
 * lease it last renewed would expire, measured from when it sent that renewal and shortened by Redlock's
 * clock-drift allowance; the server expires the key no sooner, so a follower only takes over after that.
 */
export class RedisLeader implements LeaderElection {
  private readonly redis: Redis;
  private readonly token = randomUUID();
  private readonly ttlMs: number;
  private readonly clock: Pick<Clock, 'now'>;
  private readonly retrier: Retrier;
  private leaderUntil = 0;
  private stopped = false;

  constructor(
    url: string,
    private readonly key: string,
    options: RedisLeaderOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? REDIS_LEASE_TTL_MS;
    this.clock = options.clock ?? monotonicClock;
    const renewMs = options.renewMs ?? Math.min(REDIS_RENEW_MS, this.ttlMs / 3);
    this.redis = new Redis(url, {
      lazyConnect: true,
      maxRetriesPerRequest: 1,
      // A renewal stuck on a dead connection must fail, not wait: the lease is running out meanwhile.
      commandTimeout: renewMs,
      retryStrategy: reconnectDelayMs,
    });
    // Connection errors only delay renewals; the lease deadline decides when the lead is lost.
    this.redis.on('error', () => undefined);
    this.retrier = new Retrier(renewMs, () => this.attempt());
  }

  isLeader(): boolean {
    return this.clock.now() < this.leaderUntil;
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.redis.connect().catch(() => undefined);
    await this.retrier.start();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.retrier.stop();
    this.leaderUntil = 0;
    // Always: an attempt that raced with stop may have taken the lease without our knowing.
    await this.redis.eval(RELEASE, 1, this.key, this.token).catch(() => undefined);
    this.redis.disconnect();
  }

  private async attempt(): Promise<void> {
    const sentAt = this.clock.now();
    try {
      const held = (await this.redis.eval(ACQUIRE_OR_RENEW, 1, this.key, this.token, String(this.ttlMs))) === 1;
      if (this.stopped) return;
      this.leaderUntil = held ? sentAt + this.ttlMs - this.driftMs() : 0;
    } catch {
      // Unknown outcome: keep the deadline we had; it runs out by itself if renewals keep failing.
    }
  }

  /** Redlock's allowance for the server's and our clocks running at slightly different rates. */
  private driftMs(): number {
    return Math.ceil(this.ttlMs * 0.01) + 2;
  }
}
