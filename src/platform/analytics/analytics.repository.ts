/**
 * The analytics queries: every number is computed by PostgreSQL from play_events (one row per play: a
 * listener's on-demand stream or a radio airing of a catalog track) and store_orders. Each report runs in
 * one read-only REPEATABLE READ transaction, so its parts agree with each other (a total is the sum of its
 * buckets) even while plays keep arriving.
 *
 * `plays: false` (a sandbox credential: the sandbox records no plays) turns every play query into an empty
 * one, so sandbox reports have the same shape with zeros; `livemode` picks live orders paid for real, or the
 * sandbox's orders (a sandbox payment is never live revenue).
 */
import { and, eq, or, sql, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../infra/db/client.js';
import { isUuid } from '../../infra/db/ids.js';
import { artists } from '../../infra/db/schema/index.js';
import { DEVICE_CLASSES, type DeviceClass } from './device-class.js';
import { GRANULARITIES, type Granularity, type Period } from './period.js';
import type { Environment } from '../../kernel/environment.js';

export interface Scope {
  period: Period;
  /** false: the caller sees no plays (sandbox). */
  plays: boolean;
  livemode: boolean;
  /** Only this artist's tracks and orders. */
  artistId?: string;
}

export interface StreamCounts {
  streams: number;
  radio: number;
  onDemand: number;
  listeners: number;
}

export interface RevenueRow {
  currency: string;
  orders: number;
  grossCents: number;
  platformFeeCents: number;
  artistShareCents: number;
}

export interface TopTrackRow extends StreamCounts {
  trackId: string;
  title: string;
  artistId: string;
  artistSlug: string;
  artistName: string;
}

export interface TopArtistRow extends StreamCounts {
  artistId: string;
  slug: string;
  name: string;
  tracks: number;
}

export const AGE_BANDS = ['under_18', '18_24', '25_34', '35_44', '45_54', '55_64', '65_plus', 'unknown'] as const;
export type AgeBand = (typeof AGE_BANDS)[number];

type Row = Record<string, unknown>;

/** node-postgres and PGlite both answer `{ rows }`; bigint counts arrive as strings from node-postgres. */
const rowsOf = (result: unknown) => (result as { rows: Row[] }).rows;
const num = (value: unknown) => (value === null || value === undefined ? 0 : Number(value));
const str = (value: unknown) => String(value);

/** date_trunc over a UTC timestamp. The unit is spliced in (it is one of four fixed words) so that the
 * grouped expression and the selected one are the same text, which GROUP BY needs. */
function bucket(granularity: Granularity, column: SQL): SQL {
  if (!GRANULARITIES.includes(granularity)) throw new Error(`not a granularity: ${granularity}`);
  return sql`date_trunc(${sql.raw(`'${granularity}'`)}, ${column} at time zone 'UTC')`;
}

const ISO = sql.raw(`'YYYY-MM-DD"T"HH24:MI:SS"Z"'`);

function playsWhere(scope: Scope, from = scope.period.from, to = scope.period.to): SQL {
  const artist = scope.artistId ? sql` and pe.track_id in (select id from tracks where artist_id = ${scope.artistId})` : sql``;
  return sql`${scope.plays} and pe.played_at >= ${from.toISOString()}::timestamptz and pe.played_at < ${to.toISOString()}::timestamptz${artist}`;
}

function ordersWhere(scope: Scope): SQL {
  const artist = scope.artistId ? sql` and o.artist_id = ${scope.artistId}` : sql``;
  const { from, to } = scope.period;
  // Money of the caller's data space (as the store's moneyOf): live orders paid for real, or the sandbox's own.
  // A demo store's sandbox payment for a live product is neither, so no report counts it.
  const money = scope.livemode ? sql`o.environment = 'live' and o.livemode` : sql`o.environment = 'test'`;
  return sql`${money} and o.created_at >= ${from.toISOString()}::timestamptz and o.created_at < ${to.toISOString()}::timestamptz${artist}`;
}

const streamCounts = (row: Row): StreamCounts => ({
  streams: num(row.streams),
  radio: num(row.radio),
  onDemand: num(row.streams) - num(row.radio),
  listeners: num(row.listeners),
});

export interface ArtistRef {
  id: string;
  slug: string;
  name: string;
  followers: number;
  ownerUserId: string | null;
}

/** The reads a report makes inside one snapshot (AnalyticsQueries runs them in SQL). */
export type AnalyticsReads = Pick<
  AnalyticsQueries,
  'streams' | 'activeUsers' | 'ageBands' | 'countries' | 'devices' | 'activeByBucket' | 'topTracks' | 'topArtists' | 'revenue' | 'signups'
>;

/** What the analytics service is given: the artist a report is about, and one consistent snapshot per report. */
export interface AnalyticsSource {
  findArtist(value: string, environment: Environment): Promise<ArtistRef | null>;
  snapshot<T>(work: (queries: AnalyticsReads) => Promise<T>): Promise<T>;
}

export class AnalyticsRepository implements AnalyticsSource {
  constructor(private readonly db: Db) {}

  /** An artist of the environment by slug or by id (artist paths take the slug since v2.1; the id is still accepted). */
  async findArtist(value: string, environment: Environment): Promise<ArtistRef | null> {
    const [row] = await this.db
      .select({ id: artists.id, slug: artists.slug, name: artists.name, followers: artists.followers, ownerUserId: artists.ownerUserId })
      .from(artists)
      .where(and(eq(artists.environment, environment), isUuid(value) ? or(eq(artists.slug, value), eq(artists.id, value)) : eq(artists.slug, value)))
      .limit(1);
    return row ?? null;
  }

  /** One consistent snapshot for every query of a report. */
  snapshot<T>(work: (queries: AnalyticsQueries) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(new AnalyticsQueries(tx)), { isolationLevel: 'repeatable read', accessMode: 'read only' });
  }
}

export class AnalyticsQueries {
  constructor(private readonly db: DbOrTx) {}

  private async rows(query: SQL): Promise<Row[]> {
    return rowsOf(await this.db.execute(query));
  }

  /** Plays per bucket (only buckets with plays) and over the whole period. */
  async streams(scope: Scope): Promise<{ total: StreamCounts; buckets: Map<string, StreamCounts> }> {
    const b = bucket(scope.period.granularity, sql`pe.played_at`);
    const rows = await this.rows(sql`
      select to_char(${b}, ${ISO}) as b, grouping(${b}) as is_total,
             count(*) as streams, count(*) filter (where pe.source = 'radio') as radio, count(distinct pe.user_id) as listeners
      from play_events pe where ${playsWhere(scope)}
      group by grouping sets ((${b}), ())`);
    return splitTotal(rows, streamCounts);
  }

  /** Distinct listeners with at least one play in [from, to). */
  async activeUsers(scope: Scope, from: Date, to: Date): Promise<number> {
    const [row] = await this.rows(sql`select count(distinct pe.user_id) as users from play_events pe where ${playsWhere(scope, from, to)}`);
    return num(row?.users);
  }

  /** Active listeners by age band (birth year from their profile, age as of the period's last year). */
  async ageBands(scope: Scope): Promise<Map<AgeBand, number>> {
    const age = sql`(extract(year from ${scope.period.to.toISOString()}::timestamptz at time zone 'UTC')::int - p.birth_year)`;
    const rows = await this.rows(sql`
      with active as (select distinct pe.user_id from play_events pe where ${playsWhere(scope)} and pe.user_id is not null)
      select case
               when p.birth_year is null then 'unknown'
               when ${age} < 18 then 'under_18' when ${age} < 25 then '18_24' when ${age} < 35 then '25_34'
               when ${age} < 45 then '35_44' when ${age} < 55 then '45_54' when ${age} < 65 then '55_64'
               else '65_plus' end as band,
             count(*) as users
      from active left join user_profiles p on p.user_id = active.user_id
      group by 1`);
    return new Map(rows.map((row) => [str(row.band) as AgeBand, num(row.users)]));
  }

  /** Listeners' plays by the country of their profile when they played (radio airings have no listener). */
  async countries(scope: Scope): Promise<{ country: string | null; users: number; plays: number }[]> {
    const rows = await this.rows(sql`
      select pe.country, count(distinct pe.user_id) as users, count(*) as plays
      from play_events pe where ${playsWhere(scope)} and pe.user_id is not null
      group by pe.country order by plays desc, pe.country nulls last`);
    return rows.map((row) => ({ country: row.country === null ? null : str(row.country), users: num(row.users), plays: num(row.plays) }));
  }

  /** Listeners' plays by device class; every class is listed. */
  async devices(scope: Scope): Promise<{ device: DeviceClass; users: number; plays: number }[]> {
    const rows = await this.rows(sql`
      select pe.device_class as device, count(distinct pe.user_id) as users, count(*) as plays
      from play_events pe where ${playsWhere(scope)} and pe.device_class is not null
      group by pe.device_class`);
    const found = new Map(rows.map((row) => [str(row.device), row]));
    return DEVICE_CLASSES.map((device) => ({ device, users: num(found.get(device)?.users), plays: num(found.get(device)?.plays) }));
  }

  /** Active listeners per bucket. */
  async activeByBucket(scope: Scope): Promise<Map<string, number>> {
    const b = bucket(scope.period.granularity, sql`pe.played_at`);
    const rows = await this.rows(sql`
      select to_char(${b}, ${ISO}) as b, count(distinct pe.user_id) as users
      from play_events pe where ${playsWhere(scope)} and pe.user_id is not null group by ${b}`);
    return new Map(rows.map((row) => [str(row.b), num(row.users)]));
  }

  async topTracks(scope: Scope, limit: number): Promise<TopTrackRow[]> {
    const rows = await this.rows(sql`
      with plays as (
        select pe.track_id, count(*) as streams, count(*) filter (where pe.source = 'radio') as radio, count(distinct pe.user_id) as listeners
        from play_events pe where ${playsWhere(scope)} group by pe.track_id
        order by streams desc, pe.track_id limit ${limit})
      select plays.*, t.title, a.id as artist_id, a.slug as artist_slug, a.name as artist_name
      from plays join tracks t on t.id = plays.track_id join artists a on a.id = t.artist_id
      order by plays.streams desc, plays.track_id`);
    return rows.map((row) => ({
      ...streamCounts(row),
      trackId: str(row.track_id),
      title: str(row.title),
      artistId: str(row.artist_id),
      artistSlug: str(row.artist_slug),
      artistName: str(row.artist_name),
    }));
  }

  async topArtists(scope: Scope, limit: number): Promise<TopArtistRow[]> {
    const rows = await this.rows(sql`
      select a.id as artist_id, a.slug, a.name, count(*) as streams, count(*) filter (where pe.source = 'radio') as radio,
             count(distinct pe.user_id) as listeners, count(distinct pe.track_id) as tracks
      from play_events pe join tracks t on t.id = pe.track_id join artists a on a.id = t.artist_id
      where ${playsWhere(scope)}
      group by a.id order by streams desc, a.id limit ${limit}`);
    return rows.map((row) => ({ ...streamCounts(row), artistId: str(row.artist_id), slug: str(row.slug), name: str(row.name), tracks: num(row.tracks) }));
  }

  /** Orders per bucket and currency (only those with orders), and per currency over the whole period. */
  async revenue(scope: Scope): Promise<{ totals: RevenueRow[]; buckets: Map<string, RevenueRow[]> }> {
    const b = bucket(scope.period.granularity, sql`o.created_at`);
    const rows = await this.rows(sql`
      select to_char(${b}, ${ISO}) as b, grouping(${b}) as is_total, o.currency, count(*) as orders,
             sum(o.amount_cents) as gross, sum(o.platform_fee_cents) as fee, sum(o.artist_share_cents) as share
      from store_orders o where ${ordersWhere(scope)}
      group by grouping sets ((${b}, o.currency), (o.currency))
      order by o.currency`);
    const totals: RevenueRow[] = [];
    const buckets = new Map<string, RevenueRow[]>();
    for (const row of rows) {
      const revenue = {
        currency: str(row.currency),
        orders: num(row.orders),
        grossCents: num(row.gross),
        platformFeeCents: num(row.fee),
        artistShareCents: num(row.share),
      };
      if (num(row.is_total) === 1) totals.push(revenue);
      else buckets.set(str(row.b), [...(buckets.get(str(row.b)) ?? []), revenue]);
    }
    return { totals, buckets };
  }

  /** Accounts created in the period, by role. */
  async signups(period: Period): Promise<Map<string, number>> {
    const rows = await this.rows(sql`
      select role, count(*) as users from users
      where created_at >= ${period.from.toISOString()}::timestamptz and created_at < ${period.to.toISOString()}::timestamptz
      group by role`);
    return new Map(rows.map((row) => [str(row.role), num(row.users)]));
  }
}

/** Rows of a `grouping sets ((bucket), ())` query: the () row is the total. */
function splitTotal<T>(rows: Row[], shape: (row: Row) => T): { total: T; buckets: Map<string, T> } {
  const buckets = new Map<string, T>();
  let total: T | null = null;
  for (const row of rows) {
    if (num(row.is_total) === 1) total = shape(row);
    else buckets.set(str(row.b), shape(row));
  }
  return { total: total ?? shape({}), buckets };
}
