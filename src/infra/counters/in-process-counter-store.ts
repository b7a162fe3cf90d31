/** CounterStore for a single process: a Map whose entries expire by the injected clock. */
import type { Clock } from '../clock/clock.js';
import type { CounterStore } from './counter-store.js';

/** Beyond this many live keys the oldest are dropped: a flood of new keys must not grow memory without bound. */
const MAX_KEYS = 100_000;

export class InProcessCounterStore implements CounterStore {
  private readonly entries = new Map<string, { value: string; expiresAt: number }>();

  constructor(private readonly clock: Clock) {}

  async increment(key: string, ttlMs: number): Promise<number> {
    const count = Number(this.live(key) ?? 0) + 1;
    this.put(key, String(count), ttlMs);
    return count;
  }

  async get(key: string): Promise<string | null> {
    return this.live(key);
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    this.put(key, value, ttlMs);
  }

  async claim(key: string, now: number, windowMs: number): Promise<boolean> {
    const until = this.live(key);
    if (until !== null && Number(until) > now) return false;
    this.put(key, String(now + windowMs), windowMs);
    return true;
  }

  async delete(...keys: string[]): Promise<void> {
    for (const key of keys) this.entries.delete(key);
  }

  private live(key: string): string | null {
    const entry = this.entries.get(key);
    if (!entry) return null;
    if (entry.expiresAt <= this.clock.now()) {
      this.entries.delete(key);
      return null;
    }
    return entry.value;
  }

  private put(key: string, value: string, ttlMs: number): void {
    // Re-inserting moves the key to the end, so Map order stays "least recently written first".
    this.entries.delete(key);
    if (this.entries.size >= MAX_KEYS) {
      for (const oldest of this.entries.keys()) {
        this.entries.delete(oldest);
        if (this.entries.size < MAX_KEYS * 0.9) break;
      }
    }
    this.entries.set(key, { value, expiresAt: this.clock.now() + ttlMs });
  }
}
