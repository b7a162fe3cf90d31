/**
 * The catalog's read ports for the listener-facing groups (src/platform/catalog/display-reads.ts and
 * listening-history.ts) on the real database: a track's and a release's display fields by id and environment,
 * the derived tables a group joins to its own rows (columns of the same name in tracks and artists kept apart,
 * values decoded as the columns are, the group's order and page kept, read in the group's transaction), the
 * artists a user owns, and a listener's plays. Runs on PGlite, or PostgreSQL when DATABASE_URL is set.
 */
import { randomUUID } from 'node:crypto';
import { asc, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Db } from '../../src/infra/db/client.js';
import { albums, artists, capsules, playEvents, playlists, playlistTracks, tracks, users } from '../../src/infra/db/schema/index.js';
import { CatalogDisplayReads, trackRefFields } from '../../src/platform/catalog/display-reads.js';
import { CatalogListeningHistory } from '../../src/platform/catalog/listening-history.js';
import { openSuiteDatabase, type SuiteDatabase } from '../helpers/station.js';

let suiteDb: SuiteDatabase | undefined;
let database: Database;
let db: Db;
let reads: CatalogDisplayReads;

const USER = { id: randomUUID(), email: 'display-reads@example.com', passwordHash: 'x', displayName: 'Listener' };
const OTHER = { id: randomUUID(), email: 'display-reads-other@example.com', passwordHash: 'x', displayName: 'Other' };
const LIVE = { id: randomUUID(), slug: 'live-band', name: 'Live Band', genre: 'jazz', ownerUserId: USER.id };
// The sandbox's copy of the band: same slug, environment 'test'.
const SANDBOX = { id: randomUUID(), slug: 'live-band', name: 'Live Band (sandbox)', genre: 'jazz', environment: 'test' as const, ownerUserId: USER.id };
const UNOWNED = { id: randomUUID(), slug: 'unowned', name: 'Unowned', genre: 'rock' };
const ALBUM = { id: randomUUID(), slug: 'first-record', artistId: LIVE.id, title: 'First Record', type: 'album' as const, genre: 'jazz', releaseYear: 2021 };
const T = { published: randomUUID(), removed: randomUUID(), sandbox: randomUUID(), unowned: randomUUID() };
const PLAYLIST = { id: randomUUID(), ownerUserId: USER.id, name: 'Mix' };

const expectedRef = (id: string, slug: string, title: string, artist: typeof LIVE | typeof UNOWNED | typeof SANDBOX, extra: object) => ({
  trackId: id,
  trackSlug: slug,
  trackTitle: title,
  artistName: artist.name,
  artistId: artist.id,
  artistSlug: artist.slug,
  ...extra,
});

beforeAll(async () => {
  suiteDb = await openSuiteDatabase();
  database = suiteDb.database;
  db = database.db;
  reads = new CatalogDisplayReads(db);
  await db.insert(users).values([USER, OTHER]);
  await db.insert(artists).values([LIVE, SANDBOX, UNOWNED]);
  await db.insert(albums).values(ALBUM);
  const track = (id: string, slug: string, artistId: string, extra: Partial<typeof tracks.$inferInsert> = {}) => ({
    id,
    slug,
    title: `Title ${slug}`,
    artistId,
    genre: 'jazz',
    durationSec: 61.6,
    ...extra,
  });
  await db
    .insert(tracks)
    .values([
      track(T.published, 'published', LIVE.id, { streams: 12, albumId: ALBUM.id, trackNumber: 1 }),
      track(T.removed, 'removed', LIVE.id, { status: 'removed', genre: 'blues' }),
      { ...track(T.sandbox, 'published', SANDBOX.id), environment: 'test' as const },
      track(T.unowned, 'unowned', UNOWNED.id, { genre: 'rock', durationSec: 200 }),
    ]);
  await db.insert(playlists).values(PLAYLIST);
  await db.insert(playlistTracks).values([
    { playlistId: PLAYLIST.id, position: 0, trackId: T.unowned },
    { playlistId: PLAYLIST.id, position: 1, trackId: T.removed },
    { playlistId: PLAYLIST.id, position: 2, trackId: T.published },
  ]);
}, 120_000);

afterAll(async () => {
  await suiteDb?.close();
});

describe('CatalogDisplayReads', () => {
  it('reads a track of the environment, a published one only when asked', async () => {
    expect(await reads.trackRef(T.published, 'live', { publishedOnly: true })).toEqual(
      expectedRef(T.published, 'published', 'Title published', LIVE, { durationSec: 61.6, streams: 12, genre: 'jazz', trackStatus: 'published' }),
    );
    expect(await reads.trackRef(T.removed, 'live', { publishedOnly: false })).toMatchObject({ trackId: T.removed, trackStatus: 'removed', genre: 'blues' });
    expect(await reads.trackRef(T.removed, 'live', { publishedOnly: true })).toBeNull();
    // The sandbox's track is not of the live environment, nor the live one of the sandbox.
    expect(await reads.trackRef(T.sandbox, 'live', { publishedOnly: false })).toBeNull();
    expect(await reads.trackRef(T.published, 'test', { publishedOnly: false })).toBeNull();
    expect(await reads.trackRef(T.sandbox, 'test', { publishedOnly: true })).toMatchObject({ trackId: T.sandbox, artistName: SANDBOX.name });
    // An id that is no uuid names no track (rather than failing the statement).
    expect(await reads.trackRef('not-a-uuid', 'live', { publishedOnly: false })).toBeNull();
  });

  it('reads tracks and releases by id, of either environment', async () => {
    const rows = await reads.trackRefsByIds([T.unowned, T.sandbox, randomUUID()]);
    expect(rows.map((row) => row.trackId).sort()).toEqual([T.unowned, T.sandbox].sort());
    expect(rows.find((row) => row.trackId === T.unowned)).toMatchObject({ artistId: UNOWNED.id, artistSlug: 'unowned', durationSec: 200 });
    expect(await reads.trackRefsByIds([])).toEqual([]);
    const album = {
      albumId: ALBUM.id,
      albumSlug: ALBUM.slug,
      albumTitle: ALBUM.title,
      albumType: 'album',
      releaseYear: 2021,
      genre: 'jazz',
      artistName: LIVE.name,
      artistId: LIVE.id,
      artistSlug: LIVE.slug,
    };
    expect(await reads.albumRef(ALBUM.id, 'live')).toEqual(album);
    expect(await reads.albumRef(ALBUM.id, 'test')).toBeNull();
    expect(await reads.albumRef('not-a-uuid', 'live')).toBeNull();
    expect(await reads.albumRefsByIds([ALBUM.id, randomUUID()])).toEqual([album]);
    expect(await reads.albumRefsByIds([])).toEqual([]);
  });

  it('joins the tracks as a derived table: the group’s order and page, the track’s and artist’s ids apart', async () => {
    const refs = reads.trackRefs();
    const page = (offset: number) =>
      db
        .select({ ...trackRefFields(refs), position: playlistTracks.position })
        .from(playlistTracks)
        .innerJoin(refs, eq(refs.trackId, playlistTracks.trackId))
        .where(eq(playlistTracks.playlistId, PLAYLIST.id))
        .orderBy(desc(playlistTracks.position))
        .limit(2)
        .offset(offset);
    expect(await page(0)).toEqual([
      {
        ...expectedRef(T.published, 'published', 'Title published', LIVE, { durationSec: 61.6, streams: 12, genre: 'jazz', trackStatus: 'published' }),
        position: 2,
      },
      { ...expectedRef(T.removed, 'removed', 'Title removed', LIVE, { durationSec: 61.6, streams: 0, genre: 'blues', trackStatus: 'removed' }), position: 1 },
    ]);
    expect(await page(2)).toEqual([
      {
        ...expectedRef(T.unowned, 'unowned', 'Title unowned', UNOWNED, { durationSec: 200, streams: 0, genre: 'rock', trackStatus: 'published' }),
        position: 0,
      },
    ]);
    // One statement: the derived table reads what the caller's transaction sees.
    await db
      .transaction(async (tx) => {
        await tx.update(tracks).set({ title: 'Renamed in the transaction' }).where(eq(tracks.id, T.unowned));
        const [row] = await tx
          .select(trackRefFields(refs))
          .from(playlistTracks)
          .innerJoin(refs, eq(refs.trackId, playlistTracks.trackId))
          .where(eq(playlistTracks.position, 0));
        expect(row.trackTitle).toBe('Renamed in the transaction');
        tx.rollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof Error && error.message === 'Rollback')) throw error;
      });
    expect((await reads.trackRef(T.unowned, 'live', { publishedOnly: false }))?.trackTitle).toBe('Title unowned');
  });

  it('joins the artists as a derived table, and names the artists a user owns in an environment', async () => {
    const capsule = { id: randomUUID(), artistId: UNOWNED.id, title: 'Secret', teaser: 'soon' };
    await db.insert(capsules).values(capsule);
    const artist = reads.artistRefs();
    const rows = await db
      .select({ id: capsules.id, slug: artist.artistSlug, name: artist.artistName, owner: artist.artistOwnerUserId })
      .from(capsules)
      .innerJoin(artist, eq(artist.artistId, capsules.artistId))
      .orderBy(asc(capsules.id));
    expect(rows).toEqual([{ id: capsule.id, slug: 'unowned', name: 'Unowned', owner: null }]);
    expect(await reads.artistIdsOwnedBy(USER.id, 'live')).toEqual([LIVE.id]);
    expect(await reads.artistIdsOwnedBy(USER.id, 'test')).toEqual([SANDBOX.id]);
    expect(await reads.artistIdsOwnedBy(OTHER.id, 'live')).toEqual([]);
  });
});

describe('CatalogListeningHistory', () => {
  it('pages a listener’s plays, most recent first, with their tracks, and counts them', async () => {
    const history = new CatalogListeningHistory(db);
    const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 12, minute));
    await db.insert(playEvents).values([
      { trackId: T.published, userId: USER.id, source: 'on_demand', playedAt: at(1), secondsPlayed: 30 },
      { trackId: T.unowned, userId: USER.id, source: 'radio', playedAt: at(3) },
      { trackId: T.removed, userId: USER.id, source: 'on_demand', playedAt: at(2), secondsPlayed: 61 },
      { trackId: T.published, userId: OTHER.id, source: 'on_demand', playedAt: at(4) },
      { trackId: T.published, userId: null, source: 'radio', playedAt: at(5) },
    ]);
    const first = await history.history(USER.id, 2, 0);
    expect(first.total).toBe(3);
    expect(first.rows).toEqual([
      {
        // Each recorded play counts a stream (the database's trigger on play_events).
        ...expectedRef(T.unowned, 'unowned', 'Title unowned', UNOWNED, { durationSec: 200, streams: 1, genre: 'rock', trackStatus: 'published' }),
        playedAt: at(3),
        source: 'radio',
        secondsPlayed: null,
      },
      {
        ...expectedRef(T.removed, 'removed', 'Title removed', LIVE, { durationSec: 61.6, streams: 1, genre: 'blues', trackStatus: 'removed' }),
        playedAt: at(2),
        source: 'on_demand',
        secondsPlayed: 61,
      },
    ]);
    const second = await history.history(USER.id, 2, 2);
    expect(second).toMatchObject({ total: 3, rows: [{ trackId: T.published, playedAt: at(1), secondsPlayed: 30 }] });
    expect(await history.countPlays(USER.id)).toBe(3);
    expect(await history.countPlays(OTHER.id)).toBe(1);
    expect(await history.history(randomUUID(), 10, 0)).toEqual({ rows: [], total: 0 });
    expect(await db.select({ n: sql<number>`count(*)::int` }).from(playEvents)).toEqual([{ n: 5 }]);
  });
});
