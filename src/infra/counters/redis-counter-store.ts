/** CounterStore on Redis, shared by every instance; every key lives under `<REDIS_PREFIX>:<namespace>:`. */
import type { Redis } from 'ioredis';
import type { CounterStore } from './counter-store.js';

/** KEYS[1]; ARGV now, window end, ttl -> 1 claimed, 0 a window still open (the value is its end, by the caller's clock). */
const CLAIM = `local ends = redis.call('GET', KEYS[1])
if ends and tonumber(ends) > tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1`;

export class RedisCounterStore implements CounterStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async increment(key: string, ttlMs: number): Promise<number> {
    const results = await this.redis
      .multi()
      .incr(this.key(key))
      .pexpire(this.key(key), Math.max(1, Math.ceil(ttlMs)))
      .exec();
    const [error, count] = results?.[0] ?? [new Error('the increment did not run')];
    if (error) throw error;
    return Number(count);
  }

  async get(key: string): Promise<string | null> {
    return this.redis.get(this.key(key));
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await this.redis.set(this.key(key), value, 'PX', Math.max(1, Math.ceil(ttlMs)));
  }

  async claim(key: string, now: number, windowMs: number): Promise<boolean> {
    const ttl = Math.max(1, Math.ceil(windowMs));
    return Number(await this.redis.eval(CLAIM, 1, this.key(key), now, now + windowMs, ttl)) === 1;
  }

  async delete(...keys: string[]): Promise<void> {
    if (keys.length > 0) await this.redis.del(...keys.map((key) => this.key(key)));
  }

  private key(key: string): string {
    return `${this.prefix}:${key}`;
  }
}
