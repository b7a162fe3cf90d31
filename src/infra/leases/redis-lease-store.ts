/**
 * LeaseStore on Redis, shared by every instance. A group is a sorted set under `<prefix>:<group>` whose
 * members are scored with their expiry (Redis's own clock, so instances whose clocks differ agree). Each
 * script drops expired members before it decides; this store renews the members it holds every third of the
 * lease time, so a live connection never expires and a crashed instance's members are gone within `ttlMs`.
 */
import type { Redis } from 'ioredis';
import { DISTINCT_SEPARATOR, type LeaseStore } from './lease-store.js';

/** Lease time: how long a crashed instance's connections keep counting. */
export const DEFAULT_LEASE_TTL_MS = 30_000;

/** Redis's clock in milliseconds, shared by the scripts. */
const NOW = `local t = redis.call('TIME') local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/** KEYS[1] group; ARGV member, max, ttlMs -> 1 added or already held, 0 full. */
const ACQUIRE = `${NOW}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`;

/** KEYS[1] group; ARGV ttlMs, member... -> members renewed (re-added if they expired meanwhile). */
const RENEW = `${NOW}
for i = 2, #ARGV do redis.call('ZADD', KEYS[1], now + tonumber(ARGV[1]), ARGV[i]) end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return #ARGV - 1`;

const COUNT = `${NOW}
return redis.call('ZCOUNT', KEYS[1], '(' .. now, '+inf')`;

/** Live members counted by the part before their last separator (ARGV[1]). */
const COUNT_DISTINCT = `${NOW}
local seen, n = {}, 0
for _, m in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. now, '+inf')) do
  local cut = m
  local at = string.find(m, ARGV[1], 1, true)
  while at do cut = string.sub(m, 1, at - 1) at = string.find(m, ARGV[1], at + 1, true) end
  if not seen[cut] then seen[cut] = true n = n + 1 end
end
return n`;

/** A bound Lua can compare against: "no limit". */
const NO_LIMIT = 2 ** 31;

export interface RedisLeaseStoreOptions {
  ttlMs?: number;
  /** Renewal failures (Redis down): the members stay held here and are renewed on the next round. */
  onError?: (error: unknown) => void;
}

export class RedisLeaseStore implements LeaseStore {
  private readonly held = new Map<string, Set<string>>();
  private readonly ttlMs: number;
  private timer: NodeJS.Timeout | null;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly options: RedisLeaseStoreOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? DEFAULT_LEASE_TTL_MS;
    this.timer = setInterval(() => void this.renew(), Math.max(10, Math.floor(this.ttlMs / 3)));
    this.timer.unref();
  }

  async acquire(group: string, member: string, max: number): Promise<boolean> {
    const limit = Number.isFinite(max) ? max : NO_LIMIT;
    const added = Number(await this.redis.eval(ACQUIRE, 1, this.key(group), member, limit, this.ttlMs)) === 1;
    if (added) {
      let members = this.held.get(group);
      if (!members) this.held.set(group, (members = new Set()));
      members.add(member);
    }
    return added;
  }

  async release(group: string, member: string): Promise<void> {
    const members = this.held.get(group);
    members?.delete(member);
    if (members?.size === 0) this.held.delete(group);
    await this.redis.zrem(this.key(group), member);
  }

  async count(group: string): Promise<number> {
    return Number(await this.redis.eval(COUNT, 1, this.key(group)));
  }

  async countDistinct(group: string): Promise<number> {
    return Number(await this.redis.eval(COUNT_DISTINCT, 1, this.key(group), DISTINCT_SEPARATOR));
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.held.clear();
  }

  /** One script per group: every member this instance holds gets a full lease time again. */
  private async renew(): Promise<void> {
    for (const [group, members] of this.held) {
      if (members.size === 0) continue;
      await this.redis.eval(RENEW, 1, this.key(group), this.ttlMs, ...members).catch((error) => this.options.onError?.(error));
    }
  }

  private key(group: string): string {
    return `${this.prefix}:${group}`;
  }
}
