/**
 * Request quotas of developer keys (platform-api.md, "Limits"): 1,000,000 requests a calendar month (UTC)
 * in the live environment, 100,000 in the sandbox, and a burst of 500 a minute. They are counted per owner
 * and environment, not per key: every live key of one account draws on one live month and one minute (and
 * its test keys on one test month and one minute), so making more keys never buys more requests. Counted
 * in the shared CounterStore (Redis with REDIS_URL), so every instance counts against the same numbers;
 * time comes from the injected clock, so a month turns when the clock says so.
 *
 * Every answer to a key-authenticated request carries the window that binds it, with the spelling
 * @fastify/rate-limit uses on the auth routes (X-RateLimit-Limit, X-RateLimit-Remaining, and
 * X-RateLimit-Reset as seconds until that window resets): the minute's burst, or the month's quota once
 * fewer requests are left in the month than in the minute. Beyond either, 429 RATE_LIMITED with
 * Retry-After until the window resets; a month's quota spent answers 429 until the month turns.
 */
import type { Clock } from '../infra/clock/clock.js';
import type { CounterStore } from '../infra/counters/counter-store.js';
import type { Environment } from '../kernel/environment.js';

export interface QuotaLimits {
  /** Requests per calendar month (UTC) of one account's live keys together. */
  live: number;
  /** Requests per calendar month (UTC) of one account's test (sandbox) keys together. */
  test: number;
  /** Requests per minute of one account's keys of one environment together. */
  burstPerMinute: number;
}

export const DEFAULT_QUOTAS: QuotaLimits = { live: 1_000_000, test: 100_000, burstPerMinute: 500 };

export const QUOTA_DESCRIPTION =
  "Quotas per account and environment (all of an account's live keys share one count, its test keys another): " +
  'live 1,000,000 and test 100,000 requests a calendar month (UTC), and at most 500 a minute; ' +
  'every answer carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset (seconds until the binding window resets), ' +
  'and beyond a limit the answer is 429 PLATFORM_RATE_LIMITED with Retry-After.';

export interface QuotaDecision {
  allowed: boolean;
  /** The binding window: its limit, what is left of it, and seconds until it resets. */
  limit: number;
  remaining: number;
  resetSec: number;
}

const MINUTE_MS = 60_000;

export class ApiQuota {
  readonly limits: QuotaLimits;

  constructor(
    private readonly counters: CounterStore,
    private readonly clock: Clock,
    limits: Partial<QuotaLimits> = {},
  ) {
    this.limits = { ...DEFAULT_QUOTAS, ...limits };
  }

  /**
   * Counts one request of a key of `ownerId` (the key's owner) in `environment`, and says whether it may be
   * served. A refused burst does not spend the month.
   */
  async take(ownerId: string, environment: Environment): Promise<QuotaDecision> {
    const now = this.clock.now();
    const minute = Math.floor(now / MINUTE_MS);
    const burstReset = Math.max(1, Math.ceil(((minute + 1) * MINUTE_MS - now) / 1000));
    const burst = await this.counters.increment(`quota:burst:${ownerId}:${environment}:${minute}`, 2 * MINUTE_MS);
    const burstLimit = this.limits.burstPerMinute;
    if (burst > burstLimit) return { allowed: false, limit: burstLimit, remaining: 0, resetSec: burstReset };

    const month = monthOf(now);
    const monthLimit = environment === 'live' ? this.limits.live : this.limits.test;
    const monthReset = Math.max(1, Math.ceil((month.endMs - now) / 1000));
    const used = await this.counters.increment(monthKey(ownerId, environment, month.label), month.endMs - now + 24 * 3600_000);
    if (used > monthLimit) return { allowed: false, limit: monthLimit, remaining: 0, resetSec: monthReset };

    const burstLeft = burstLimit - burst;
    const monthLeft = monthLimit - used;
    return monthLeft < burstLeft
      ? { allowed: true, limit: monthLimit, remaining: monthLeft, resetSec: monthReset }
      : { allowed: true, limit: burstLimit, remaining: burstLeft, resetSec: burstReset };
  }

  /** What `ownerId`'s keys used of this month's quotas, per environment (nothing is counted by reading). */
  async usage(ownerId: string): Promise<QuotaUsage> {
    const now = this.clock.now();
    const month = monthOf(now);
    const used = async (environment: 'live' | 'test') => Number((await this.counters.get(monthKey(ownerId, environment, month.label))) ?? 0) || 0;
    const [live, test] = await Promise.all([used('live'), used('test')]);
    return {
      month: month.label,
      resets_at: new Date(month.endMs).toISOString(),
      burst_per_minute: this.limits.burstPerMinute,
      live: { used: live, limit: this.limits.live },
      test: { used: test, limit: this.limits.test },
    };
  }
}

/** GET /v1/developer/usage: an account's month so far against its quotas. */
export interface QuotaUsage {
  month: string;
  resets_at: string;
  burst_per_minute: number;
  live: { used: number; limit: number };
  test: { used: number; limit: number };
}

/** The counter of an owner's month ('2025-03') in one environment: exported so tests can stand at the end of a month without a million requests. */
export function monthKey(ownerId: string, environment: Environment, label: string): string {
  return `quota:month:${ownerId}:${environment}:${label}`;
}

export function monthOf(nowMs: number): { label: string; endMs: number } {
  const date = new Date(nowMs);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  return { label: `${year}-${String(month + 1).padStart(2, '0')}`, endMs: Date.UTC(year, month + 1, 1) };
}
