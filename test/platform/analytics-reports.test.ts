/**
 * The analytics reports over HTTP, checked number by number against play events and orders inserted for
 * March 2026: streams by hour, day, week and month, top tracks and artists, the audience (DAU, MAU, ages,
 * countries, devices), revenue per currency with the 85/15 split, the artist's own analytics (and nobody
 * else's), the admin KPIs, the sandbox rule, and the period's validation. And how plays are recorded: a
 * listener's stream with its device and country, a radio airing with no listener, none in the sandbox.
 */
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/infra/clock/clock.js';
import { playEvents } from '../../src/infra/db/schema/index.js';
import { CatalogRepository } from '../../src/platform/catalog/catalog.repository.js';
import { stationForSuite, staffLogin } from '../helpers/station.js';
import { expectEnvelope } from '../foundation/support.js';
import { bearer, createKey, loginAs, type Login } from './accounts-support.js';
import { insertOrder, insertPlays, seedArtist, setCreatedAt, setProfile, type CatalogArtist } from './analytics-support.js';

const clock = new ManualClock(Date.UTC(2026, 2, 9, 12, 0, 0));
let developer: Login;
let admin: { token: string; csrf: string };
let ownerA: Login;
let ownerB: Login;
let a: CatalogArtist;
let b: CatalogArtist;
let l1: Login;
let l2: Login;
let l3: Login;

const station = stationForSuite({}, { clock });
beforeAll(async () => {
  admin = await staffLogin(station);
  developer = await loginAs(station, 'developer');
  ownerA = await loginAs(station, 'artist');
  ownerB = await loginAs(station, 'artist');
  [l1, l2, l3] = [await loginAs(station, 'listener'), await loginAs(station, 'listener'), await loginAs(station, 'listener')];
  a = await seedArtist(station, ownerA.userId, 2);
  b = await seedArtist(station, ownerB.userId, 1);
  await setProfile(station, l1.userId, { country: 'FR', birthYear: 1990 });
  await setProfile(station, l2.userId, { country: 'US', birthYear: 2010 });
  await setCreatedAt(station, [l1.userId, l2.userId], '2026-03-04T10:00:00Z');
  const [a1, a2] = a.trackIds;
  const [b1] = b.trackIds;
  await insertPlays(station, [
    { trackId: a1, at: '2026-02-28T23:59:00Z', userId: l1.userId, device: 'mobile', country: 'FR' },
    { trackId: a1, at: '2026-03-02T10:15:00Z', userId: l1.userId, device: 'mobile', country: 'FR' },
    { trackId: a1, at: '2026-03-02T10:45:00Z', userId: l2.userId, device: 'desktop', country: 'US' },
    { trackId: a2, at: '2026-03-02T11:05:00Z', userId: l1.userId, device: 'mobile', country: 'FR' },
    { trackId: a1, at: '2026-03-02T12:00:00Z' },
    { trackId: b1, at: '2026-03-03T09:00:00Z', userId: l3.userId, device: 'tablet' },
    { trackId: b1, at: '2026-03-03T23:59:59Z' },
    { trackId: a1, at: '2026-03-09T08:00:00Z', userId: l1.userId, device: 'desktop', country: 'FR' },
    { trackId: a2, at: '2026-04-01T00:00:00Z', userId: l2.userId, device: 'mobile', country: 'US' },
  ]);
  await insertOrder(station, { artistId: a.id, userId: l1.userId, amountCents: 999, at: '2026-03-02T13:00:00Z' });
  await insertOrder(station, { artistId: b.id, userId: l2.userId, amountCents: 500, currency: 'eur', at: '2026-03-02T14:00:00Z' });
  await insertOrder(station, { artistId: a.id, userId: l2.userId, amountCents: 1500, at: '2026-03-05T09:00:00Z' });
  await insertOrder(station, { artistId: a.id, userId: l1.userId, amountCents: 700, at: '2026-03-05T10:00:00Z', livemode: false });
  await insertOrder(station, { artistId: a.id, userId: l1.userId, amountCents: 100, at: '2026-04-02T10:00:00Z' });
});

const get = (url: string, who: { token: string; csrf: string } | Record<string, string>) =>
  station.http.inject({ method: 'GET', url, headers: 'token' in who ? bearer(who as Login) : (who as Record<string, string>) });

const zero = { streams: 0, radio: 0, on_demand: 0, listeners: 0 };

describe('GET /v1/analytics/streams', () => {
  it('counts plays per day: listeners’ streams and radio airings alike', async () => {
    const response = await get('/v1/analytics/streams?from=2026-03-02&to=2026-03-08', developer);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ from: '2026-03-02T00:00:00.000Z', to: '2026-03-09T00:00:00.000Z', granularity: 'day', artist: null });
    expect(body.total).toEqual({ streams: 6, radio: 2, on_demand: 4, listeners: 3 });
    expect(body.series).toHaveLength(7);
    expect(body.series[0]).toEqual({ period_start: '2026-03-02T00:00:00Z', streams: 4, radio: 1, on_demand: 3, listeners: 2 });
    expect(body.series[1]).toEqual({ period_start: '2026-03-03T00:00:00Z', streams: 2, radio: 1, on_demand: 1, listeners: 1 });
    expect(body.series.slice(2).map((s: { streams: number }) => s.streams)).toEqual([0, 0, 0, 0, 0]);
  });

  it('by hour with an exclusive date-time end, by week from Monday, by month', async () => {
    const hours = (await get('/v1/analytics/streams?from=2026-03-02T10:00:00Z&to=2026-03-02T12:00:00Z&granularity=hour', developer)).json();
    expect(hours.series).toEqual([
      { period_start: '2026-03-02T10:00:00Z', streams: 2, radio: 0, on_demand: 2, listeners: 2 },
      { period_start: '2026-03-02T11:00:00Z', streams: 1, radio: 0, on_demand: 1, listeners: 1 },
    ]);
    expect(hours.total.streams).toBe(3);

    const weeks = (await get('/v1/analytics/streams?from=2026-03-01&to=2026-03-15&granularity=week', developer)).json();
    expect(weeks.series.map((s: { period_start: string; streams: number }) => [s.period_start, s.streams])).toEqual([
      ['2026-02-23T00:00:00Z', 0],
      ['2026-03-02T00:00:00Z', 6],
      ['2026-03-09T00:00:00Z', 1],
    ]);

    const months = (await get('/v1/analytics/streams?from=2026-02-01&to=2026-04-30&granularity=month', developer)).json();
    expect(months.series.map((s: { period_start: string; streams: number }) => [s.period_start, s.streams])).toEqual([
      ['2026-02-01T00:00:00Z', 1],
      ['2026-03-01T00:00:00Z', 7],
      ['2026-04-01T00:00:00Z', 1],
    ]);
    expect(months.total).toEqual({ streams: 9, radio: 2, on_demand: 7, listeners: 3 });
  });

  it('for one artist, named by slug or id; an unknown artist is 404', async () => {
    for (const name of [a.slug, a.id]) {
      const body = (await get(`/v1/analytics/streams?from=2026-03-01&to=2026-03-31&artist=${name}`, developer)).json();
      expect(body.artist).toMatchObject({ id: a.id, slug: a.slug });
      expect(body.total).toEqual({ streams: 5, radio: 1, on_demand: 4, listeners: 2 });
    }
    expectEnvelope(await get('/v1/analytics/streams?artist=nobody-here', developer), 404, 'PLATFORM_NOT_FOUND');
  });

  it('agrees with the track list’s streams, which count every play event', async () => {
    const list = (await get(`/v1/tracks?artist=${a.slug}`, l1)).json();
    const streams = Object.fromEntries(list.data.map((t: { id: string; streams: number }) => [t.id, t.streams]));
    expect(streams).toEqual({ [a.trackIds[0]]: 5, [a.trackIds[1]]: 2 });
  });
});

describe('top tracks and artists', () => {
  it('rank March’s tracks and artists by plays, with distinct listeners', async () => {
    const tracks = (await get('/v1/analytics/top-tracks?from=2026-03-01&to=2026-03-31', developer)).json();
    expect(tracks.total).toBe(3);
    expect(tracks.data.map((t: any) => [t.rank, t.track.id, t.streams, t.radio, t.listeners])).toEqual([
      [1, a.trackIds[0], 4, 1, 2],
      [2, b.trackIds[0], 2, 1, 1],
      [3, a.trackIds[1], 1, 0, 1],
    ]);
    expect(tracks.data[0].track).toMatchObject({ artist_id: a.id, artist_slug: a.slug });
    const top1 = (await get('/v1/analytics/top-tracks?from=2026-03-01&to=2026-03-31&limit=1', developer)).json();
    expect(top1.data).toHaveLength(1);

    const artists = (await get('/v1/analytics/top-artists?from=2026-03-01&to=2026-03-31', developer)).json();
    expect(artists.data.map((x: any) => [x.rank, x.artist.id, x.streams, x.listeners, x.tracks])).toEqual([
      [1, a.id, 5, 2, 2],
      [2, b.id, 2, 1, 1],
    ]);
  });
});

describe('GET /v1/analytics/audience', () => {
  it('gives DAU and MAU before `to`, active listeners, ages, countries and devices', async () => {
    const response = await get('/v1/analytics/audience?from=2026-03-01&to=2026-03-09T12:00:00Z', developer);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ daily_active_users: 1, monthly_active_users: 3, active_users: 3 });
    expect(body.series.filter((s: { active_users: number }) => s.active_users > 0)).toEqual([
      { period_start: '2026-03-02T00:00:00Z', active_users: 2 },
      { period_start: '2026-03-03T00:00:00Z', active_users: 1 },
      { period_start: '2026-03-09T00:00:00Z', active_users: 1 },
    ]);
    expect(body.series).toHaveLength(9);
    const ages = Object.fromEntries(body.demographics.age.map((x: { band: string; users: number }) => [x.band, x.users]));
    expect(ages).toEqual({ under_18: 1, '18_24': 0, '25_34': 0, '35_44': 1, '45_54': 0, '55_64': 0, '65_plus': 0, unknown: 1 });
    expect(body.geography).toEqual([
      { country: 'FR', users: 1, plays: 3 },
      { country: 'US', users: 1, plays: 1 },
      { country: null, users: 1, plays: 1 },
    ]);
    const devices = Object.fromEntries(body.devices.map((d: any) => [d.device, [d.plays, d.users, d.share]]));
    expect(devices).toMatchObject({ mobile: [2, 1, 0.4], desktop: [2, 2, 0.4], tablet: [1, 1, 0.2], tv: [0, 0, 0], unknown: [0, 0, 0] });
  });

  it('defaults to the 30 days before now', async () => {
    const body = (await get('/v1/analytics/audience', developer)).json();
    expect(body).toMatchObject({ from: '2026-02-07T12:00:00.000Z', to: '2026-03-09T12:00:00.000Z', daily_active_users: 1, monthly_active_users: 3 });
  });
});

describe('GET /v1/analytics/revenue', () => {
  it('sums orders per currency and week with the 85/15 split, never mixing currencies', async () => {
    const body = (await get('/v1/analytics/revenue?from=2026-03-01&to=2026-03-31&granularity=week', developer)).json();
    expect(body.environment).toBe('live');
    expect(body.totals).toEqual([
      { currency: 'eur', orders: 1, gross_cents: 500, platform_fee_cents: 75, artist_share_cents: 425 },
      { currency: 'usd', orders: 2, gross_cents: 2499, platform_fee_cents: 374, artist_share_cents: 2125 },
    ]);
    expect(body.series.map((s: any) => [s.period_start, s.orders])).toEqual([
      ['2026-02-23T00:00:00Z', 0],
      ['2026-03-02T00:00:00Z', 3],
      ['2026-03-09T00:00:00Z', 0],
      ['2026-03-16T00:00:00Z', 0],
      ['2026-03-23T00:00:00Z', 0],
      ['2026-03-30T00:00:00Z', 0],
    ]);
    expect(body.series[1].amounts).toEqual(body.totals);
  });

  it('shows a test key the sandbox’s orders only, and no plays (the sandbox records none)', async () => {
    const key = await createKey(station, developer, { scopes: ['analytics:read'], environment: 'test' });
    const revenue = (await get('/v1/analytics/revenue?from=2026-03-01&to=2026-03-31', { 'x-api-key': key.key })).json();
    expect(revenue).toMatchObject({ environment: 'test', totals: [{ currency: 'usd', orders: 1, gross_cents: 700 }] });
    const streams = (await get('/v1/analytics/streams?from=2026-03-01&to=2026-03-31', { 'x-api-key': key.key })).json();
    expect(streams.total).toEqual(zero);
  });
});

describe('GET /v1/artists/{slug}/analytics', () => {
  it('shows the artist’s own account its streams, audience, top tracks and sales, by slug or id', async () => {
    for (const name of [a.slug, a.id]) {
      const response = await get(`/v1/artists/${name}/analytics?from=2026-03-01&to=2026-03-31`, ownerA);
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json();
      expect(body.artist).toMatchObject({ id: a.id, slug: a.slug, followers: 0 });
      expect(body.streams.total).toEqual({ streams: 5, radio: 1, on_demand: 4, listeners: 2 });
      expect(body.top_tracks.map((t: any) => [t.track_id, t.streams])).toEqual([
        [a.trackIds[0], 4],
        [a.trackIds[1], 1],
      ]);
      expect(body.audience.geography).toEqual([
        { country: 'FR', users: 1, plays: 3 },
        { country: 'US', users: 1, plays: 1 },
      ]);
      expect(body.revenue).toEqual([{ currency: 'usd', orders: 2, gross_cents: 2499, platform_fee_cents: 374, artist_share_cents: 2125 }]);
    }
  });

  it('refuses another artist (403) and accounts without the artist scope; admins see any; unknown is 404', async () => {
    expectEnvelope(await get(`/v1/artists/${a.slug}/analytics`, ownerB), 403, 'PLATFORM_FORBIDDEN');
    expectEnvelope(await get(`/v1/artists/${a.id}/analytics`, ownerB), 403, 'PLATFORM_FORBIDDEN');
    expectEnvelope(await get(`/v1/artists/${a.slug}/analytics`, l1), 403, 'PLATFORM_INSUFFICIENT_SCOPE');
    expectEnvelope(await get(`/v1/artists/${a.slug}/analytics`, developer), 403, 'PLATFORM_INSUFFICIENT_SCOPE');
    const byAdmin = await get(`/v1/artists/${b.slug}/analytics?from=2026-03-01&to=2026-03-31`, admin);
    expect(byAdmin.statusCode).toBe(200);
    expect(byAdmin.json().streams.total.streams).toBe(2);
    expectEnvelope(await get('/v1/artists/no-such-artist/analytics', ownerA), 404, 'PLATFORM_NOT_FOUND');
  });
});

describe('GET /v1/admin/analytics', () => {
  it('gives admins the platform KPIs of the period', async () => {
    const response = await get('/v1/admin/analytics?from=2026-03-01&to=2026-03-09T12:00:00Z', admin);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      from: '2026-03-01T00:00:00.000Z',
      to: '2026-03-09T12:00:00.000Z',
      daily_active_users: 1,
      monthly_active_users: 3,
      active_users: 3,
      streams: { streams: 7, radio: 2, on_demand: 5, listeners: 3 },
      orders: 3,
      revenue: [
        { currency: 'eur', orders: 1, gross_cents: 500, platform_fee_cents: 75, artist_share_cents: 425 },
        { currency: 'usd', orders: 2, gross_cents: 2499, platform_fee_cents: 374, artist_share_cents: 2125 },
      ],
      new_signups: 2,
      new_signups_by_role: { listener: 2 },
    });
  });

  it('is for admins only', async () => {
    expectEnvelope(await get('/v1/admin/analytics', developer), 403, 'PLATFORM_INSUFFICIENT_SCOPE');
    expectEnvelope(await get('/v1/admin/analytics', ownerA), 403, 'PLATFORM_INSUFFICIENT_SCOPE');
  });
});

describe('access and the period', () => {
  it('needs analytics:read: listeners and artists are refused, developers and admins served', async () => {
    for (const path of ['streams', 'audience', 'revenue', 'top-tracks', 'top-artists', 'stream']) {
      expectEnvelope(await get(`/v1/analytics/${path}`, l1), 403, 'PLATFORM_INSUFFICIENT_SCOPE');
      expectEnvelope(await get(`/v1/analytics/${path}`, ownerA), 403, 'PLATFORM_INSUFFICIENT_SCOPE');
      expectEnvelope(await station.http.inject({ method: 'GET', url: `/v1/analytics/${path}` }), 401, 'PLATFORM_AUTH_REQUIRED');
    }
    expect((await get('/v1/analytics/top-artists', admin)).statusCode).toBe(200);
  });

  it('refuses a period that ends before it starts, is too long, has too many buckets, or is not a date', async () => {
    const refused = [
      'from=2026-03-05&to=2026-03-04',
      'from=2026-03-05T10:00:00Z&to=2026-03-05T09:59:59Z',
      'from=2025-01-01&to=2026-03-01',
      'from=2026-01-01&to=2026-03-01&granularity=hour',
      'from=2026-02-30',
      'from=yesterday',
      'from=2026-03-01T10:00:00',
      'to=2026-03-01T25:00:00Z',
      'granularity=year',
      'colour=blue',
    ];
    for (const query of refused) {
      for (const path of ['/v1/analytics/streams', '/v1/analytics/revenue', '/v1/analytics/audience']) {
        const response = await get(`${path}?${query}`, developer);
        expect(`${query}: ${response.statusCode}`).toBe(`${query}: 400`);
        expectEnvelope(response, 400, 'PLATFORM_VALIDATION_FAILED');
      }
    }
    expectEnvelope(await get('/v1/analytics/top-tracks?limit=0', developer), 400, 'PLATFORM_VALIDATION_FAILED');
    expectEnvelope(await get('/v1/artists/' + a.slug + '/analytics?from=2026-03-05&to=2026-03-01', ownerA), 400, 'PLATFORM_VALIDATION_FAILED');
    expectEnvelope(await get('/v1/admin/analytics?from=2026-03-05&to=2026-03-01', admin), 400, 'PLATFORM_VALIDATION_FAILED');
    // The same day as from and to is that one day; a full year of days and 31 days of hours are accepted.
    const oneDay = (await get('/v1/analytics/streams?from=2026-03-02&to=2026-03-02', developer)).json();
    expect(oneDay.series).toHaveLength(1);
    expect(oneDay.total.streams).toBe(4);
    expect((await get('/v1/analytics/streams?from=2025-03-09&to=2026-03-09', developer)).statusCode).toBe(200);
    expect((await get('/v1/analytics/streams?from=2026-03-01&to=2026-03-31&granularity=hour', developer)).statusCode).toBe(200);
  });
});

describe('play recording', () => {
  const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
  const DESKTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';

  it('records a listener’s stream with the device of its User-Agent and the country of their profile', async () => {
    const track = (await seedArtist(station, null, 1)).trackIds[0];
    const stream = (who: Login, ua: string) =>
      station.http.inject({ method: 'GET', url: `/v1/tracks/${track}/stream`, headers: { ...bearer(who), 'user-agent': ua } });
    expect((await stream(l1, IPHONE)).statusCode).toBe(302);
    expect((await stream(l3, DESKTOP)).statusCode).toBe(302);
    const rows = await station.database.db.select().from(playEvents).where(eq(playEvents.trackId, track));
    const byUser = Object.fromEntries(rows.map((r) => [r.userId, [r.source, r.deviceClass, r.country]]));
    expect(byUser).toEqual({ [l1.userId]: ['on_demand', 'mobile', 'FR'], [l3.userId]: ['on_demand', 'desktop', null] });
  });

  it('counts a radio airing of a catalog track as a play of that track, with no listener', async () => {
    const artist = await seedArtist(station, null, 1);
    const track = artist.trackIds[0];
    // What the radio's scheduler does when a catalog track goes on air (src/station/scheduler/scheduler.ts).
    await new CatalogRepository(station.database.db).recordPlay({ trackId: track, userId: null, source: 'radio', sessionId: 'session-1' });
    await station.http.inject({ method: 'GET', url: `/v1/tracks/${track}/stream`, headers: { ...bearer(l2), 'user-agent': DESKTOP } });
    const [row] = await station.database.db
      .select()
      .from(playEvents)
      .where(and(eq(playEvents.trackId, track), eq(playEvents.source, 'radio')));
    expect(row).toMatchObject({ userId: null, deviceClass: null, country: null, sessionId: 'session-1' });

    const from = new Date(Date.now() - 3600_000).toISOString();
    const to = new Date(Date.now() + 3600_000).toISOString();
    const body = (await get(`/v1/analytics/streams?artist=${artist.slug}&from=${from}&to=${to}&granularity=hour`, developer)).json();
    expect(body.total).toEqual({ streams: 2, radio: 1, on_demand: 1, listeners: 1 });
    const list = (await get(`/v1/tracks?artist=${artist.slug}`, l1)).json();
    expect(list.data[0].streams).toBe(2);
  });

  it('records nothing for a test key: the sandbox counts no plays', async () => {
    const track = (await seedArtist(station, null, 1, 'test')).trackIds[0];
    const liveTrack = (await seedArtist(station, null, 1)).trackIds[0];
    const key = await createKey(station, developer, { scopes: ['streams:read'], environment: 'test' });
    const answer = await station.http.inject({ method: 'GET', url: `/v1/tracks/${track}/stream`, headers: { 'x-api-key': key.key } });
    expect(answer.statusCode).toBe(302);
    expect(await station.database.db.select().from(playEvents).where(eq(playEvents.trackId, track))).toEqual([]);
    // A live track is none of the sandbox's.
    expectEnvelope(
      await station.http.inject({ method: 'GET', url: `/v1/tracks/${liveTrack}/stream`, headers: { 'x-api-key': key.key } }),
      404,
      'PLATFORM_NOT_FOUND',
    );
  });
});
