/**
 * Reads of the live analytics feed (analytics_live_*; written by the triggers of migration 0020_analytics).
 * Feed numbers are handed out in commit order without gaps, so "every event after N" read from the
 * database is complete on whichever instance reads it.
 */
import { sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../infra/db/client.js';
import type { LiveCounters, LiveEventData } from '../../infra/db/schema/index.js';
import type { Environment } from '../../kernel/environment.js';

export interface FeedEvent {
  id: number;
  environment: Environment;
  kind: LiveEventData['type'];
  data: LiveEventData;
}

export type Counters = LiveCounters;

export interface FeedSync {
  /** The last feed number at the time of the read. */
  head: number;
  /** Today's counters of the environment as of `head`. */
  counters: Counters;
  /** The environment's events after the client's Last-Event-ID up to `head`; null when it cannot be resumed. */
  replay: FeedEvent[] | null;
}

type Row = Record<string, unknown>;
const rowsOf = (result: unknown) => (result as { rows: Row[] }).rows;
/** A jsonb value as the driver returns it (PGlite: parsed; some paths: text), in the shape its writer gave it. */
const json = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;

const eventOf = (row: Row): FeedEvent => ({
  id: Number(row.id),
  environment: row.environment as Environment,
  kind: row.kind as FeedEvent['kind'],
  data: json<LiveEventData>(row.data),
});

export class LiveFeedRepository {
  constructor(private readonly db: Db) {}

  /**
   * A client's starting point, in one snapshot: the head, today's counters, and (when `after` is still
   * covered by the buffer) the events it missed. `after` is resumable when it is the head, or no older than
   * the oldest event kept; a number beyond the head (another database, a forged header) is not.
   */
  sync(environment: Environment, day: string, after: number | null): Promise<FeedSync> {
    return this.db.transaction(
      async (tx) => {
        const [state] = rowsOf(
          await tx.execute(sql`
            select h.seq as head, (select min(id) from analytics_live_events) as oldest,
                   analytics_counters(coalesce(
                     (select t from analytics_live_totals t where t.environment = ${environment} and t.day = ${day}::date),
                     row(${environment}::api_key_environment, ${day}::date, 0, 0, 0, '{}'::jsonb)::analytics_live_totals)) as counters
            from analytics_live_head h`),
        );
        const head = Number(state.head);
        const oldest = state.oldest === null ? null : Number(state.oldest);
        const resumable = after !== null && after <= head && (after === head || (oldest !== null && after >= oldest - 1));
        const replay = resumable ? await this.read(tx, after, head, environment) : null;
        return { head, counters: json<Counters>(state.counters), replay };
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
  }

  /** Every event after `after` (all environments), oldest first, at most `limit`. */
  async since(after: number, limit: number): Promise<FeedEvent[]> {
    const rows = rowsOf(
      await this.db.execute(sql`
        select id, environment, kind, data from analytics_live_events where id > ${after} order by id limit ${limit}`),
    );
    return rows.map(eventOf);
  }

  private async read(tx: DbOrTx, after: number, head: number, environment: Environment): Promise<FeedEvent[]> {
    const rows = rowsOf(
      await tx.execute(sql`
        select id, environment, kind, data from analytics_live_events
        where id > ${after} and id <= ${head} and environment = ${environment} order by id`),
    );
    return rows.map(eventOf);
  }
}
