/**
 * The sandbox catalog: a test key sees and touches the sandbox's copy of the demo catalog only, a live key (or a
 * login) the live catalog only, on the same paths; the radio never picks a sandbox track and the training
 * dataset never holds one; the database itself refuses a platform-owned sandbox artist and a track whose artist
 * is of the other environment.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { demoArtists, demoTracks } from '../../src/demo/content/index.js';
import { seedDemoCatalog } from '../../src/demo/seed-catalog.js';
import { mirrorSandboxMedia, seedSandboxCatalog } from '../../src/demo/seed-sandbox.js';
import { albums, artists, lyrics, tracks } from '../../src/infra/db/schema/index.js';
import { DatasetRepository } from '../../src/station/dataset/repository.js';
import { CatalogDatasetReads } from '../../src/platform/catalog/dataset-reads.js';
import { CatalogTrackReads } from '../../src/platform/catalog/track-reads.js';
import { stationForSuite } from '../helpers/station.js';
import { expectEnvelope } from '../foundation/support.js';
import { bearer, createKey, loginAs, type Login } from './accounts-support.js';

let developer: Login;
let liveKey: string;
let testKey: string;
/** Track and artist ids of each environment, by slug. */
const live = { tracks: new Map<string, string>(), artists: new Map<string, string>() };
const sandbox = { tracks: new Map<string, string>(), artists: new Map<string, string>() };

const as = (key: string) => ({ 'x-api-key': key });
const get = (url: string, headers: Record<string, string>) => station.http.inject({ method: 'GET', url, headers });
const ok = async (url: string, headers: Record<string, string>) => {
  const response = await get(url, headers);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};

async function idsOf(environment: 'live' | 'test') {
  const { db } = station.database;
  const trackRows = await db.select({ id: tracks.id, slug: tracks.slug }).from(tracks).where(eq(tracks.environment, environment));
  const artistRows = await db.select({ id: artists.id, slug: artists.slug }).from(artists).where(eq(artists.environment, environment));
  return { tracks: new Map(trackRows.map((r) => [r.slug, r.id])), artists: new Map(artistRows.map((r) => [r.slug, r.id])) };
}

const station = stationForSuite();
beforeAll(async () => {
  const { db } = station.database;
  await seedDemoCatalog(db);
  // As if the seed had rendered every master: the radio plays only tracks with audio.
  await db.update(tracks).set({ audioBlobKey: sql`'catalog/' || ${tracks.id} || '.mp3'`, audioFormat: 'mp3', durationSec: 30 });
  expect(await seedSandboxCatalog(db)).toBe(demoTracks.length);
  Object.assign(live, await idsOf('live'));
  Object.assign(sandbox, await idsOf('test'));
  developer = await loginAs(station, 'developer');
  liveKey = (await createKey(station, developer, { scopes: ['tracks:read', 'streams:read'], environment: 'live' })).key;
  testKey = (await createKey(station, developer, { scopes: ['tracks:read', 'streams:read'], environment: 'test' })).key;
});

describe('the sandbox seed', () => {
  it('copies every demo artist and track with ids of their own, the same slugs and ISRCs and the same blobs', async () => {
    expect([...sandbox.tracks.keys()].sort()).toEqual(demoTracks.map((t) => t.slug).sort());
    expect([...sandbox.artists.keys()].sort()).toEqual(demoArtists.map((a) => a.slug).sort());
    for (const [slug, id] of sandbox.tracks) expect(id).not.toBe(live.tracks.get(slug));
    const { db } = station.database;
    const copies = await db.select().from(tracks).where(eq(tracks.environment, 'test'));
    const originals = new Map((await db.select().from(tracks).where(eq(tracks.environment, 'live'))).map((t) => [t.slug, t]));
    for (const copy of copies) {
      const original = originals.get(copy.slug)!;
      expect([copy.isrc, copy.audioBlobKey, copy.title, copy.streams]).toEqual([original.isrc, original.audioBlobKey, original.title, 0]);
    }
    const sandboxArtists = await db.select().from(artists).where(eq(artists.environment, 'test'));
    expect(sandboxArtists.every((a) => !a.platformOwned && a.ownerUserId === null)).toBe(true);
  });

  it('is idempotent, and a master rendered again reaches its sandbox copy', async () => {
    const { db } = station.database;
    expect(await seedSandboxCatalog(db)).toBe(0);
    expect(await mirrorSandboxMedia(db)).toBe(0);
    const slug = demoTracks[0].slug;
    await db
      .update(tracks)
      .set({ audioBlobKey: 'catalog/longer.mp3', durationSec: 180 })
      .where(and(eq(tracks.environment, 'live'), eq(tracks.slug, slug)));
    expect(await mirrorSandboxMedia(db, slug)).toBe(1);
    const [copy] = await db
      .select()
      .from(tracks)
      .where(eq(tracks.id, sandbox.tracks.get(slug)!));
    expect([copy.audioBlobKey, copy.durationSec]).toEqual(['catalog/longer.mp3', 180]);
  });
});

describe('a test key', () => {
  it('lists, pages and searches the sandbox tracks only', async () => {
    const page = await ok('/v1/tracks?limit=100', as(testKey));
    expect(page.total).toBe(demoTracks.length);
    expect(page.data.map((t: { id: string }) => t.id).sort()).toEqual([...sandbox.tracks.values()].sort());
    const word = demoTracks[0].title.split(/\s+/)[0];
    const found = await ok(`/v1/tracks?q=${encodeURIComponent(word)}`, as(testKey));
    expect(found.total).toBeGreaterThan(0);
    for (const track of found.data) expect(sandbox.tracks.get(track.slug)).toBe(track.id);
    const byArtist = await ok(`/v1/tracks?artist=${demoArtists[0].slug}`, as(testKey));
    expect(byArtist.total).toBeGreaterThan(0);
    for (const track of byArtist.data) expect(sandbox.tracks.get(track.slug)).toBe(track.id);
  });

  it('reads the credits and the lyrics flag of a sandbox track as its live original has them', async () => {
    for (const demo of demoTracks) {
      const [copy, original] = [
        await ok(`/v1/tracks/${sandbox.tracks.get(demo.slug)}`, as(testKey)),
        await ok(`/v1/tracks/${live.tracks.get(demo.slug)}`, as(liveKey)),
      ];
      expect([copy.credits, copy.has_lyrics]).toEqual([original.credits, original.has_lyrics]);
    }
    expect(demoTracks.some((t) => t.credits.length > 0)).toBe(true);
  });

  it('reads a sandbox track, and a live track answers 404 PLATFORM_NOT_FOUND (also once a live caller cached it)', async () => {
    const slug = demoTracks[1].slug;
    const detail = await ok(`/v1/tracks/${sandbox.tracks.get(slug)}`, as(testKey));
    expect([detail.slug, detail.isrc]).toEqual([slug, demoTracks[1].isrc]);
    await ok(`/v1/tracks/${live.tracks.get(slug)}`, as(liveKey)); // now in the detail cache
    expectEnvelope(await get(`/v1/tracks/${live.tracks.get(slug)}`, as(testKey)), 404, 'PLATFORM_NOT_FOUND');
    expectEnvelope(await get(`/v1/tracks/${live.tracks.get(slug)}/stream`, as(testKey)), 404, 'PLATFORM_NOT_FOUND');
    const stream = await get(`/v1/tracks/${sandbox.tracks.get(slug)}/stream`, as(testKey));
    expect(stream.statusCode).toBe(302);
  });

  it('finds the sandbox artist by the slug its live original has, with the sandbox copies of its releases', async () => {
    const artist = demoArtists[0];
    const profile = await ok(`/v1/artists/${artist.slug}`, as(testKey));
    expect(profile.id).toBe(sandbox.artists.get(artist.slug));
    expect(profile.platform_owned).toBe(false);
    const liveProfile = await ok(`/v1/artists/${artist.slug}`, as(liveKey));
    expect(profile.discography.map((r: { slug: string }) => r.slug)).toEqual(liveProfile.discography.map((r: { slug: string }) => r.slug));
    for (const release of profile.discography) {
      expect(liveProfile.discography.map((r: { id: string }) => r.id)).not.toContain(release.id);
      for (const track of release.tracks ?? []) expect(sandbox.tracks.get(track.slug)).toBe(track.id);
    }
    for (const track of profile.other_tracks) expect(sandbox.tracks.get(track.slug)).toBe(track.id);
    expectEnvelope(await get(`/v1/artists/${live.artists.get(artist.slug)}`, as(testKey)), 404, 'PLATFORM_NOT_FOUND');
    const listed = await ok('/v1/artists?limit=100', as(testKey));
    expect(listed.data.map((a: { id: string }) => a.id).sort()).toEqual([...sandbox.artists.values()].sort());
    const liveAlbums = await ok('/v1/albums?limit=100', as(liveKey));
    const sandboxAlbums = await ok('/v1/albums?limit=100', as(testKey));
    expect(liveAlbums.total).toBeGreaterThan(0);
    expect(sandboxAlbums.data.map((a: { slug: string }) => a.slug).sort()).toEqual(liveAlbums.data.map((a: { slug: string }) => a.slug).sort());
    const liveAlbumIds = new Set(liveAlbums.data.map((a: { id: string }) => a.id));
    for (const album of sandboxAlbums.data) expect(liveAlbumIds.has(album.id)).toBe(false);
    const slug = sandboxAlbums.data[0].slug;
    const [liveAlbum, sandboxAlbum] = [await ok(`/v1/albums/${slug}`, as(liveKey)), await ok(`/v1/albums/${slug}`, as(testKey))];
    expect(sandboxAlbum.tracks.map((t: { slug: string }) => t.slug)).toEqual(liveAlbum.tracks.map((t: { slug: string }) => t.slug));
    for (const track of sandboxAlbum.tracks) expect(sandbox.tracks.get(track.slug)).toBe(track.id);
    const tracksOf = await ok(`/v1/artists/${artist.slug}/tracks`, as(testKey));
    for (const track of tracksOf.data) expect(sandbox.tracks.get(track.slug)).toBe(track.id);
  });
});

describe('a live key or a login', () => {
  it('never sees a sandbox track or artist', async () => {
    for (const headers of [as(liveKey), bearer(developer)]) {
      const page = await ok('/v1/tracks?limit=100', headers);
      expect(page.data.map((t: { id: string }) => t.id).sort()).toEqual([...live.tracks.values()].sort());
      const word = demoTracks[0].title.split(/\s+/)[0];
      for (const track of (await ok(`/v1/tracks?q=${encodeURIComponent(word)}`, headers)).data) expect(live.tracks.get(track.slug)).toBe(track.id);
      const slug = demoTracks[2].slug;
      await ok(`/v1/tracks/${sandbox.tracks.get(slug)}`, as(testKey)); // now in the detail cache
      expectEnvelope(await get(`/v1/tracks/${sandbox.tracks.get(slug)}`, headers), 404, 'PLATFORM_NOT_FOUND');
      expectEnvelope(await get(`/v1/artists/${sandbox.artists.get(demoArtists[0].slug)}`, headers), 404, 'PLATFORM_NOT_FOUND');
      expect((await ok(`/v1/artists/${demoArtists[0].slug}`, headers)).id).toBe(live.artists.get(demoArtists[0].slug));
      expect((await ok('/v1/albums', headers)).total).toBeGreaterThan(0);
    }
  });
});

describe('personal data of a login (live)', () => {
  it('cannot hold a sandbox track in its library or playlists, nor follow a sandbox artist', async () => {
    const listener = await loginAs(station, 'listener');
    const post = (url: string, payload?: object) => station.http.inject({ method: 'POST', url, headers: bearer(listener), ...(payload ? { payload } : {}) });
    const slug = demoTracks[3].slug;
    expectEnvelope(await post(`/v1/users/me/library/${sandbox.tracks.get(slug)}`), 404, 'PLATFORM_NOT_FOUND');
    expect((await post(`/v1/users/me/library/${live.tracks.get(slug)}`)).statusCode).toBeLessThan(300);
    const playlist = (await post('/v1/playlists', { name: 'Mine' })).json();
    expectEnvelope(await post(`/v1/playlists/${playlist.id}/tracks`, { track_id: sandbox.tracks.get(slug) }), 404, 'PLATFORM_NOT_FOUND');
    expect((await post(`/v1/playlists/${playlist.id}/tracks`, { track_id: live.tracks.get(slug) })).statusCode).toBe(201);
    expectEnvelope(await post(`/v1/artists/${sandbox.artists.get(demoArtists[0].slug)}/follow`), 404, 'PLATFORM_NOT_FOUND');
    const followed = await post(`/v1/artists/${demoArtists[0].slug}/follow`);
    expect(followed.statusCode, followed.body).toBe(200);
    const [artist] = await station.database.db
      .select()
      .from(artists)
      .where(eq(artists.id, live.artists.get(demoArtists[0].slug)!));
    const [copy] = await station.database.db
      .select()
      .from(artists)
      .where(eq(artists.id, sandbox.artists.get(demoArtists[0].slug)!));
    expect([artist.followers, copy.followers]).toEqual([1, 0]);
  });
});

describe('the sandbox base address /sandbox/v1', () => {
  it('serves the platform API on sandbox data to a test key and a login session; a live key answers 403', async () => {
    const sandboxIds = [...sandbox.tracks.values()].sort();
    const viaKey = await ok('/sandbox/v1/tracks?limit=100', as(testKey));
    expect(viaKey.data.map((t: { id: string }) => t.id).sort()).toEqual(sandboxIds);
    // A login session acts on sandbox data there, and on live data at /v1.
    const viaLogin = await ok('/sandbox/v1/tracks?limit=100', bearer(developer));
    expect(viaLogin.data.map((t: { id: string }) => t.id).sort()).toEqual(sandboxIds);
    expect((await ok(`/sandbox/v1/artists/${demoArtists[0].slug}`, bearer(developer))).id).toBe(sandbox.artists.get(demoArtists[0].slug));
    expect((await ok('/v1/tracks?limit=100', bearer(developer))).data.map((t: { id: string }) => t.id).sort()).toEqual([...live.tracks.values()].sort());
    // A live key serves production only.
    const refused = await get('/sandbox/v1/tracks', as(liveKey));
    expectEnvelope(refused, 403, 'PLATFORM_FORBIDDEN');
    expect(refused.json().error.detail).toContain('test key');
    // The same errors and codes as /v1: unknown paths, no credential.
    expectEnvelope(await get('/sandbox/v1/nothing-here', as(testKey)), 404, 'PLATFORM_NOT_FOUND');
    expectEnvelope(await get('/sandbox/v1/tracks', {}), 401, 'PLATFORM_AUTH_REQUIRED');
    expect((await get('/sandbox/v1x/tracks', as(testKey))).statusCode).toBe(404);
  });

  it('keeps what a login session does there in the sandbox', async () => {
    const listener = await loginAs(station, 'listener');
    const slug = demoArtists[1].slug;
    const followed = await station.http.inject({ method: 'POST', url: `/sandbox/v1/artists/${slug}/follow`, headers: bearer(listener) });
    expect(followed.statusCode, followed.body).toBe(200);
    expect(followed.json()).toMatchObject({ following: true, followers: 1, artist_id: sandbox.artists.get(slug) });
    // The sandbox counts its own follows; the live artist's count and the live profile never see it.
    const [artist] = await station.database.db
      .select()
      .from(artists)
      .where(eq(artists.id, live.artists.get(slug)!));
    expect(artist.followers).toBe(0);
    expect(await ok(`/v1/artists/${slug}`, bearer(listener))).toMatchObject({ following: false, followers: 0 });
    expect(await ok(`/sandbox/v1/artists/${slug}`, bearer(listener))).toMatchObject({ following: true, followers: 1 });
  });
});

describe('the station', () => {
  it('never puts a sandbox track on the radio', async () => {
    const candidates = (await new CatalogTrackReads(station.database.db).radioCandidates(true)).map((c) => c.id);
    expect(candidates.length).toBeGreaterThan(0);
    const sandboxIds = new Set(sandbox.tracks.values());
    expect(candidates.filter((id) => sandboxIds.has(id))).toEqual([]);
  });

  it('never takes a sandbox track or artist into the training dataset', async () => {
    const dataset = new DatasetRepository(station.database.db, new CatalogTrackReads(station.database.db), new CatalogDatasetReads(station.database.db));
    const catalog = await dataset.catalog();
    const sandboxIds = new Set([...sandbox.tracks.values(), ...sandbox.artists.values()]);
    expect(catalog.tracks.length).toBe(demoTracks.length);
    expect(catalog.tracks.filter((t) => sandboxIds.has(t.id) || sandboxIds.has(t.artistId))).toEqual([]);
    expect(catalog.artists.filter((a) => sandboxIds.has(a.id))).toEqual([]);
    // The sandbox's copies of the demo lyrics are not catalog lyrics.
    expect(catalog.lyrics.filter((l) => sandboxIds.has(l.artistId) || (l.trackId !== null && sandboxIds.has(l.trackId)))).toEqual([]);
    const [{ live: liveLyrics, copies }] = await station.database.db
      .select({
        live: sql<number>`count(*) filter (where ${artists.environment} = 'live')::int`,
        copies: sql<number>`count(*) filter (where ${artists.environment} = 'test')::int`,
      })
      .from(lyrics)
      .innerJoin(artists, eq(artists.id, lyrics.artistId));
    expect(copies).toBeGreaterThan(0);
    expect(catalog.lyrics.length).toBe(liveLyrics);
    expect(await dataset.artistsByIds([...sandbox.artists.values()])).toEqual([]);
    expect(await dataset.tracksForCheck([...sandbox.tracks.values()])).toEqual([]);
  });
});

describe('the database', () => {
  /** The error a statement fails with, or null; the constraint's name is in the error or its cause. */
  async function failure(run: () => Promise<unknown>): Promise<string | null> {
    try {
      await run();
      return null;
    } catch (error) {
      const e = error as { message?: string; cause?: { message?: string; constraint?: string }; constraint?: string };
      return [e.message, e.constraint, e.cause?.message, e.cause?.constraint].filter(Boolean).join(' ');
    }
  }

  it('refuses a platform-owned sandbox artist', async () => {
    const { db } = station.database;
    const error = await failure(() =>
      db.insert(artists).values({ environment: 'test', slug: `owned-${randomUUID().slice(0, 8)}`, name: 'Owned', genre: 'pop', platformOwned: true }),
    );
    expect(error).toMatch(/artists_platform_owned_live/);
  });

  it('refuses a track whose artist is of the other environment, in either direction', async () => {
    const { db } = station.database;
    const track = (environment: 'live' | 'test', artistId: string) => ({
      environment,
      slug: `x-${randomUUID().slice(0, 8)}`,
      title: 'X',
      artistId,
      genre: 'pop',
      durationSec: 10,
    });
    const liveArtist = live.artists.get(demoArtists[0].slug)!;
    const sandboxArtist = sandbox.artists.get(demoArtists[0].slug)!;
    expect(await failure(() => db.insert(tracks).values(track('test', liveArtist)))).toMatch(/tracks_artist_same_environment_fk/);
    expect(await failure(() => db.insert(tracks).values(track('live', sandboxArtist)))).toMatch(/tracks_artist_same_environment_fk/);
    expect(
      await failure(() =>
        db
          .update(tracks)
          .set({ environment: 'test', slug: 'moved-to-the-sandbox', isrc: null })
          .where(eq(tracks.id, live.tracks.get(demoTracks[0].slug)!)),
      ),
    ).toMatch(/tracks_artist_same_environment_fk/);
  });

  it('refuses a release whose artist is of the other environment', async () => {
    const { db } = station.database;
    const liveArtist = live.artists.get(demoArtists[0].slug)!;
    const release = {
      environment: 'test' as const,
      slug: `r-${randomUUID().slice(0, 8)}`,
      artistId: liveArtist,
      title: 'R',
      type: 'single' as const,
      genre: 'pop',
    };
    expect(await failure(() => db.insert(albums).values(release))).toMatch(/albums_artist_same_environment_fk/);
  });

  it('keeps slugs and ISRCs unique within an environment only', async () => {
    const { db } = station.database;
    const sandboxArtist = sandbox.artists.get(demoArtists[0].slug)!;
    const demo = demoTracks[0];
    const error = await failure(() =>
      db.insert(tracks).values({ environment: 'test', slug: demo.slug, title: 'Again', artistId: sandboxArtist, genre: 'pop', durationSec: 10 }),
    );
    expect(error).toMatch(/tracks_environment_slug_uq/);
    const isrc = await failure(() =>
      db.insert(tracks).values({
        environment: 'test',
        slug: `y-${randomUUID().slice(0, 8)}`,
        isrc: demo.isrc,
        title: 'Again',
        artistId: sandboxArtist,
        genre: 'pop',
        durationSec: 10,
      }),
    );
    expect(isrc).toMatch(/tracks_environment_isrc_uq/);
  });
});
