/**
 * Small expiring values shared by every instance: failure counters, lock deadlines, one-time markers.
 * Login throttling and the 2FA step's attempt budget keep their state here, so an attacker who spreads
 * attempts over several instances is counted once. In-process without Redis; Redis with REDIS_URL.
 */
export interface CounterStore {
  /** Atomically adds one to `key` (absent counts as 0), keeps it `ttlMs` from now; returns the new count. */
  increment(key: string, ttlMs: number): Promise<number>;
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /**
   * Atomically claims `key` for the window [now, now + windowMs) unless a claim's window is still open at
   * `now` (times by the caller's clock); true for the one caller that claimed it. A refused claim does not
   * extend the window.
   */
  claim(key: string, now: number, windowMs: number): Promise<boolean>;
  delete(...keys: string[]): Promise<void>;
}
