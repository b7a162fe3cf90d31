/**
 * The catalog's read port for the store (src/platform/catalog/sales-reads.ts) on the real database: sellers by id
 * or slug and by owner in an environment, an artist's published tracks, a release's tracks in order, credits read
 * in the transaction given, and the derived tables the store joins to its own rows (filtered by the artist's
 * environment, named by track and songwriter, read in the store's transaction). Runs on PGlite, or PostgreSQL
 * when DATABASE_URL is set.
 */
import { randomUUID } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Db } from '../../src/infra/db/client.js';
import { albums, artists, songwriters, storeProducts, storeProductTracks, trackCredits, tracks, users } from '../../src/infra/db/schema/index.js';
import { CatalogSalesReads } from '../../src/platform/catalog/sales-reads.js';
import { openSuiteDatabase, type SuiteDatabase } from '../helpers/station.js';

let suiteDb: SuiteDatabase | undefined;
let database: Database;
let db: Db;
let reads: CatalogSalesReads;

const OWNER = { id: randomUUID(), email: 'sales-reads@example.com', passwordHash: 'x', displayName: 'Seller' };
const LIVE = { id: randomUUID(), slug: 'seller', name: 'Seller', genre: 'jazz', ownerUserId: OWNER.id };
const ALSO = { id: randomUUID(), slug: 'another-seller', name: 'Another Seller', genre: 'jazz', ownerUserId: OWNER.id };
const SANDBOX = { id: randomUUID(), slug: 'seller', name: 'Seller (sandbox)', genre: 'jazz', environment: 'test' as const, ownerUserId: OWNER.id };
const ALBUM = { id: randomUUID(), slug: 'the-release', artistId: LIVE.id, title: 'The Release', type: 'ep' as const, genre: 'jazz' };
const WRITER = { id: randomUUID(), slug: 'writer', name: 'Writer' };
const T = { second: randomUUID(), first: randomUUID(), removed: randomUUID(), other: randomUUID() };
const PRODUCT = { id: randomUUID(), artistId: LIVE.id, title: 'EP', type: 'ep' as const, priceCents: 500, currency: 'usd' };
const SANDBOX_PRODUCT = { id: randomUUID(), artistId: SANDBOX.id, title: 'EP (sandbox)', type: 'ep' as const, priceCents: 500, currency: 'usd' };

beforeAll(async () => {
  suiteDb = await openSuiteDatabase();
  database = suiteDb.database;
  db = database.db;
  reads = new CatalogSalesReads(db);
  await db.insert(users).values(OWNER);
  await db.insert(artists).values([LIVE, ALSO, SANDBOX]);
  await db.insert(albums).values(ALBUM);
  await db.insert(songwriters).values(WRITER);
  const track = (id: string, slug: string, artistId: string, extra: Partial<typeof tracks.$inferInsert> = {}) => ({
    id,
    slug,
    title: `Title ${slug}`,
    artistId,
    genre: 'jazz',
    durationSec: 90,
    ...extra,
  });
  await db
    .insert(tracks)
    .values([
      track(T.second, 'second', LIVE.id, { albumId: ALBUM.id, trackNumber: 2, audioBlobKey: 'tracks/second.mp3', audioBitrateKbps: 320 }),
      track(T.first, 'first', LIVE.id, { albumId: ALBUM.id, trackNumber: 1 }),
      track(T.removed, 'removed', LIVE.id, { albumId: ALBUM.id, trackNumber: 3, status: 'removed' }),
      track(T.other, 'other', ALSO.id),
    ]);
  await db.insert(trackCredits).values([
    { trackId: T.first, songwriterId: WRITER.id, role: 'composer' as const, splitPct: 60 },
    { trackId: T.first, songwriterId: WRITER.id, role: 'lyricist' as const, splitPct: 40 },
  ]);
  await db.insert(storeProducts).values([PRODUCT, SANDBOX_PRODUCT]);
  await db.insert(storeProductTracks).values([
    { productId: PRODUCT.id, trackId: T.second, position: 0 },
    { productId: PRODUCT.id, trackId: T.first, position: 1 },
  ]);
}, 120_000);

afterAll(async () => {
  await suiteDb?.close();
});

describe('CatalogSalesReads', () => {
  it('names sellers of an environment by id or slug, and those a user owns by slug', async () => {
    const seller = { id: LIVE.id, slug: 'seller', name: 'Seller', ownerUserId: OWNER.id };
    expect(await reads.artistByIdOrSlug('seller', 'live')).toEqual(seller);
    expect(await reads.artistByIdOrSlug(LIVE.id, 'live')).toEqual(seller);
    expect(await reads.artistByIdOrSlug('seller', 'test')).toMatchObject({ id: SANDBOX.id, name: 'Seller (sandbox)' });
    expect(await reads.artistByIdOrSlug(LIVE.id, 'test')).toBeNull();
    expect(await reads.artistByIdOrSlug('nobody', 'live')).toBeNull();
    expect((await reads.artistsOwnedBy(OWNER.id, 'live')).map((a) => a.slug)).toEqual(['another-seller', 'seller']);
    expect((await reads.artistsOwnedBy(OWNER.id, 'test')).map((a) => a.id)).toEqual([SANDBOX.id]);
    expect(await reads.artistsOwnedBy(randomUUID(), 'live')).toEqual([]);
  });

  it('keeps the artist’s published tracks among those named, and lists a release’s published tracks in order', async () => {
    expect((await reads.publishedTrackIdsOf(LIVE.id, [T.first, T.removed, T.other, 'not-a-uuid'])).sort()).toEqual([T.first]);
    expect(await reads.publishedTrackIdsOf(LIVE.id, ['not-a-uuid'])).toEqual([]);
    const release = { id: ALBUM.id, artistId: LIVE.id, title: 'The Release', type: 'ep', trackIds: [T.first, T.second] };
    expect(await reads.release('the-release', 'live')).toEqual(release);
    expect(await reads.release(ALBUM.id, 'live')).toEqual(release);
    expect(await reads.release('the-release', 'test')).toBeNull();
  });

  it('reads credits by track and songwriter, in the transaction given', async () => {
    expect(await reads.credits([T.first, T.second])).toEqual([
      { trackId: T.first, songwriterId: WRITER.id, splitPct: 60 },
      { trackId: T.first, songwriterId: WRITER.id, splitPct: 40 },
    ]);
    expect(await reads.credits([])).toEqual([]);
    const rollback = new Error('rolled back on purpose');
    await expect(
      db.transaction(async (tx) => {
        await tx.insert(trackCredits).values({ trackId: T.second, songwriterId: WRITER.id, role: 'producer' as const, splitPct: 100 });
        expect(await reads.credits([T.second], tx)).toEqual([{ trackId: T.second, songwriterId: WRITER.id, splitPct: 100 }]);
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    expect(await reads.credits([T.second])).toEqual([]);
  });

  it('hands out artists, tracks and songwriters as derived tables the store joins and filters', async () => {
    const artist = reads.artists();
    const products = (environment: 'live' | 'test') =>
      db
        .select({ id: storeProducts.id, artist: { id: artist.id, slug: artist.slug, name: artist.name, ownerUserId: artist.ownerUserId } })
        .from(storeProducts)
        .innerJoin(artist, eq(artist.id, storeProducts.artistId))
        .where(eq(artist.environment, environment));
    expect(await products('live')).toEqual([{ id: PRODUCT.id, artist: { id: LIVE.id, slug: 'seller', name: 'Seller', ownerUserId: OWNER.id } }]);
    expect(await products('test')).toEqual([
      { id: SANDBOX_PRODUCT.id, artist: { id: SANDBOX.id, slug: 'seller', name: 'Seller (sandbox)', ownerUserId: OWNER.id } },
    ]);

    const track = reads.tracks();
    const writer = reads.songwriters();
    // In the store's transaction, the derived table reads what that transaction sees.
    const rollback = new Error('rolled back on purpose');
    await expect(
      db.transaction(async (tx) => {
        await tx.update(tracks).set({ title: 'Renamed in the transaction' }).where(eq(tracks.id, T.first));
        const inside = await tx
          .select({ id: track.id, title: track.title })
          .from(storeProductTracks)
          .innerJoin(track, eq(track.id, storeProductTracks.trackId))
          .where(eq(storeProductTracks.productId, PRODUCT.id))
          .orderBy(asc(storeProductTracks.position));
        expect(inside).toEqual([
          { id: T.second, title: 'Title second' },
          { id: T.first, title: 'Renamed in the transaction' },
        ]);
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    const rows = await db
      .select({
        id: track.id,
        artistId: track.artistId,
        title: track.title,
        audioBlobKey: track.audioBlobKey,
        audioBitrateKbps: track.audioBitrateKbps,
        durationSec: track.durationSec,
      })
      .from(storeProductTracks)
      .innerJoin(track, eq(track.id, storeProductTracks.trackId))
      .where(eq(storeProductTracks.productId, PRODUCT.id))
      .orderBy(asc(storeProductTracks.position));
    expect(rows).toEqual([
      { id: T.second, artistId: LIVE.id, title: 'Title second', audioBlobKey: 'tracks/second.mp3', audioBitrateKbps: 320, durationSec: 90 },
      { id: T.first, artistId: LIVE.id, title: 'Title first', audioBlobKey: null, audioBitrateKbps: null, durationSec: 90 },
    ]);
    const named = await db
      .select({ trackId: trackCredits.trackId, title: track.title, writer: writer.name })
      .from(trackCredits)
      .innerJoin(track, eq(track.id, trackCredits.trackId))
      .leftJoin(writer, eq(writer.id, trackCredits.songwriterId))
      .where(eq(trackCredits.role, 'composer'));
    expect(named).toEqual([{ trackId: T.first, title: 'Title first', writer: 'Writer' }]);
  });
});
