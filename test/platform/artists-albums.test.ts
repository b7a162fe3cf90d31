/**
 * Artists and releases: GET /v1/artists/{slug} (slug or id) with its discography, followers and virtual-artist
 * metadata, GET /v1/artists/{slug}/tracks, GET /v1/albums with its filters and GET /v1/albums/{id} with the store
 * products that sell the release; the database keeps a track on its own artist's releases only; the demo seed
 * groups the demo catalog into releases.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { albums, artists, songwriters, tracks } from '../../src/infra/db/schema/index.js';
import { seedDemoCatalog } from '../../src/demo/seed-catalog.js';
import { demoReleases, demoTracks } from '../../src/demo/content/index.js';
import { stationForSuite, createTestDatabase } from '../helpers/station.js';
import { expectEnvelope } from '../foundation/support.js';
import { bearer, loginAs, type Login } from './accounts-support.js';

let owner: Login;
let listener: Login;

const NEON = { id: randomUUID(), slug: 'neon-tidewater', name: 'Neon Tidewater' };
const FOLK = { id: randomUUID(), slug: 'juniper-ferry', name: 'The Juniper Ferry' };
const GRID = randomUUID(); // Neon Tidewater's album "Run the Grid" (2022): two tracks, a third removed
const PULSE = randomUUID(); // Neon Tidewater's single "Pulse Rate" (2024)
const NORTH = randomUUID(); // The Juniper Ferry's EP "Northbound" (2022)
const T = { chrome: randomUUID(), arcade: randomUUID(), gone: randomUUID(), pulse: randomUUID(), loose: randomUUID(), north: randomUUID() };

const get = (url: string, who: { token: string; csrf: string } = listener) => station.http.inject({ method: 'GET', url, headers: bearer(who) });
const ok = async (url: string, who?: { token: string; csrf: string }) => {
  const response = await get(url, who);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};

const station = stationForSuite();
beforeAll(async () => {
  owner = await loginAs(station, 'artist');
  listener = await loginAs(station, 'listener');
  const { db } = station.database;
  await db.insert(artists).values([
    { ...NEON, genre: 'synthwave', platformOwned: true, followers: 12, ownerUserId: owner.userId, formedYear: 2017 },
    { ...FOLK, genre: 'folk' },
  ]);
  await db.insert(songwriters).values({ slug: 'lena-voss', name: 'Lena Voss', artistId: NEON.id, platformOwned: true });
  await db.insert(albums).values([
    { id: GRID, slug: 'run-the-grid', title: 'Run the Grid', artistId: NEON.id, type: 'album', genre: 'Synthwave', releaseYear: 2022 },
    { id: PULSE, slug: 'pulse-rate-single', title: 'Pulse Rate', artistId: NEON.id, type: 'single', genre: 'Synthwave', releaseYear: 2024 },
    { id: NORTH, slug: 'northbound', title: 'Northbound', artistId: FOLK.id, type: 'ep', genre: 'Folk', releaseYear: 2022 },
  ]);
  const track = (id: string, title: string, artistId: string, extra: Partial<typeof tracks.$inferInsert>) => ({
    id,
    slug: `t-${id.slice(0, 8)}`,
    title,
    artistId,
    genre: 'synthwave',
    durationSec: 100,
    ...extra,
  });
  await db
    .insert(tracks)
    .values([
      track(T.arcade, 'Arcade Heart', NEON.id, { albumId: GRID, trackNumber: 2, streams: 500 }),
      track(T.chrome, 'Chrome Horizon', NEON.id, { albumId: GRID, trackNumber: 1, streams: 10 }),
      track(T.gone, 'Withdrawn', NEON.id, { albumId: GRID, trackNumber: 3, status: 'removed' }),
      track(T.pulse, 'Pulse Rate', NEON.id, { albumId: PULSE, trackNumber: 1, streams: 50, durationSec: 200.4 }),
      track(T.loose, 'Demo Tape', NEON.id, { streams: 1 }),
      track(T.north, 'Northbound', FOLK.id, { albumId: NORTH, trackNumber: 1, genre: 'folk' }),
    ]);
});

describe('GET /v1/artists/{slug}', () => {
  it('answers the profile by slug or id: releases newest first with their tracks in order, other tracks, virtual-artist metadata', async () => {
    for (const ref of [NEON.slug, NEON.id]) {
      const profile = await ok(`/v1/artists/${ref}`);
      expect(profile).toMatchObject({
        id: NEON.id,
        slug: NEON.slug,
        genre: 'synthwave',
        verified: false,
        verified_at: null,
        platform_owned: true,
        followers: 12,
        following: false,
        formed_year: 2017,
        virtual_artist: { operated_by: 'platform', training_dataset: 'included' },
        songwriters: [{ slug: 'lena-voss', name: 'Lena Voss' }],
      });
      expect(profile.discography.map((r: { id: string }) => r.id)).toEqual([PULSE, GRID]);
      const grid = profile.discography[1];
      expect(grid).toMatchObject({ title: 'Run the Grid', type: 'album', release_year: 2022, track_count: 2, duration: 200, artist_slug: NEON.slug });
      expect(grid.tracks.map((t: { id: string; track_number: number }) => [t.id, t.track_number])).toEqual([
        [T.chrome, 1],
        [T.arcade, 2],
      ]);
      expect(grid.tracks[0]).toMatchObject({ album_id: GRID, artist: NEON.name });
      expect(profile.other_tracks.map((t: { id: string }) => t.id)).toEqual([T.loose]);
    }
    const folk = await ok(`/v1/artists/${FOLK.slug}`);
    expect(folk).toMatchObject({ platform_owned: false, virtual_artist: null, songwriters: [], other_tracks: [] });
  });

  it('shows the training dataset status module B holds for a platform artist', async () => {
    const dataset = station.station.dataset.service;
    await dataset.setArtistStatus(NEON.id, { status: 'excluded', reason: 'paused for review' }, null);
    expect(await ok(`/v1/artists/${NEON.slug}`)).toMatchObject({ virtual_artist: { operated_by: 'platform', training_dataset: 'excluded' } });
    await dataset.setArtistStatus(NEON.id, { status: 'included', reason: 'review done' }, null);
    expect(await ok(`/v1/artists/${NEON.slug}`)).toMatchObject({ virtual_artist: { operated_by: 'platform', training_dataset: 'included' } });
  });

  it('says whether the caller follows, and counts followers in the caller’s environment', async () => {
    const followed = await station.http.inject({ method: 'POST', url: `/v1/artists/${NEON.slug}/follow`, headers: bearer(listener) });
    expect(followed.statusCode, followed.body).toBe(200);
    expect(await ok(`/v1/artists/${NEON.id}`)).toMatchObject({ following: true, followers: 13 });
    const { key } = await station.auth.createApiKey({ name: 'sandbox', scopes: ['tracks:read'], environment: 'test', ownerUserId: listener.userId });
    // A test key reads the sandbox's copy of the artist (same slug), whose followers are the sandbox's own.
    const copy = randomUUID();
    await station.database.db.insert(artists).values({ id: copy, environment: 'test', slug: NEON.slug, name: NEON.name, genre: 'synthwave' });
    const sandbox = await station.http.inject({ method: 'GET', url: `/v1/artists/${NEON.slug}`, headers: { 'x-api-key': key } });
    expect(sandbox.json()).toMatchObject({ id: copy, followers: 0, following: false });
    expectEnvelope(await station.http.inject({ method: 'GET', url: `/v1/artists/${NEON.id}`, headers: { 'x-api-key': key } }), 404, 'PLATFORM_NOT_FOUND');
    await station.database.db.delete(artists).where(eq(artists.id, copy));
  });

  it('follows and unfollows with one POST and a {"follow"} body, as the spec lists it; DELETE unfollows too', async () => {
    const post = (body?: object) =>
      station.http.inject({ method: 'POST', url: `/v1/artists/${FOLK.slug}/follow`, headers: bearer(listener), ...(body ? { payload: body } : {}) });
    const followed = await post({ follow: true });
    expect(followed.statusCode, followed.body).toBe(200);
    expect(followed.json()).toMatchObject({ following: true, followers: 1, artist_slug: FOLK.slug });
    const unfollowed = await post({ follow: false });
    expect(unfollowed.statusCode, unfollowed.body).toBe(200);
    expect(unfollowed.json()).toMatchObject({ following: false, followers: 0 });
    expect(await ok(`/v1/artists/${FOLK.slug}`)).toMatchObject({ following: false, followers: 0 });
    // No body still follows; DELETE still unfollows; a body of the wrong shape changes nothing.
    expect((await post()).json()).toMatchObject({ following: true, followers: 1 });
    expectEnvelope(await post({ follow: 'no' }), 400, 'PLATFORM_VALIDATION_FAILED');
    expect(await ok(`/v1/artists/${FOLK.slug}`)).toMatchObject({ following: true, followers: 1 });
    const removed = await station.http.inject({ method: 'DELETE', url: `/v1/artists/${FOLK.slug}/follow`, headers: bearer(listener) });
    expect(removed.json()).toMatchObject({ following: false, followers: 0 });
  });

  it('lists the artist’s published tracks, most streamed first, paged, by slug or id', async () => {
    const first = await ok(`/v1/artists/${NEON.slug}/tracks?limit=2`);
    expect(first).toMatchObject({ total: 4, page: 1, limit: 2 });
    expect(first.data.map((t: { id: string }) => t.id)).toEqual([T.arcade, T.pulse]);
    expect((await ok(`/v1/artists/${NEON.id}/tracks?limit=2&page=2`)).data.map((t: { id: string }) => t.id)).toEqual([T.chrome, T.loose]);
  });

  it('answers 404 PLATFORM_NOT_FOUND for an unknown artist on every artist path', async () => {
    for (const path of ['', '/tracks', '/capsules']) {
      expectEnvelope(await get(`/v1/artists/nobody${path}`), 404, 'PLATFORM_NOT_FOUND');
      expectEnvelope(await get(`/v1/artists/${randomUUID()}${path}`), 404, 'PLATFORM_NOT_FOUND');
    }
  });
});

describe('GET /v1/albums', () => {
  const list = async (query: string) => (await ok(`/v1/albums${query}`)).data.map((a: { id: string }) => a.id);

  it('lists releases newest first, with counts of their published tracks', async () => {
    const all = await ok('/v1/albums');
    expect(all).toMatchObject({ total: 3, page: 1, limit: 20 });
    expect(all.data[0]).toEqual({
      id: PULSE,
      slug: 'pulse-rate-single',
      title: 'Pulse Rate',
      type: 'single',
      artist_id: NEON.id,
      artist_slug: NEON.slug,
      artist: NEON.name,
      artist_verified: false,
      genre: 'Synthwave',
      release_year: 2024,
      track_count: 1,
      duration: 200,
      cover_art_url: null,
    });
    expect(
      all.data
        .slice(1)
        .map((a: { id: string }) => a.id)
        .sort(),
    ).toEqual([GRID, NORTH].sort());
    expect((await ok('/v1/albums?limit=1&page=3')).data).toHaveLength(1);
  });

  it('filters by artist (slug or id), genre, year, type and search, combined', async () => {
    expect((await list(`?artist=${NEON.slug}`)).sort()).toEqual([GRID, PULSE].sort());
    expect(await list(`?artist=${FOLK.id}`)).toEqual([NORTH]);
    expect(await list('?genre=FOLK')).toEqual([NORTH]);
    expect((await list('?year=2022')).sort()).toEqual([GRID, NORTH].sort());
    expect(await list('?type=ep')).toEqual([NORTH]);
    expect(await list('?search=grid')).toEqual([GRID]);
    expect(await list('?search=juniper')).toEqual([NORTH]);
    expect(await list(`?artist=${NEON.slug}&year=2022&type=album`)).toEqual([GRID]);
    expect(await list('?search=100%25')).toEqual([]);
    expect(await list('?artist=nobody')).toEqual([]);
    for (const bad of ['year=1800', 'type=mixtape', 'limit=101', 'sort=title'])
      expectEnvelope(await get(`/v1/albums?${bad}`), 400, 'PLATFORM_VALIDATION_FAILED');
  });
});

describe('GET /v1/albums/{id}', () => {
  it('answers a release by id or slug with its tracks in order and the store products that sell it', async () => {
    const created = await station.http.inject({
      method: 'POST',
      url: '/v1/store/products',
      headers: bearer(owner),
      payload: { album_id: 'run-the-grid', price: 7.5 },
    });
    expect(created.statusCode, created.body).toBe(201);
    // Selling a release: title, type and tracks default to the release's.
    expect(created.json()).toMatchObject({
      album_id: GRID,
      title: 'Run the Grid',
      type: 'album',
      tracks: [
        { id: T.chrome, position: 1 },
        { id: T.arcade, position: 2 },
      ],
    });
    for (const ref of [GRID, 'run-the-grid']) {
      const album = await ok(`/v1/albums/${ref}`);
      expect(album).toMatchObject({ id: GRID, title: 'Run the Grid', track_count: 2 });
      expect(album.tracks.map((t: { id: string }) => t.id)).toEqual([T.chrome, T.arcade]);
      expect(album.products).toEqual([{ id: created.json().id, title: 'Run the Grid', type: 'album', price: 7.5, price_cents: 750, currency: 'usd' }]);
    }
    // An archived product is no longer on sale.
    await station.http.inject({ method: 'PATCH', url: `/v1/store/products/${created.json().id}`, headers: bearer(owner), payload: { status: 'archived' } });
    expect((await ok(`/v1/albums/${GRID}`)).products).toEqual([]);
  });

  it('refuses to sell another artist’s release (404) and asks for title, type and tracks without a release (400)', async () => {
    const theirs = await station.http.inject({ method: 'POST', url: '/v1/store/products', headers: bearer(owner), payload: { album_id: NORTH, price: 3 } });
    expectEnvelope(theirs, 404, 'PLATFORM_NOT_FOUND');
    const bare = await station.http.inject({ method: 'POST', url: '/v1/store/products', headers: bearer(owner), payload: { price: 3 } });
    expectEnvelope(bare, 400, 'PLATFORM_VALIDATION_FAILED');
  });

  it('answers 404 PLATFORM_NOT_FOUND for an unknown release', async () => {
    for (const id of ['nope', randomUUID()]) expectEnvelope(await get(`/v1/albums/${id}`), 404, 'PLATFORM_NOT_FOUND');
  });
});

describe('releases in the database', () => {
  it('keep a track on its own artist’s releases, at one place each', async () => {
    const { db } = station.database;
    await expect(db.update(tracks).set({ albumId: NORTH, trackNumber: 5 }).where(eq(tracks.id, T.loose))).rejects.toThrow();
    await expect(db.update(tracks).set({ albumId: GRID, trackNumber: 1 }).where(eq(tracks.id, T.loose))).rejects.toThrow();
    await expect(db.update(tracks).set({ albumId: GRID }).where(eq(tracks.id, T.loose))).rejects.toThrow();
    const [loose] = await db.select({ albumId: tracks.albumId }).from(tracks).where(eq(tracks.id, T.loose));
    expect(loose.albumId).toBeNull();
  });

  it('the demo seed puts every demo track on one release of its artist, in order', async () => {
    const testDb = await createTestDatabase();
    const database = await testDb.open();
    try {
      await database.migrate();
      expect(await seedDemoCatalog(database.db)).toBe(true);
      const rows = await database.db
        .select({ slug: tracks.slug, number: tracks.trackNumber, album: albums.slug, type: albums.type })
        .from(tracks)
        .innerJoin(albums, eq(albums.id, tracks.albumId));
      expect(rows).toHaveLength(demoTracks.length);
      for (const release of demoReleases) {
        const on = rows.filter((r) => r.album === release.slug).sort((a, b) => a.number! - b.number!);
        expect(
          on.map((r) => r.slug),
          release.slug,
        ).toEqual(release.trackSlugs);
      }
      expect(new Set(rows.map((r) => r.type))).toEqual(new Set(['album', 'ep', 'single']));
    } finally {
      await database.close();
      await testDb.drop();
    }
  });
});
