/**
 * Analytics reports for the API: who may see what, the period, and the shapes. The numbers come from
 * AnalyticsQueries (SQL over play_events and store_orders); this file only arranges them.
 *
 * - A sandbox credential (test key) sees sandbox orders and no plays (the sandbox records none); every other
 *   credential sees live data only.
 * - Active users are listeners with at least one recorded play; DAU counts the 24 hours before `to`, MAU the
 *   30 days before `to`, whatever the period.
 * - Artist analytics: the artist's owner or an admin; anyone else 403, an unknown artist 404.
 */
import { isAdmin, type Principal } from '../../auth/principal.js';
import type { Clock } from '../../infra/clock/clock.js';
import { Errors } from '../../errors.js';
import {
  AGE_BANDS,
  type AnalyticsReads,
  type AnalyticsSource,
  type ArtistRef,
  type RevenueRow,
  type Scope,
  type StreamCounts,
} from './analytics.repository.js';
import { bucketsOf, periodOf, type Period, type PeriodQuery } from './period.js';

const DAY_MS = 86_400_000;
export const DEFAULT_TOP = 10;

const counts = (c: StreamCounts) => ({ streams: c.streams, radio: c.radio, on_demand: c.onDemand, listeners: c.listeners });
const ZERO: StreamCounts = { streams: 0, radio: 0, onDemand: 0, listeners: 0 };

const revenueView = (r: RevenueRow) => ({
  currency: r.currency,
  orders: r.orders,
  gross_cents: r.grossCents,
  platform_fee_cents: r.platformFeeCents,
  artist_share_cents: r.artistShareCents,
});

const periodView = (period: Period) => ({ from: period.from.toISOString(), to: period.to.toISOString(), granularity: period.granularity });

/** Share of a whole, rounded to 4 decimals; 0 of nothing is 0. */
const share = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 10_000);

export class AnalyticsService {
  constructor(
    private readonly repo: AnalyticsSource,
    private readonly clock: Clock,
  ) {}

  private scope(caller: Principal, query: PeriodQuery, artistId?: string): Scope {
    const live = caller.environment === 'live';
    return { period: periodOf(query, this.clock.date()), plays: live, livemode: live, artistId };
  }

  /** The artist a report is about: anyone with the route's scope may name one for the global reports. */
  private async artist(caller: Principal, value: string): Promise<ArtistRef> {
    const artist = await this.repo.findArtist(value, caller.environment);
    if (!artist) throw Errors.notFound('Artist', value);
    return artist;
  }

  async streams(caller: Principal, query: PeriodQuery & { artist?: string }) {
    const artist = query.artist ? await this.artist(caller, query.artist) : null;
    const scope = this.scope(caller, query, artist?.id);
    const { total, buckets } = await this.repo.snapshot((q) => q.streams(scope));
    return {
      ...periodView(scope.period),
      artist: artist ? { id: artist.id, slug: artist.slug, name: artist.name } : null,
      total: counts(total),
      series: bucketsOf(scope.period).map((start) => ({ period_start: start, ...counts(buckets.get(start) ?? ZERO) })),
    };
  }

  async audience(caller: Principal, query: PeriodQuery) {
    const scope = this.scope(caller, query);
    return this.repo.snapshot(async (q) => ({
      ...periodView(scope.period),
      ...(await this.activity(q, scope)),
      series: await this.activeSeries(q, scope),
      demographics: { age: await this.ages(q, scope) },
      geography: await q.countries(scope),
      devices: await this.devices(q, scope),
    }));
  }

  async revenue(caller: Principal, query: PeriodQuery) {
    const scope = this.scope(caller, query);
    const { totals, buckets } = await this.repo.snapshot((q) => q.revenue(scope));
    return {
      ...periodView(scope.period),
      environment: caller.environment,
      totals: totals.map(revenueView),
      series: bucketsOf(scope.period).map((start) => {
        const rows = buckets.get(start) ?? [];
        return { period_start: start, orders: rows.reduce((sum, r) => sum + r.orders, 0), amounts: rows.map(revenueView) };
      }),
    };
  }

  async topTracks(caller: Principal, query: PeriodQuery & { limit?: number }) {
    const scope = this.scope(caller, query);
    const rows = await this.repo.snapshot((q) => q.topTracks(scope, query.limit ?? DEFAULT_TOP));
    const data = rows.map((row, i) => ({
      rank: i + 1,
      track: { id: row.trackId, title: row.title, artist_id: row.artistId, artist_slug: row.artistSlug, artist: row.artistName },
      ...counts(row),
    }));
    return { from: scope.period.from.toISOString(), to: scope.period.to.toISOString(), data, total: data.length };
  }

  async topArtists(caller: Principal, query: PeriodQuery & { limit?: number }) {
    const scope = this.scope(caller, query);
    const rows = await this.repo.snapshot((q) => q.topArtists(scope, query.limit ?? DEFAULT_TOP));
    const data = rows.map((row, i) => ({ rank: i + 1, artist: { id: row.artistId, slug: row.slug, name: row.name }, ...counts(row), tracks: row.tracks }));
    return { from: scope.period.from.toISOString(), to: scope.period.to.toISOString(), data, total: data.length };
  }

  /** GET /v1/artists/{slug}/analytics: the artist's streams, listeners, top tracks and sales. */
  async artistReport(caller: Principal, value: string, query: PeriodQuery) {
    const artist = await this.artist(caller, value);
    if (!isAdmin(caller) && (caller.userId === null || artist.ownerUserId !== caller.userId)) {
      throw Errors.forbidden("an artist's analytics are for the artist's own account and admins");
    }
    const scope = this.scope(caller, query, artist.id);
    return this.repo.snapshot(async (q) => {
      const { total, buckets } = await q.streams(scope);
      const { totals } = await q.revenue(scope);
      return {
        artist: { id: artist.id, slug: artist.slug, name: artist.name, followers: artist.followers },
        ...periodView(scope.period),
        streams: {
          total: counts(total),
          series: bucketsOf(scope.period).map((start) => ({ period_start: start, ...counts(buckets.get(start) ?? ZERO) })),
        },
        audience: { geography: await q.countries(scope), devices: await this.devices(q, scope) },
        top_tracks: (await q.topTracks(scope, DEFAULT_TOP)).map((row, i) => ({ rank: i + 1, track_id: row.trackId, title: row.title, ...counts(row) })),
        revenue: totals.map(revenueView),
      };
    });
  }

  /** GET /v1/admin/analytics: the platform's KPIs over the period. */
  async platformKpis(caller: Principal, query: PeriodQuery) {
    const scope = this.scope(caller, query);
    return this.repo.snapshot(async (q) => {
      const { total } = await q.streams(scope);
      const { totals } = await q.revenue(scope);
      const signups = await q.signups(scope.period);
      return {
        from: scope.period.from.toISOString(),
        to: scope.period.to.toISOString(),
        ...(await this.activity(q, scope)),
        streams: counts(total),
        orders: totals.reduce((sum, r) => sum + r.orders, 0),
        revenue: totals.map(revenueView),
        new_signups: [...signups.values()].reduce((sum, n) => sum + n, 0),
        new_signups_by_role: Object.fromEntries(signups),
      };
    });
  }

  private async activity(q: AnalyticsReads, scope: Scope) {
    const to = scope.period.to;
    return {
      daily_active_users: await q.activeUsers(scope, new Date(to.getTime() - DAY_MS), to),
      monthly_active_users: await q.activeUsers(scope, new Date(to.getTime() - 30 * DAY_MS), to),
      active_users: await q.activeUsers(scope, scope.period.from, to),
    };
  }

  private async activeSeries(q: AnalyticsReads, scope: Scope) {
    const active = await q.activeByBucket(scope);
    return bucketsOf(scope.period).map((start) => ({ period_start: start, active_users: active.get(start) ?? 0 }));
  }

  private async ages(q: AnalyticsReads, scope: Scope) {
    const bands = await q.ageBands(scope);
    return AGE_BANDS.map((band) => ({ band, users: bands.get(band) ?? 0 }));
  }

  private async devices(q: AnalyticsReads, scope: Scope) {
    const rows = await q.devices(scope);
    const plays = rows.reduce((sum, r) => sum + r.plays, 0);
    return rows.map((r) => ({ ...r, share: share(r.plays, plays) }));
  }
}
