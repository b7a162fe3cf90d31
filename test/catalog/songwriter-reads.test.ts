/**
 * The catalog's read port for the admin's songwriters register (src/platform/catalog/songwriter-reads.ts) on the
 * real database: songwriters filtered by name or IPI, by artist and by whether a credit's track is off 100%,
 * paged with their total and counted tracks, and each credit with its track and the track's split total. Runs on
 * PGlite, or PostgreSQL when DATABASE_URL is set.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Db } from '../../src/infra/db/client.js';
import { artists, songwriters, trackCredits, tracks } from '../../src/infra/db/schema/index.js';
import { CatalogSongwriterReads } from '../../src/platform/catalog/songwriter-reads.js';
import { openSuiteDatabase, type SuiteDatabase } from '../helpers/station.js';

let suiteDb: SuiteDatabase | undefined;
let database: Database;
let db: Db;
let reads: CatalogSongwriterReads;

const BAND = { id: randomUUID(), slug: 'band', name: 'Band', genre: 'jazz' };
const ADA = { id: randomUUID(), slug: 'ada', name: 'Ada Writer', ipi: '00012345678', artistId: BAND.id, publisher: 'Pub', platformOwned: true };
const BEN = { id: randomUUID(), slug: 'ben', name: 'Ben Writer' };
const T = { whole: randomUUID(), off: randomUUID() };

beforeAll(async () => {
  suiteDb = await openSuiteDatabase();
  database = suiteDb.database;
  db = database.db;
  reads = new CatalogSongwriterReads(db);
  await db.insert(artists).values(BAND);
  await db.insert(songwriters).values([ADA, BEN]);
  await db.insert(tracks).values([
    { id: T.whole, slug: 'whole', title: 'B Whole', artistId: BAND.id, genre: 'jazz', durationSec: 60, isrc: 'USABC2600001' },
    { id: T.off, slug: 'off', title: 'A Off', artistId: BAND.id, genre: 'jazz', durationSec: 60, status: 'removed' },
  ]);
  await db.insert(trackCredits).values([
    { trackId: T.whole, songwriterId: ADA.id, role: 'composer' as const, splitPct: 70 },
    { trackId: T.whole, songwriterId: BEN.id, role: 'lyricist' as const, splitPct: 30 },
  ]);
  // A track credited before the database kept splits at 100%: written with the check off, as such rows were.
  await db.transaction(async (tx) => {
    await tx.execute(sql`alter table track_credits disable trigger track_credits_splits_total`);
    await tx.insert(trackCredits).values({ trackId: T.off, songwriterId: ADA.id, role: 'composer_lyricist' as const, splitPct: 80 });
    await tx.execute(sql`alter table track_credits enable trigger track_credits_splits_total`);
  });
}, 120_000);

afterAll(async () => {
  await suiteDb?.close();
});

describe('CatalogSongwriterReads', () => {
  const page = { limit: 10, offset: 0 };

  it('lists songwriters with their artist and counted tracks, filtered and paged', async () => {
    const all = await reads.list({}, page);
    expect(all.total).toBe(2);
    expect(all.rows).toEqual([
      {
        id: ADA.id,
        slug: 'ada',
        name: 'Ada Writer',
        ipi: ADA.ipi,
        publisher: 'Pub',
        pro: null,
        platformOwned: true,
        artistId: BAND.id,
        artistSlug: 'band',
        artistName: 'Band',
        trackCount: 2,
      },
      {
        id: BEN.id,
        slug: 'ben',
        name: 'Ben Writer',
        ipi: null,
        publisher: null,
        pro: null,
        platformOwned: false,
        artistId: null,
        artistSlug: null,
        artistName: null,
        trackCount: 1,
      },
    ]);
    expect(await reads.list({}, { limit: 1, offset: 1 })).toMatchObject({ total: 2, rows: [{ id: BEN.id }] });
    expect((await reads.list({ search: 'ben' }, page)).rows.map((r) => r.id)).toEqual([BEN.id]);
    expect((await reads.list({ search: ADA.ipi }, page)).rows.map((r) => r.id)).toEqual([ADA.id]);
    expect((await reads.list({ artist: 'band' }, page)).rows.map((r) => r.id)).toEqual([ADA.id]);
    expect((await reads.list({ artist: BAND.id }, page)).total).toBe(1);
    expect((await reads.list({ invalidSplits: true }, page)).rows.map((r) => r.id)).toEqual([ADA.id]);
    expect((await reads.list({ invalidSplits: false }, page)).rows.map((r) => r.id)).toEqual([BEN.id]);
  });

  it('reads each credit with its track and the track’s split total, by title', async () => {
    expect(await reads.credits([ADA.id])).toEqual([
      { songwriterId: ADA.id, trackId: T.off, title: 'A Off', isrc: null, status: 'removed', role: 'composer_lyricist', splitPct: 80, trackTotalPct: 80 },
      {
        songwriterId: ADA.id,
        trackId: T.whole,
        title: 'B Whole',
        isrc: 'USABC2600001',
        status: 'published',
        role: 'composer',
        splitPct: 70,
        trackTotalPct: 100,
      },
    ]);
    expect(await reads.credits([])).toEqual([]);
  });
});
