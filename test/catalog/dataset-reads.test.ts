/**
 * The catalog's read port for module B (src/platform/catalog/dataset-reads.ts) on the real database: the live
 * catalog's rows the eligibility rules judge, the rows the validation checks, stored features, long id lists
 * read in chunks, and every read made in the handle it is given, so that a snapshot reads the catalog in the
 * transaction that writes it. Runs on PGlite, or PostgreSQL when DATABASE_URL is set.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AudioFeatures } from '../../src/engine/types.js';
import type { Database, Db } from '../../src/infra/db/client.js';
import { artists, lyrics, songwriters, trackCredits, trackFeatures, tracks } from '../../src/infra/db/schema/index.js';
import { CatalogDatasetReads } from '../../src/platform/catalog/dataset-reads.js';
import { CatalogTrackReads } from '../../src/platform/catalog/track-reads.js';
import { DatasetRepository } from '../../src/station/dataset/repository.js';
import { openSuiteDatabase, type SuiteDatabase } from '../helpers/station.js';

let suiteDb: SuiteDatabase | undefined;
let database: Database;
let db: Db;
let reads: CatalogDatasetReads;

const OWN = { id: randomUUID(), slug: 'own-band', name: 'Own Band', genre: 'jazz', platformOwned: true };
const THIRD = { id: randomUUID(), slug: 'third-party', name: 'Third Party', genre: 'jazz' };
// The sandbox's copy of the platform's band: environment 'test', never platform-owned.
const SANDBOX = { id: randomUUID(), slug: 'own-band', name: 'Own Band (sandbox)', genre: 'jazz', environment: 'test' as const };
const WRITER = { id: randomUUID(), slug: 'own-writer', name: 'Own Writer', platformOwned: true };
const GUEST = { id: randomUUID(), slug: 'guest-writer', name: 'Guest Writer' };

/** Enough tracks of the platform's band that a list of all their ids spans more than one chunk of 500. */
const MANY = 620;
const manyIds = Array.from({ length: MANY }, () => randomUUID());
const T = {
  master: randomUUID(), // with a master, features and two credits
  bare: randomUUID(), // no master, no features, no credits
  third: randomUUID(), // by the third party, with features
  sandbox: randomUUID(), // the sandbox's copy
};
const L = { credited: randomUUID(), uncredited: randomUUID(), loose: randomUUID(), guest: randomUUID(), third: randomUUID(), sandbox: randomUUID() };

const features = (i: number): AudioFeatures => ({
  durationSec: 60,
  tempoBpm: 80 + i,
  tempoConfidence: 0.8,
  key: 'C',
  mode: 'major',
  keyConfidence: 0.7,
  chroma: Array.from({ length: 12 }, (_, k) => (k === i % 12 ? 0.5 : 0.05)),
  mfccMean: Array.from({ length: 13 }, (_, k) => i + k),
  mfccStd: Array.from({ length: 13 }, () => 1),
  loudnessDb: -14,
  energy: 0.5,
  spectralCentroidHz: 1500 + i,
  onsetRate: 2,
  beatChords: ['C', 'G'],
});

const sections = [{ name: 'verse', lines: ['a line'] }];

beforeAll(async () => {
  suiteDb = await openSuiteDatabase();
  database = suiteDb.database;
  db = database.db;
  reads = new CatalogDatasetReads(db);
  await db.insert(artists).values([OWN, THIRD, SANDBOX]);
  await db.insert(songwriters).values([WRITER, GUEST]);
  const track = (id: string, slug: string, artistId: string, extra: Partial<typeof tracks.$inferInsert> = {}) => ({
    id,
    slug,
    title: `Title ${slug}`,
    artistId,
    genre: 'jazz',
    durationSec: 60,
    ...extra,
  });
  await db.insert(tracks).values([
    track(T.master, 'master', OWN.id, {
      audioBlobKey: 'tracks/master.mp3',
      audioFormat: 'mp3',
      releaseYear: 2020,
      isrc: 'USABC2000001',
      audioBitrateKbps: 320,
    }),
    track(T.bare, 'bare', OWN.id, { status: 'removed' }),
    track(T.third, 'third', THIRD.id, { audioBlobKey: 'tracks/third.mp3', audioFormat: 'mp3' }),
    { ...track(T.sandbox, 'master', SANDBOX.id, { audioBlobKey: 'tracks/master.mp3', audioFormat: 'mp3' }), environment: 'test' as const },
    ...manyIds.map((id, i) => track(id, `many-${i}`, OWN.id, { audioBlobKey: `tracks/many-${i}.mp3`, audioFormat: 'wav' })),
  ]);
  await db
    .insert(trackFeatures)
    .values([
      { trackId: T.master, extractorVersion: 'test', features: features(1) },
      { trackId: T.third, extractorVersion: 'test', features: features(2) },
      { trackId: T.sandbox, extractorVersion: 'test', features: features(3) },
      ...manyIds.map((trackId, i) => ({ trackId, extractorVersion: 'test', features: features(10 + i) })),
    ]);
  await db.insert(trackCredits).values([
    { trackId: T.master, songwriterId: WRITER.id, role: 'lyricist' as const, splitPct: 50 },
    { trackId: T.master, songwriterId: GUEST.id, role: 'composer' as const, splitPct: 50 },
    { trackId: T.bare, songwriterId: GUEST.id, role: 'composer_lyricist' as const, splitPct: 100 },
  ]);
  const lyric = (id: string, slug: string, artistId: string, songwriterId: string, trackId: string | null) => ({
    id,
    slug,
    title: `Lyric ${slug}`,
    artistId,
    songwriterId,
    trackId,
    language: 'en',
    sections,
  });
  await db.insert(lyrics).values([
    lyric(L.credited, 'credited', OWN.id, WRITER.id, T.master), // the writer holds a lyricist credit on the track
    lyric(L.uncredited, 'uncredited', OWN.id, WRITER.id, T.bare), // the track credits someone else
    lyric(L.loose, 'loose', OWN.id, WRITER.id, null), // of no track
    lyric(L.guest, 'guest', OWN.id, GUEST.id, null), // by a songwriter who is not the platform's
    lyric(L.third, 'third', THIRD.id, GUEST.id, T.third),
    lyric(L.sandbox, 'sandbox', SANDBOX.id, WRITER.id, T.sandbox),
  ]);
}, 120_000);

afterAll(async () => {
  await suiteDb?.close();
});

describe('the catalog as module B judges it', () => {
  it('holds the live catalog only: artists by name, tracks with their features and credits counted, lyrics of live artists', async () => {
    const catalog = await reads.eligibilityCatalog();
    expect(catalog.artists).toEqual([
      { id: OWN.id, slug: OWN.slug, name: OWN.name, platformOwned: true },
      { id: THIRD.id, slug: THIRD.slug, name: THIRD.name, platformOwned: false },
    ]);
    expect(catalog.tracks).toHaveLength(MANY + 3);
    expect(catalog.tracks.map((t) => t.id)).toEqual([...catalog.tracks.map((t) => t.id)].sort());
    expect(catalog.tracks.find((t) => t.id === T.sandbox)).toBeUndefined();
    expect(catalog.tracks.find((t) => t.id === T.master)).toEqual({
      id: T.master,
      title: 'Title master',
      artistId: OWN.id,
      status: 'published',
      releaseYear: 2020,
      isrc: 'USABC2000001',
      audioBitrateKbps: 320,
      audioBlobKey: 'tracks/master.mp3',
      audioFormat: 'mp3',
      durationSec: 60,
      hasFeatures: true,
      creditCount: 2,
    });
    expect(catalog.tracks.find((t) => t.id === T.bare)).toMatchObject({ status: 'removed', audioBlobKey: null, hasFeatures: false, creditCount: 1 });
    expect(catalog.lyrics.map((l) => l.id)).toEqual([L.credited, L.uncredited, L.loose, L.guest, L.third].sort());
    expect(catalog.lyrics.find((l) => l.id === L.guest)).toEqual({
      id: L.guest,
      slug: 'guest',
      title: 'Lyric guest',
      artistId: OWN.id,
      trackId: null,
      songwriterId: GUEST.id,
      songwriterPlatformOwned: false,
    });
  });

  it('finds live artists by id, ignoring ids that are not uuids', async () => {
    const found = await reads.liveArtists([OWN.id, SANDBOX.id, 'not-a-uuid', randomUUID(), THIRD.id]);
    expect(found.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { id: OWN.id, slug: OWN.slug, name: OWN.name, platformOwned: true },
      { id: THIRD.id, slug: THIRD.slug, name: THIRD.name, platformOwned: false },
    ]);
    expect(await reads.liveArtists(['nope'])).toEqual([]);
  });
});

describe('the rows the validation checks', () => {
  it('reads tracks of the live catalog with their artist and features, in chunks of a long id list', async () => {
    const rows = await reads.tracksToValidate([...manyIds, T.master, T.bare, T.third, T.sandbox, 'junk', randomUUID()]);
    expect(rows).toHaveLength(MANY + 3);
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(T.master)).toEqual({
      id: T.master,
      title: 'Title master',
      artistId: OWN.id,
      artistPlatformOwned: true,
      audioBlobKey: 'tracks/master.mp3',
      audioFormat: 'mp3',
      hasFeatures: true,
    });
    expect(byId.get(T.bare)).toMatchObject({ audioBlobKey: null, hasFeatures: false });
    expect(byId.get(T.third)).toMatchObject({ artistPlatformOwned: false, hasFeatures: true });
    expect(byId.has(T.sandbox)).toBe(false);
    expect(byId.get(manyIds[MANY - 1])).toMatchObject({ audioFormat: 'wav', hasFeatures: true });
  });

  it('reads lyrics with their songwriter and whether the lyricist is credited on the lyric’s track', async () => {
    const rows = await reads.lyricsToValidate([L.credited, L.uncredited, L.loose, L.guest, 'junk']);
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(rows).toHaveLength(4);
    expect(byId.get(L.credited)).toEqual({
      id: L.credited,
      title: 'Lyric credited',
      artistId: OWN.id,
      artistPlatformOwned: true,
      songwriterId: WRITER.id,
      songwriterName: WRITER.name,
      songwriterPlatformOwned: true,
      trackId: T.master,
      creditedOnTrack: true,
    });
    expect(byId.get(L.uncredited)).toMatchObject({ trackId: T.bare, creditedOnTrack: false });
    expect(byId.get(L.loose)).toMatchObject({ trackId: null, creditedOnTrack: null });
    expect(byId.get(L.guest)).toMatchObject({ songwriterName: GUEST.name, songwriterPlatformOwned: false });
  });

  it('reads stored features by track id in chunks, and the third-party masters’ features of the live catalog', async () => {
    const stored = await reads.featuresOf([...manyIds, T.master, T.bare]);
    expect(stored.size).toBe(MANY + 1);
    expect(stored.get(T.master)).toEqual(features(1));
    expect(stored.get(manyIds[MANY - 1])).toEqual(features(10 + MANY - 1));
    expect(stored.has(T.bare)).toBe(false);
    expect(await reads.thirdPartyFeatures()).toEqual([{ id: T.third, title: 'Title third', features: features(2) }]);
  });
});

describe('reads in the handle they are given', () => {
  /** Runs `work` in a transaction that adds a third-party artist with a track, a lyric and features, then rolls it back. */
  async function withUncommittedRows<T>(work: (tx: Db, ids: { artist: string; track: string; lyric: string }) => Promise<T>): Promise<T> {
    const ids = { artist: randomUUID(), track: randomUUID(), lyric: randomUUID() };
    let result: T | undefined;
    const rollback = new Error('roll back');
    await expect(
      db.transaction(async (tx) => {
        await tx.insert(artists).values({ id: ids.artist, slug: 'uncommitted', name: 'Aardvark Uncommitted', genre: 'jazz' });
        await tx.insert(tracks).values({ id: ids.track, slug: 'uncommitted', title: 'Uncommitted', artistId: ids.artist, genre: 'jazz', durationSec: 60 });
        await tx.insert(trackFeatures).values({ trackId: ids.track, extractorVersion: 'test', features: features(99) });
        await tx
          .insert(lyrics)
          .values({ id: ids.lyric, slug: 'uncommitted', title: 'U', artistId: ids.artist, songwriterId: GUEST.id, language: 'en', sections });
        // A transaction handle has the database's query API (DbOrTx).
        result = await work(tx as Db, ids);
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    return result as T;
  }

  it('sees a transaction’s own uncommitted rows in every read, and the database without them once it rolled back', async () => {
    const seen = await withUncommittedRows(async (tx, ids) => ({
      catalog: await reads.eligibilityCatalog(tx),
      artists: await reads.liveArtists([ids.artist], tx),
      tracks: await reads.tracksToValidate([ids.track], tx),
      lyrics: await reads.lyricsToValidate([ids.lyric], tx),
      features: await reads.featuresOf([ids.track], tx),
      thirdParty: await reads.thirdPartyFeatures(tx),
      ids,
    }));
    expect(seen.catalog.artists[0]).toMatchObject({ id: seen.ids.artist, platformOwned: false });
    expect(seen.catalog.tracks.some((t) => t.id === seen.ids.track)).toBe(true);
    expect(seen.catalog.lyrics.some((l) => l.id === seen.ids.lyric)).toBe(true);
    expect(seen.artists).toHaveLength(1);
    expect(seen.tracks).toEqual([expect.objectContaining({ id: seen.ids.track, hasFeatures: true })]);
    expect(seen.lyrics).toEqual([expect.objectContaining({ id: seen.ids.lyric, creditedOnTrack: null })]);
    expect(seen.features.get(seen.ids.track)).toEqual(features(99));
    expect(seen.thirdParty.map((t) => t.id)).toEqual([T.third, seen.ids.track].sort());
    expect((await reads.eligibilityCatalog()).artists.some((a) => a.id === seen.ids.artist)).toBe(false);
  });

  it('is read by module B’s repository in the repository’s own handle (its transaction inside transaction())', async () => {
    const seen = await withUncommittedRows(async (tx, ids) => {
      const repo = new DatasetRepository(tx, new CatalogTrackReads(db), reads);
      return { catalog: await repo.catalog(), tracks: await repo.tracksForCheck([ids.track]), ids };
    });
    expect(seen.catalog.artists.some((a) => a.id === seen.ids.artist)).toBe(true);
    expect(seen.tracks.map((t) => t.id)).toEqual([seen.ids.track]);
  });
});
