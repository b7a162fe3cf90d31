/** Timers as a port, so tests fire them by hand instead of waiting for them in real time. */
export interface IntervalTimers {
  /** Calls `callback` every `ms`; the timer never keeps the process alive by itself. */
  setInterval(callback: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

export interface DelayTimers {
  /** Calls `callback` once after `ms`. */
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemTimers: IntervalTimers & DelayTimers = {
  setInterval: (callback, ms) => setInterval(callback, ms).unref(),
  clearInterval: (handle) => clearInterval(handle as NodeJS.Timeout),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

interface ManualTimer {
  callback: () => void;
  /** null for a one-shot timer. */
  everyMs: number | null;
  dueAt: number;
  order: number;
}

/**
 * Timers that fire only when advance() moves their time to or past a due time: in time order (the order
 * they were set for equal times), an interval once per period crossed.
 */
export class ManualTimers implements IntervalTimers, DelayTimers {
  private current = 0;
  private set = 0;
  private readonly timers = new Set<ManualTimer>();

  setInterval(callback: () => void, ms: number): unknown {
    return this.add(callback, ms, ms);
  }

  clearInterval(handle: unknown): void {
    this.timers.delete(handle as ManualTimer);
  }

  setTimeout(callback: () => void, ms: number): unknown {
    return this.add(callback, Math.max(0, ms), null);
  }

  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as ManualTimer);
  }

  /** The periods of the intervals now set, in the order they were set. */
  periods(): number[] {
    return [...this.timers].flatMap((timer) => (timer.everyMs === null ? [] : [timer.everyMs]));
  }

  /** How many timers (one-shot or repeating) are waiting to fire. */
  pending(): number {
    return this.timers.size;
  }

  advance(ms: number): void {
    const until = this.current + ms;
    for (let next = this.nextDue(until); next; next = this.nextDue(until)) {
      this.current = next.dueAt;
      if (next.everyMs === null) this.timers.delete(next);
      else next.dueAt += next.everyMs;
      next.callback();
    }
    this.current = until;
  }

  private add(callback: () => void, ms: number, everyMs: number | null): ManualTimer {
    const timer: ManualTimer = { callback, everyMs, dueAt: this.current + ms, order: this.set++ };
    this.timers.add(timer);
    return timer;
  }

  private nextDue(until: number): ManualTimer | null {
    let next: ManualTimer | null = null;
    for (const timer of this.timers) {
      if (timer.dueAt > until) continue;
      if (!next || timer.dueAt < next.dueAt || (timer.dueAt === next.dueAt && timer.order < next.order)) next = timer;
    }
    return next;
  }
}
