/**
 * The station's listener count across instances, and the day's peak.
 *
 * Each instance counts its own listeners (stream listeners plus WebSocket clients of now-playing and
 * listeners) and publishes `{instance_id, count, at, day, peak_today}` on LISTENER_COUNTS_CHANNEL every
 * period. Every instance keeps the latest report of every other instance, forgets one not heard from for
 * three periods (a crashed instance), and sums them with its own live count: that is `total()`.
 *
 * Peak of the day (max total since 00:00 UTC): kept in memory, not in the database. Each report carries the
 * sender's peak and its UTC day, and a receiver adopts the highest peak of the same day, so an instance that
 * starts at 15:00 learns the morning's peak within one period. The peak is lost only if every instance
 * restarts at once (it then starts again from the current total). At midnight UTC (by the Clock) the peak
 * restarts from the total at that moment.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../infra/clock/clock.js';
import type { EventBus } from '../../infra/pubsub/event-bus.js';
import { LISTENER_COUNTS_CHANNEL } from '../radio/now-playing.js';

export interface ListenerCountReport {
  instance_id: string;
  count: number;
  /** Epoch milliseconds of the sender's clock. */
  at: number;
  /** UTC day (YYYY-MM-DD) the peak belongs to. */
  day: string;
  peak_today: number;
}

export interface ListenerCounterOptions {
  bus: EventBus;
  clock: Clock;
  /** This instance's listeners right now (stream listeners plus WebSocket clients). */
  localCount: () => number;
  publishEveryMs?: number;
  /** A report older than this many periods is forgotten (default 3). */
  expireAfterPeriods?: number;
  instanceId?: string;
}

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function isReport(message: unknown): message is ListenerCountReport {
  const m = message as Partial<ListenerCountReport> | null;
  return (
    typeof m === 'object' &&
    m !== null &&
    typeof m.instance_id === 'string' &&
    Number.isFinite(m.count) &&
    Number.isFinite(m.at) &&
    typeof m.day === 'string' &&
    Number.isFinite(m.peak_today)
  );
}

export class ListenerCounter {
  readonly instanceId: string;
  private readonly others = new Map<string, { count: number; at: number }>();
  private readonly publishEveryMs: number;
  private readonly expireAfterMs: number;
  private day: string;
  private peak = 0;
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => Promise<void>) | null = null;

  constructor(private readonly options: ListenerCounterOptions) {
    this.instanceId = options.instanceId ?? randomUUID();
    this.publishEveryMs = options.publishEveryMs ?? 5000;
    this.expireAfterMs = this.publishEveryMs * (options.expireAfterPeriods ?? 3);
    this.day = utcDay(options.clock.now());
  }

  /** This instance's own listeners. */
  local(): number {
    return this.options.localCount();
  }

  /** Listeners of the whole station: this instance live, the others as last reported. */
  total(): number {
    const now = this.options.clock.now();
    let sum = this.local();
    for (const [id, report] of this.others) {
      if (now - report.at > this.expireAfterMs) this.others.delete(id);
      else sum += report.count;
    }
    this.notePeak(sum, now);
    return sum;
  }

  /** The highest total since 00:00 UTC today. */
  peakToday(): number {
    this.total();
    return this.peak;
  }

  async start(): Promise<void> {
    this.unsubscribe = await this.options.bus.subscribe(LISTENER_COUNTS_CHANNEL, (message) => this.receive(message));
    await this.publish();
    this.timer = setInterval(() => void this.publish().catch(() => undefined), this.publishEveryMs);
    this.timer.unref();
  }

  /** Stops publishing and tells the others this instance has nobody left, rather than let them wait for expiry. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.unsubscribe?.();
    this.unsubscribe = null;
    await this.publish(0).catch(() => undefined);
  }

  /** Publishes this instance's count now (the timer does it every period). */
  async publish(count = this.local()): Promise<void> {
    const peak = this.peakToday();
    const report: ListenerCountReport = {
      instance_id: this.instanceId,
      count,
      at: this.options.clock.now(),
      day: this.day,
      peak_today: peak,
    };
    await this.options.bus.publish(LISTENER_COUNTS_CHANNEL, report);
  }

  /** A report from the bus (exposed for tests of the merge rules). */
  receive(message: unknown): void {
    if (!isReport(message) || message.instance_id === this.instanceId) return;
    this.others.set(message.instance_id, { count: Math.max(0, Math.trunc(message.count)), at: message.at });
    const now = this.options.clock.now();
    this.rollDay(now);
    if (message.day === this.day) this.peak = Math.max(this.peak, Math.trunc(message.peak_today));
    this.total();
  }

  private notePeak(total: number, now: number): void {
    if (this.rollDay(now)) this.peak = total;
    else if (total > this.peak) this.peak = total;
  }

  /** True when the UTC day changed since the last look: the peak starts over. */
  private rollDay(now: number): boolean {
    const today = utcDay(now);
    if (today === this.day) return false;
    this.day = today;
    this.peak = 0;
    return true;
  }
}
