/**
 * The analytics reports' rules, tested beside the service on in-memory plays, orders and accounts: no database,
 * milliseconds. Which data a credential sees (the sandbox has no plays and its own money; live sees real money
 * only), the series' buckets (every one, zeros included), the active-user windows (24 hours and 30 days before
 * `to`, whatever the period), the age bands and device shares, and who may read an artist's report. The SQL
 * behind the reads is covered through HTTP by test/platform/analytics-*.test.ts.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { domainFailure as failure } from '../../../test/helpers/domain-failure.js';
import type { Principal } from '../../auth/principal.js';
import { ManualClock } from '../../infra/clock/clock.js';
import type { Environment } from '../../kernel/environment.js';
import type { AgeBand, AnalyticsReads, AnalyticsSource, ArtistRef, RevenueRow, Scope, StreamCounts } from './analytics.repository.js';
import { AnalyticsService } from './analytics.service.js';
import { DEVICE_CLASSES, type DeviceClass } from './device-class.js';
import { bucketKey, truncate, type Period } from './period.js';

type Play = { userId: string | null; trackId: string; at: string; source: 'radio' | 'on_demand'; device?: DeviceClass; country?: string };
type Order = { artistId: string; at: string; currency: string; amountCents: number; environment: Environment; livemode: boolean };
type Account = { id: string; role: string; createdAt: string; birthYear: number | null };

const DAY_MS = 86_400_000;
const TRACKS = [
  { id: 'track-1', title: 'One', artistId: 'artist-1' },
  { id: 'track-2', title: 'Two', artistId: 'artist-1' },
  { id: 'track-3', title: 'Three', artistId: 'artist-2' },
];

/** The reads over arrays, as the SQL computes them: a play counts within [from, to) of the scope, nulls left out of distinct counts. */
class InMemoryAnalytics implements AnalyticsSource, AnalyticsReads {
  readonly artists: (ArtistRef & { environment: Environment })[] = [];
  readonly plays: Play[] = [];
  readonly orders: Order[] = [];
  readonly accounts: Account[] = [];
  readonly snapshots: number[] = [];

  async findArtist(value: string, environment: Environment) {
    const found = this.artists.find((a) => a.environment === environment && (a.slug === value || a.id === value));
    if (!found) return null;
    const { environment: _environment, ...ref } = found;
    return ref;
  }

  async snapshot<T>(work: (queries: AnalyticsReads) => Promise<T>) {
    this.snapshots.push(this.snapshots.length + 1);
    return work(this);
  }

  private playsOf(scope: Scope, from = scope.period.from, to = scope.period.to): Play[] {
    if (!scope.plays) return [];
    const artistOf = (trackId: string) => TRACKS.find((t) => t.id === trackId)!.artistId;
    return this.plays.filter((p) => {
      const at = Date.parse(p.at);
      return at >= from.getTime() && at < to.getTime() && (!scope.artistId || artistOf(p.trackId) === scope.artistId);
    });
  }

  private bucketOf(at: string, period: Period): string {
    return bucketKey(truncate(Date.parse(at), period.granularity));
  }

  private counts(plays: Play[]): StreamCounts {
    const radio = plays.filter((p) => p.source === 'radio').length;
    return { streams: plays.length, radio, onDemand: plays.length - radio, listeners: users(plays) };
  }

  async streams(scope: Scope) {
    const plays = this.playsOf(scope);
    const buckets = new Map<string, StreamCounts>();
    for (const key of new Set(plays.map((p) => this.bucketOf(p.at, scope.period)))) {
      buckets.set(key, this.counts(plays.filter((p) => this.bucketOf(p.at, scope.period) === key)));
    }
    return { total: this.counts(plays), buckets };
  }

  async activeUsers(scope: Scope, from: Date, to: Date) {
    return users(this.playsOf(scope, from, to));
  }

  async ageBands(scope: Scope) {
    const year = scope.period.to.getUTCFullYear();
    const bands = new Map<AgeBand, number>();
    for (const id of new Set(this.playsOf(scope).flatMap((p) => (p.userId ? [p.userId] : [])))) {
      const birthYear = this.accounts.find((a) => a.id === id)?.birthYear ?? null;
      const age = birthYear === null ? null : year - birthYear;
      const band: AgeBand =
        age === null
          ? 'unknown'
          : age < 18
            ? 'under_18'
            : age < 25
              ? '18_24'
              : age < 35
                ? '25_34'
                : age < 45
                  ? '35_44'
                  : age < 55
                    ? '45_54'
                    : age < 65
                      ? '55_64'
                      : '65_plus';
      bands.set(band, (bands.get(band) ?? 0) + 1);
    }
    return bands;
  }

  async countries(scope: Scope) {
    const listened = this.playsOf(scope).filter((p) => p.userId !== null);
    const countries = [...new Set(listened.map((p) => p.country ?? null))];
    return countries
      .map((country) => {
        const plays = listened.filter((p) => (p.country ?? null) === country);
        return { country, users: users(plays), plays: plays.length };
      })
      .sort((a, b) => b.plays - a.plays);
  }

  async devices(scope: Scope) {
    const plays = this.playsOf(scope).filter((p) => p.device !== undefined);
    return DEVICE_CLASSES.map((device) => {
      const of = plays.filter((p) => p.device === device);
      return { device, users: users(of), plays: of.length };
    });
  }

  async activeByBucket(scope: Scope) {
    const plays = this.playsOf(scope);
    const active = new Map<string, number>();
    for (const key of new Set(plays.map((p) => this.bucketOf(p.at, scope.period)))) {
      active.set(key, users(plays.filter((p) => this.bucketOf(p.at, scope.period) === key)));
    }
    return active;
  }

  async topTracks(scope: Scope, limit: number) {
    const plays = this.playsOf(scope);
    return TRACKS.map((track) => {
      const artist = this.artists.find((a) => a.id === track.artistId)!;
      const counts = this.counts(plays.filter((p) => p.trackId === track.id));
      return { trackId: track.id, title: track.title, artistId: artist.id, artistSlug: artist.slug, artistName: artist.name, ...counts };
    })
      .filter((row) => row.streams > 0)
      .sort((a, b) => b.streams - a.streams)
      .slice(0, limit);
  }

  async topArtists(scope: Scope, limit: number) {
    const plays = this.playsOf(scope);
    return this.artists
      .map((artist) => {
        const tracks = TRACKS.filter((t) => t.artistId === artist.id).map((t) => t.id);
        const of = plays.filter((p) => tracks.includes(p.trackId));
        return { artistId: artist.id, slug: artist.slug, name: artist.name, ...this.counts(of), tracks: new Set(of.map((p) => p.trackId)).size };
      })
      .filter((row) => row.streams > 0)
      .sort((a, b) => b.streams - a.streams)
      .slice(0, limit);
  }

  /** Money of the caller's data space: live orders paid for real, or the sandbox's own; 15% platform fee. */
  async revenue(scope: Scope) {
    const { from, to } = scope.period;
    const orders = this.orders.filter((o) => {
      const at = Date.parse(o.at);
      const money = scope.livemode ? o.environment === 'live' && o.livemode : o.environment === 'test';
      return money && at >= from.getTime() && at < to.getTime() && (!scope.artistId || o.artistId === scope.artistId);
    });
    const sum = (of: Order[]): RevenueRow[] =>
      [...new Set(of.map((o) => o.currency))].sort().map((currency) => {
        const rows = of.filter((o) => o.currency === currency);
        const grossCents = rows.reduce((s, o) => s + o.amountCents, 0);
        const platformFeeCents = rows.reduce((s, o) => s + Math.round(o.amountCents * 0.15), 0);
        return { currency, orders: rows.length, grossCents, platformFeeCents, artistShareCents: grossCents - platformFeeCents };
      });
    const buckets = new Map<string, RevenueRow[]>();
    for (const key of new Set(orders.map((o) => this.bucketOf(o.at, scope.period)))) {
      buckets.set(key, sum(orders.filter((o) => this.bucketOf(o.at, scope.period) === key)));
    }
    return { totals: sum(orders), buckets };
  }

  async signups(period: Period) {
    const made = this.accounts.filter((a) => Date.parse(a.createdAt) >= period.from.getTime() && Date.parse(a.createdAt) < period.to.getTime());
    return new Map([...new Set(made.map((a) => a.role))].map((role) => [role, made.filter((a) => a.role === role).length]));
  }
}

function users(plays: Play[]): number {
  return new Set(plays.flatMap((p) => (p.userId ? [p.userId] : []))).size;
}

function principal(userId: string | null, options: { admin?: boolean; environment?: Environment } = {}): Principal {
  return {
    kind: 'user',
    userId,
    role: options.admin ? 'admin' : 'listener',
    scopes: new Set(options.admin ? ['platform:admin'] : []),
    credentialId: `cred-${userId}`,
    sessionId: null,
    apiKeyId: null,
    environment: options.environment ?? 'live',
    metered: false,
  };
}

describe('AnalyticsService (in-memory reads)', () => {
  let data: InMemoryAnalytics;
  let service: AnalyticsService;
  // 2026-03-10T12:00:00Z: reports without `to` end now.
  const clock = new ManualClock(Date.UTC(2026, 2, 10, 12));
  const admin = principal('admin-1', { admin: true });
  const owner = principal('owner-1');
  const stranger = principal('stranger-1');
  const sandbox = principal('owner-1', { environment: 'test' });
  const week = { from: '2026-03-01', to: '2026-03-07' };

  beforeEach(() => {
    data = new InMemoryAnalytics();
    service = new AnalyticsService(data, clock);
    data.artists.push(
      { id: 'artist-1', slug: 'the-band', name: 'The Band', followers: 12, ownerUserId: 'owner-1', environment: 'live' },
      { id: 'artist-2', slug: 'the-duo', name: 'The Duo', followers: 3, ownerUserId: 'owner-2', environment: 'live' },
      { id: 'twin-1', slug: 'the-band', name: 'The Band', followers: 0, ownerUserId: 'owner-1', environment: 'test' },
    );
    data.plays.push(
      { userId: 'u1', trackId: 'track-1', at: '2026-03-02T10:00:00Z', source: 'on_demand', device: 'mobile', country: 'FR' },
      { userId: 'u1', trackId: 'track-1', at: '2026-03-02T11:00:00Z', source: 'on_demand', device: 'mobile', country: 'FR' },
      { userId: 'u2', trackId: 'track-2', at: '2026-03-02T12:00:00Z', source: 'on_demand', device: 'desktop', country: 'DE' },
      { userId: null, trackId: 'track-1', at: '2026-03-04T09:00:00Z', source: 'radio' },
      { userId: 'u3', trackId: 'track-3', at: '2026-03-06T23:59:59Z', source: 'on_demand', device: 'tablet' },
      // Outside the week: the day after it, and the last day before `now`.
      { userId: 'u4', trackId: 'track-3', at: '2026-03-08T00:00:00Z', source: 'on_demand' },
      { userId: 'u5', trackId: 'track-3', at: '2026-03-10T06:00:00Z', source: 'on_demand' },
    );
    data.orders.push(
      { artistId: 'artist-1', at: '2026-03-03T10:00:00Z', currency: 'usd', amountCents: 1000, environment: 'live', livemode: true },
      { artistId: 'artist-2', at: '2026-03-03T11:00:00Z', currency: 'eur', amountCents: 500, environment: 'live', livemode: true },
      // A demo store's sandbox payment for a live product: nobody's money.
      { artistId: 'artist-1', at: '2026-03-04T10:00:00Z', currency: 'usd', amountCents: 2000, environment: 'live', livemode: false },
      { artistId: 'twin-1', at: '2026-03-05T10:00:00Z', currency: 'usd', amountCents: 400, environment: 'test', livemode: false },
    );
    data.accounts.push(
      { id: 'u1', role: 'listener', createdAt: '2026-03-01T08:00:00Z', birthYear: 2000 },
      { id: 'u2', role: 'listener', createdAt: '2026-03-05T08:00:00Z', birthYear: 1950 },
      { id: 'u3', role: 'artist', createdAt: '2026-02-01T08:00:00Z', birthYear: null },
    );
  });

  it('lists every bucket of the period, with zeros where nothing was played, and totals that are their sum', async () => {
    const report = await service.streams(admin, week);
    expect(report).toMatchObject({ from: '2026-03-01T00:00:00.000Z', to: '2026-03-08T00:00:00.000Z', granularity: 'day', artist: null });
    expect(report.total).toEqual({ streams: 5, radio: 1, on_demand: 4, listeners: 3 });
    expect(report.series.map((b) => [b.period_start, b.streams])).toEqual([
      ['2026-03-01T00:00:00Z', 0],
      ['2026-03-02T00:00:00Z', 3],
      ['2026-03-03T00:00:00Z', 0],
      ['2026-03-04T00:00:00Z', 1],
      ['2026-03-05T00:00:00Z', 0],
      ['2026-03-06T00:00:00Z', 1],
      ['2026-03-07T00:00:00Z', 0],
    ]);
    expect(report.series.reduce((sum, b) => sum + b.streams, 0)).toBe(report.total.streams);
    expect(report.series[1]).toMatchObject({ radio: 0, on_demand: 3, listeners: 2 });
  });

  it("narrows the streams to a named artist, and answers 404 for an artist not of the caller's environment", async () => {
    const report = await service.streams(admin, { ...week, artist: 'the-band' });
    expect(report.artist).toEqual({ id: 'artist-1', slug: 'the-band', name: 'The Band' });
    expect(report.total).toEqual({ streams: 4, radio: 1, on_demand: 3, listeners: 2 });
    expect(await failure(service.streams(admin, { ...week, artist: 'nobody' }))).toEqual({ kind: 'not_found', code: 'NOT_FOUND' });
    expect((await service.streams(sandbox, { ...week, artist: 'the-band' })).artist?.id).toBe('twin-1');
  });

  it('shows a sandbox credential no plays and its own money; live credentials only money paid for real', async () => {
    const sandboxStreams = await service.streams(sandbox, week);
    expect(sandboxStreams.total).toEqual({ streams: 0, radio: 0, on_demand: 0, listeners: 0 });
    expect(sandboxStreams.series).toHaveLength(7);

    const sandboxRevenue = await service.revenue(sandbox, week);
    expect(sandboxRevenue.environment).toBe('test');
    expect(sandboxRevenue.totals).toEqual([{ currency: 'usd', orders: 1, gross_cents: 400, platform_fee_cents: 60, artist_share_cents: 340 }]);

    const live = await service.revenue(admin, week);
    expect(live.environment).toBe('live');
    expect(live.totals.map((r) => [r.currency, r.orders, r.gross_cents])).toEqual([
      ['eur', 1, 500],
      ['usd', 1, 1000],
    ]);
    expect(live.series.find((b) => b.period_start === '2026-03-03T00:00:00Z')).toMatchObject({ orders: 2 });
    expect(live.series.find((b) => b.period_start === '2026-03-04T00:00:00Z')).toEqual({ period_start: '2026-03-04T00:00:00Z', orders: 0, amounts: [] });
  });

  it('counts daily and monthly active users back from `to` whatever the period, and the period itself apart', async () => {
    const report = await service.audience(admin, { from: '2026-03-06', to: '2026-03-06' });
    // DAU: plays in the 24 hours before 2026-03-07T00:00Z (u3); MAU: the 30 days before it (u1, u2, u3).
    expect(report).toMatchObject({ daily_active_users: 1, monthly_active_users: 3, active_users: 1 });
    expect(report.series).toEqual([{ period_start: '2026-03-06T00:00:00Z', active_users: 1 }]);
  });

  it('lists every age band and device class, with shares of the plays rounded to 4 decimals', async () => {
    const report = await service.audience(admin, week);
    expect(report.demographics.age.map((a) => a.band)).toEqual(['under_18', '18_24', '25_34', '35_44', '45_54', '55_64', '65_plus', 'unknown']);
    expect(report.demographics.age.filter((a) => a.users > 0)).toEqual([
      { band: '25_34', users: 1 },
      { band: '65_plus', users: 1 },
      { band: 'unknown', users: 1 },
    ]);
    expect(report.devices.map((d) => d.device)).toEqual([...DEVICE_CLASSES]);
    expect(report.devices.filter((d) => d.plays > 0)).toEqual([
      { device: 'mobile', users: 1, plays: 2, share: 0.5 },
      { device: 'tablet', users: 1, plays: 1, share: 0.25 },
      { device: 'desktop', users: 1, plays: 1, share: 0.25 },
    ]);
    expect(report.geography[0]).toEqual({ country: 'FR', users: 1, plays: 2 });

    const empty = await service.audience(sandbox, week);
    expect(empty.devices.every((d) => d.share === 0)).toBe(true);
    expect(empty).toMatchObject({ daily_active_users: 0, monthly_active_users: 0, active_users: 0 });
  });

  it('ranks the top tracks and artists from 1, ten by default', async () => {
    const tracks = await service.topTracks(admin, week);
    expect(tracks.data.map((r) => [r.rank, r.track.id, r.streams])).toEqual([
      [1, 'track-1', 3],
      [2, 'track-2', 1],
      [3, 'track-3', 1],
    ]);
    expect(tracks.total).toBe(3);
    expect((await service.topTracks(admin, { ...week, limit: 1 })).data).toHaveLength(1);
    const artists = await service.topArtists(admin, week);
    expect(artists.data.map((r) => [r.rank, r.artist.slug, r.streams, r.tracks])).toEqual([
      [1, 'the-band', 4, 2],
      [2, 'the-duo', 1, 1],
    ]);
  });

  it("gives an artist's report to its owner and admins only; an unknown artist is 404", async () => {
    const report = await service.artistReport(owner, 'the-band', week);
    expect(report.artist).toEqual({ id: 'artist-1', slug: 'the-band', name: 'The Band', followers: 12 });
    expect(report.streams.total.streams).toBe(4);
    expect(report.top_tracks.map((t) => [t.rank, t.track_id])).toEqual([
      [1, 'track-1'],
      [2, 'track-2'],
    ]);
    expect(report.revenue.map((r) => [r.currency, r.gross_cents])).toEqual([['usd', 1000]]);
    expect((await service.artistReport(admin, 'the-band', week)).artist.id).toBe('artist-1');
    expect(await failure(service.artistReport(stranger, 'the-band', week))).toEqual({ kind: 'forbidden', code: 'FORBIDDEN' });
    expect(await failure(service.artistReport(principal(null), 'the-band', week))).toEqual({ kind: 'forbidden', code: 'FORBIDDEN' });
    expect(await failure(service.artistReport(owner, 'nobody', week))).toEqual({ kind: 'not_found', code: 'NOT_FOUND' });
  });

  it("sums the platform's KPIs over the period, signups by role, each report in one snapshot", async () => {
    const kpis = await service.platformKpis(admin, week);
    expect(kpis).toMatchObject({ orders: 2, new_signups: 2, new_signups_by_role: { listener: 2 }, streams: { streams: 5 } });
    expect(kpis.revenue).toHaveLength(2);
    expect(data.snapshots).toHaveLength(1);
  });

  it('ends a report without `to` now, 30 days back by default, and refuses a period that ends before it starts', async () => {
    const report = await service.streams(admin, {});
    expect(report.to).toBe(clock.date().toISOString());
    expect(Date.parse(report.to) - Date.parse(report.from)).toBe(30 * DAY_MS);
    expect(report.total.streams).toBe(7);
    expect(await failure(service.streams(admin, { from: '2026-03-07', to: '2026-03-01' }))).toEqual({ kind: 'invalid', code: 'VALIDATION_FAILED' });
  });
});
