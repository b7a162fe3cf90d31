/**
 * Per-account login throttling, on top of the per-address rate limits (which a botnet spreads over many
 * addresses). Failures are counted per lower-cased e-mail, whether or not an account has it, so a refusal
 * says nothing about which e-mails exist.
 *
 * - The first FREE_FAILURES failures cost nothing. From then on every failure locks the e-mail for a time
 *   that doubles with each failure (30 s, 1 min, 2 min ...) up to MAX_LOCK (15 min); attempts during a lock
 *   are refused with Retry-After, without checking the password and without extending the lock. Online
 *   guessing is held to about four tries an hour, and a lock never lasts longer than the cap.
 * - A successful login forgets the failures.
 * - An attacker could keep a victim's e-mail locked by failing once per lock. So an address the account
 *   logged in from successfully (in the last 30 days) is "familiar" and does not obey the e-mail's lock,
 *   only one of its own, counted the same way for failures from that address: the owner keeps getting in
 *   from home while the e-mail is locked for everyone else (the "familiar location" rule of smart lockouts).
 *
 * State lives in a CounterStore (Redis with REDIS_URL), so every instance counts the same attempts; keys
 * are hashes, so no e-mail or address is stored in clear.
 */
import { createHash } from 'node:crypto';
import type { Clock } from '../infra/clock/clock.js';
import type { CounterStore } from '../infra/counters/counter-store.js';
import { Errors } from '../errors.js';

export interface ThrottlePolicy {
  freeFailures: number;
  firstLockMs: number;
  maxLockMs: number;
  /** Failures older than this (since the last one) are forgotten. */
  memoryMs: number;
  /** How long an address stays familiar after a successful login from it. */
  familiarMs: number;
}

export const DEFAULT_THROTTLE_POLICY: ThrottlePolicy = {
  freeFailures: 5,
  firstLockMs: 30_000,
  maxLockMs: 15 * 60_000,
  memoryMs: 24 * 3600_000,
  familiarMs: 30 * 24 * 3600_000,
};

interface Keys {
  failures: string;
  lock: string;
  addressFailures: string;
  addressLock: string;
  familiar: string;
}

function digest(value: string): string {
  return createHash('sha256').update(value).digest('base64url').slice(0, 22);
}

function keysOf(email: string, address: string): Keys {
  const account = digest(`login:${email.trim().toLowerCase()}`);
  const pair = `${account}:${digest(`address:${address}`)}`;
  return {
    failures: `login:failures:${account}`,
    lock: `login:lock:${account}`,
    addressFailures: `login:failures:${pair}`,
    addressLock: `login:lock:${pair}`,
    familiar: `login:familiar:${pair}`,
  };
}

export class LoginThrottle {
  constructor(
    private readonly store: CounterStore,
    private readonly clock: Clock,
    private readonly policy: ThrottlePolicy = DEFAULT_THROTTLE_POLICY,
  ) {}

  /** Seconds before this e-mail may be tried again from this address; 0 when it may be tried now. */
  async retryAfterSec(email: string, address: string): Promise<number> {
    const keys = keysOf(email, address);
    const familiar = (await this.store.get(keys.familiar)) !== null;
    const until = Number((await this.store.get(familiar ? keys.addressLock : keys.lock)) ?? 0);
    return Math.max(0, Math.ceil((until - this.clock.now()) / 1000));
  }

  /** 429 with Retry-After while this e-mail is locked for this address. */
  async refuseWhileLocked(email: string, address: string): Promise<void> {
    const retryAfter = await this.retryAfterSec(email, address);
    if (retryAfter > 0) throw Errors.rateLimited(retryAfter, 'Too many failed logins for this account; try again later');
  }

  async recordFailure(email: string, address: string): Promise<void> {
    const keys = keysOf(email, address);
    const familiar = (await this.store.get(keys.familiar)) !== null;
    await this.count(keys.failures, keys.lock);
    if (familiar) await this.count(keys.addressFailures, keys.addressLock);
  }

  async recordSuccess(email: string, address: string): Promise<void> {
    const keys = keysOf(email, address);
    await this.store.delete(keys.failures, keys.lock, keys.addressFailures, keys.addressLock);
    await this.store.set(keys.familiar, '1', this.policy.familiarMs);
  }

  /** The lock after the n-th failure in a row (0 while failures are still free). */
  lockMs(failures: number): number {
    const { freeFailures, firstLockMs, maxLockMs } = this.policy;
    if (failures < freeFailures) return 0;
    return Math.min(maxLockMs, firstLockMs * 2 ** Math.min(30, failures - freeFailures));
  }

  private async count(failuresKey: string, lockKey: string): Promise<void> {
    const failures = await this.store.increment(failuresKey, this.policy.memoryMs);
    const lockMs = this.lockMs(failures);
    // The deadline is stored rather than left to the key's expiry: time is the injected clock's, and the
    // key lives as long as the failures are remembered.
    if (lockMs > 0) await this.store.set(lockKey, String(this.clock.now() + lockMs), this.policy.memoryMs);
  }
}
