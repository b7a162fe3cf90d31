/**
 * One scheduler leader per station. With several instances, the leader is whoever holds a Redis lock
 * (REDIS_URL) or a PostgreSQL session advisory lock (DATABASE_URL); the embedded default has one process,
 * which always leads. Followers keep trying, so a new leader takes over when the old one dies.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { Redis } from 'ioredis';

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

const RETRY_MS = 5_000;

/** Holds `pg_try_advisory_lock` on a dedicated connection: the lock lives exactly as long as the session. */
export class PgAdvisoryLeader implements LeaderElection {
  private client: pg.Client | null = null;
  private leader = false;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly url: string,
    private readonly lockKey: number,
  ) {}

  isLeader(): boolean {
    return this.leader;
  }

  async start(): Promise<void> {
    await this.attempt();
    this.timer = setInterval(() => void this.attempt(), RETRY_MS);
    this.timer.unref();
  }

  private async attempt(): Promise<void> {
    try {
      if (!this.client) {
        const client = new pg.Client({ connectionString: this.url });
        client.on('error', () => this.reset());
        await client.connect();
        this.client = client;
      }
      if (this.leader) {
        await this.client.query('select 1'); // the session (and so the lock) is still alive
        return;
      }
      const { rows } = await this.client.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [this.lockKey]);
      this.leader = rows[0].locked;
    } catch {
      this.reset();
    }
  }

  private reset(): void {
    this.leader = false;
    const client = this.client;
    this.client = null;
    void client?.end().catch(() => undefined);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.leader = false;
    await this.client?.end().catch(() => undefined);
    this.client = null;
  }
}

const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/** A Redis lease (SET NX PX), renewed well before it lapses; a stalled leader loses it after the TTL. */
export class RedisLeader implements LeaderElection {
  private readonly redis: Redis;
  private readonly token = randomUUID();
  private leader = false;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    url: string,
    private readonly key: string,
    private readonly ttlMs = 15_000,
  ) {
    this.redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    this.redis.on('error', () => (this.leader = false));
  }

  isLeader(): boolean {
    return this.leader;
  }

  async start(): Promise<void> {
    await this.redis.connect().catch(() => undefined);
    await this.attempt();
    this.timer = setInterval(() => void this.attempt(), Math.min(RETRY_MS, this.ttlMs / 3));
    this.timer.unref();
  }

  private async attempt(): Promise<void> {
    try {
      if (this.leader) {
        this.leader = (await this.redis.eval(RENEW, 1, this.key, this.token, String(this.ttlMs))) === 1;
      } else {
        this.leader = (await this.redis.set(this.key, this.token, 'PX', this.ttlMs, 'NX')) === 'OK';
      }
    } catch {
      this.leader = false;
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (this.leader) await this.redis.eval(RELEASE, 1, this.key, this.token).catch(() => undefined);
    this.leader = false;
    this.redis.disconnect();
  }
}
