/**
 * The station's listener count across instances, and the day's peak.
 *
 * The count is the number of distinct listeners (an account or an API key) holding a radio stream or a
 * now-playing or listeners WebSocket on any instance: ListenerPresence keeps them in a shared LeaseStore
 * group, so a listener with three streams on two instances counts once. Each instance reads the count again
 * after its own changes and every period, when it also publishes `{instance_id, count, at, day, peak_today}`
 * on LISTENER_COUNTS_CHANNEL (the analytics feed follows the gauge from these reports).
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
import { LISTENER_COUNTS_CHANNEL } from '../events/now-playing.js';
import type { ListenerPresence } from './listener-presence.js';

export interface ListenerCountReport {
  instance_id: string;
  /** The station's distinct listeners as the sender counts them. */
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
  /** The distinct listeners of every instance. */
  presence: ListenerPresence;
  publishEveryMs?: number;
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
  private readonly publishEveryMs: number;
  private day: string;
  private peak = 0;
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => Promise<void>) | null = null;

  constructor(private readonly options: ListenerCounterOptions) {
    this.instanceId = options.instanceId ?? randomUUID();
    this.publishEveryMs = options.publishEveryMs ?? 5000;
    this.day = utcDay(options.clock.now());
  }

  /** This instance's own distinct listeners. */
  local(): number {
    return this.options.presence.localCount();
  }

  /** Distinct listeners of the whole station, as last read from the shared presence. */
  total(): number {
    const sum = this.options.presence.count();
    this.notePeak(sum, this.options.clock.now());
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

  /** Stops publishing and takes this instance's listeners out, rather than let the others wait for their leases to expire. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.unsubscribe?.();
    this.unsubscribe = null;
    await this.options.presence.leaveAll();
    await this.publish().catch(() => undefined);
  }

  /** Reads the station's count again and publishes it with the peak now (the timer does it every period). */
  async publish(): Promise<void> {
    await this.options.presence.refresh();
    const count = this.total();
    const report: ListenerCountReport = {
      instance_id: this.instanceId,
      count,
      at: this.options.clock.now(),
      day: this.day,
      peak_today: this.peak,
    };
    await this.options.bus.publish(LISTENER_COUNTS_CHANNEL, report);
  }

  /** A report from the bus: adopt the sender's peak of today, and read the count again (its listeners may have changed). */
  receive(message: unknown): void {
    if (!isReport(message) || message.instance_id === this.instanceId) return;
    const now = this.options.clock.now();
    this.rollDay(now);
    if (message.day === this.day) this.peak = Math.max(this.peak, Math.trunc(message.peak_today));
    void this.options.presence.refresh().then(() => this.total());
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
