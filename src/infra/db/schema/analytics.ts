/**
 * The live analytics feed behind GET /v1/analytics/stream (src/platform/analytics/README.md). Written only by
 * the triggers of migration 0020_analytics, in the transaction that inserts a play event or an order, so the
 * feed can never disagree with the tables it summarises:
 *
 * - analytics_live_head: one row whose `seq` numbers the feed. Taking the next number locks the row until the
 *   transaction ends, so numbers are handed out in commit order with no gaps: once event N is visible, every
 *   event before it is too. That is what lets every instance resume a client from its Last-Event-ID.
 * - analytics_live_totals: the running counters of each UTC day (by the play's or the order's own time).
 * - analytics_live_events: the last events (a bounded buffer: older ones are pruned by the trigger), each with
 *   the day's counters as they stood right after it.
 */
import { sql } from 'drizzle-orm';
import { bigint, boolean, check, date, jsonb, pgEnum, pgTable, primaryKey, timestamp } from 'drizzle-orm/pg-core';
import { apiKeyEnvironment } from './auth.js';

export const liveEventKind = pgEnum('analytics_live_event_kind', ['play', 'order']);

/** A UTC day's counters as the feed carries them (analytics_counters() of migration 0020_analytics). */
export interface LiveCounters {
  day: string;
  plays: number;
  radio_plays: number;
  on_demand_plays: number;
  orders: number;
  /** Gross cents by currency. */
  revenue_cents: Record<string, number>;
}

/** An event of the feed as the triggers of migrations 0020_analytics and 0031_store_livemode write it. */
export type LiveEventData =
  | {
      type: 'play';
      track_id: string;
      /** Null only if the track was gone by the time the play was counted. */
      artist_id: string | null;
      source: 'radio' | 'on_demand';
      device: 'mobile' | 'tablet' | 'desktop' | 'tv' | 'bot' | 'other' | 'unknown' | null;
      country: string | null;
      at: string;
      counters: LiveCounters;
    }
  | { type: 'order'; artist_id: string; product_id: string; amount_cents: number; currency: string; at: string; counters: LiveCounters };

export const analyticsLiveHead = pgTable(
  'analytics_live_head',
  {
    singleton: boolean('singleton').primaryKey().default(true),
    seq: bigint('seq', { mode: 'number' }).notNull().default(0),
    /** How many of the last events analytics_live_events keeps for Last-Event-ID resume. */
    retain: bigint('retain', { mode: 'number' }).notNull().default(10_000),
  },
  (t) => [check('analytics_live_head_singleton', sql`${t.singleton}`), check('analytics_live_head_retain', sql`${t.retain} >= 1`)],
);

export const analyticsLiveTotals = pgTable(
  'analytics_live_totals',
  {
    environment: apiKeyEnvironment('environment').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    plays: bigint('plays', { mode: 'number' }).notNull().default(0),
    radioPlays: bigint('radio_plays', { mode: 'number' }).notNull().default(0),
    orders: bigint('orders', { mode: 'number' }).notNull().default(0),
    /** Gross cents by currency: amounts in different currencies are never added together. */
    revenueCents: jsonb('revenue_cents').$type<Record<string, number>>().notNull().default({}),
  },
  (t) => [primaryKey({ columns: [t.environment, t.day] })],
);

export const analyticsLiveEvents = pgTable('analytics_live_events', {
  id: bigint('id', { mode: 'number' }).primaryKey(),
  /** Sandbox orders are 'test' and reach only test credentials; plays are always 'live' (the sandbox records none). */
  environment: apiKeyEnvironment('environment').notNull(),
  kind: liveEventKind('kind').notNull(),
  /** The event exactly as it is sent and replayed. */
  data: jsonb('data').$type<LiveEventData>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
