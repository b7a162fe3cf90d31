/**
 * The listener count over time: every instance records the station-wide count (the same number everywhere)
 * once a minute into that minute's row, keeping the highest, so the history is shared by every instance and
 * survives restarts. Read by GET /station/v1/radio/listeners/history.
 */
import { and, gte, lt, asc, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../infra/clock/clock.js';
import type { IntervalTimers } from '../../infra/clock/timers.js';
import type { Db } from '../../infra/db/client.js';
import { listenerSamples } from '../../infra/db/schema/index.js';

const MINUTE_MS = 60_000;
const RETENTION_MS = 30 * 24 * 60 * MINUTE_MS;

export interface ListenerSample {
  at: string;
  listeners: number;
}

export class ListenerHistory {
  private timer: unknown = null;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly timers: IntervalTimers,
    private readonly total: () => number,
  ) {}

  start(log: FastifyBaseLogger): void {
    this.timer = this.timers.setInterval(() => {
      this.record().catch((error) => log.warn({ err: error }, 'listener count not recorded'));
    }, MINUTE_MS);
  }

  stop(): void {
    if (this.timer !== null) this.timers.clearInterval(this.timer);
    this.timer = null;
  }

  /** This minute's sample (the higher of what is there and the count now); older than 30 days goes. */
  async record(): Promise<void> {
    const now = this.clock.now();
    const minute = new Date(now - (now % MINUTE_MS));
    const listeners = this.total();
    await this.db
      .insert(listenerSamples)
      .values({ minute, listeners })
      .onConflictDoUpdate({ target: listenerSamples.minute, set: { listeners: sql`greatest(${listenerSamples.listeners}, excluded.listeners)` } });
    await this.db.delete(listenerSamples).where(lt(listenerSamples.minute, new Date(now - RETENTION_MS)));
  }

  /** The samples of the last `hours` hours, oldest first (minutes nobody recorded are absent). */
  async last(hours: number): Promise<ListenerSample[]> {
    const now = this.clock.now();
    const rows = await this.db
      .select()
      .from(listenerSamples)
      .where(and(gte(listenerSamples.minute, new Date(now - hours * 60 * MINUTE_MS))))
      .orderBy(asc(listenerSamples.minute));
    return rows.map((row) => ({ at: row.minute.toISOString(), listeners: row.listeners }));
  }
}
