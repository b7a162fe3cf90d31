/**
 * The search's word statistics (src/platform/catalog/search-statistics.ts) and what TrackSearch does with them
 * on a database that runs two statements at once: the first search of a text the statistics call broad starts
 * the broad path beside the first statement, and answers exactly what the two in turn would have answered, also
 * when the statistics are stale and the text is not broad after all.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Db } from '../../src/infra/db/client.js';
import { artists, tracks } from '../../src/infra/db/schema/index.js';
import { SearchStatistics, searchWords } from '../../src/platform/catalog/search-statistics.js';
import { MAX_SEARCH_RESULTS, TrackSearch } from '../../src/platform/catalog/track-search.js';
import { createTestDatabase, type TestDatabase } from '../helpers/station.js';

let testDb: TestDatabase;
let database: Database;

const OCELOT_BAND = { id: randomUUID(), slug: 'ocelot-band', name: 'Ocelot Band' };
const PLAIN = { id: randomUUID(), slug: 'plain-artist', name: 'Plain Artist' };
const TITLED = 1_200; // "Ocelot n": broad on their own
const NAMED = 300; // by Ocelot Band, titled otherwise
const FILLERS = 1_500;

/** The statements the search runs (the statistics' read aside), and the most that ran at once. */
function countingDb(db: Db) {
  const seen = { statements: 0, inFlight: 0, mostAtOnce: 0 };
  const execute = async (query: SQL) => {
    seen.statements++;
    seen.mostAtOnce = Math.max(seen.mostAtOnce, ++seen.inFlight);
    try {
      return await db.execute(query);
    } finally {
      seen.inFlight--;
    }
  };
  const wrapped = new Proxy(db, { get: (target, property, receiver) => (property === 'execute' ? execute : Reflect.get(target, property, receiver)) });
  return { db: wrapped as Db, seen };
}

const LIVE_PUBLISHED = [sql`tracks.environment = 'live'`, sql`tracks.status = 'published'`];
const request = (text: string, offset = 0) => ({ text, where: LIVE_PUBLISHED, limit: 20, offset, key: text, wholeCatalog: true });

/** A search that may hedge, with statistics read now (as a running instance would have them). */
async function hedgingSearch() {
  const counted = countingDb(database.db);
  const search = new TrackSearch(counted.db, { concurrentStatements: true });
  const statistics = (search as unknown as { statistics: SearchStatistics }).statistics;
  await statistics.refresh();
  counted.seen.statements = counted.seen.mostAtOnce = 0;
  return { search, seen: counted.seen };
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  database = await testDb.open();
  await database.migrate();
  const { db } = database;
  await db.insert(artists).values([
    { ...OCELOT_BAND, genre: 'jazz' },
    { ...PLAIN, genre: 'jazz' },
  ]);
  const track = (slug: string, title: string, artistId: string, streams: number) => ({ slug, title, artistId, genre: 'jazz', durationSec: 60, streams });
  await db
    .insert(tracks)
    .values([
      ...Array.from({ length: TITLED }, (_, i) => track(`ocelot-${i}`, `Ocelot ${i}`, PLAIN.id, 10 + i)),
      ...Array.from({ length: NAMED }, (_, i) => track(`named-${i}`, `Tune ${i}`, OCELOT_BAND.id, 5_000 + i)),
      ...Array.from({ length: FILLERS }, (_, i) => track(`filler-${i}`, `Filler ${i}`, PLAIN.id, i)),
    ]);
  await db.execute(sql`analyze tracks`);
});

afterAll(async () => {
  await database?.close();
  await testDb?.drop();
});

describe('search words', () => {
  it('folds case and accents and splits on anything but letters and digits, as the database does', () => {
    expect(searchWords("Cartas al Río, Don't STOP 2")).toEqual(['cartas', 'al', 'rio', 'don', 't', 'stop', '2']);
    expect(searchWords('¡¿…?!')).toEqual([]);
  });
});

describe('search statistics', () => {
  it('has no estimate until the statistics have been read, then estimates each tier from them', async () => {
    const statistics = new SearchStatistics(database.db);
    expect(statistics.estimate('ocelot')).toBeNull(); // starts a read in the background
    await statistics.refresh();
    const ocelot = statistics.estimate('ocelot')!;
    // ANALYZE read every row (fewer than its sample), so the frequencies are the table's own.
    expect(ocelot.title).toBeGreaterThan(TITLED * 0.9);
    expect(ocelot.title).toBeLessThan(TITLED * 1.1);
    expect(ocelot.names).toBeGreaterThan((TITLED + NAMED) * 0.9);
    expect(ocelot.names).toBeLessThan((TITLED + NAMED) * 1.1);
    // The last word is also a prefix: "oce" counts every lexeme it starts.
    expect(statistics.estimate('oce')!.match).toBeGreaterThan((TITLED + NAMED) * 0.9);
    // A word the statistics do not list is rarer than the rarest they do.
    expect(statistics.estimate('zebu')!.match).toBeLessThan(TITLED / 10);
    // Words are required together, taken as independent: each in half of the tracks, both in a quarter.
    const both = statistics.estimate('ocelot filler')!.match;
    expect(both).toBeGreaterThan((ocelot.match / 2) * 0.9);
    expect(both).toBeLessThan((ocelot.match / 2) * 1.1);
  });
});

describe('a search the statistics call broad, on a database that runs two statements at once', () => {
  it('runs the first statement and the broad path side by side, and pages exactly as the statements in turn do', async () => {
    const { search, seen } = await hedgingSearch();
    const sequential = new TrackSearch(database.db, { concurrentStatements: false });
    const first = await search.page(request('ocelot'));
    expect(seen).toMatchObject({ statements: 2, mostAtOnce: 2 });
    expect(first).toEqual(await sequential.page(request('ocelot')));
    expect(first.total).toBe(MAX_SEARCH_RESULTS);
    // Title hits first, the band's tracks (their name) after: the first page is the most streamed titles.
    expect(first.rows.map((row) => row.title)).toEqual(Array.from({ length: 20 }, (_, i) => `Ocelot ${TITLED - 1 - i}`));
    // Remembered as broad: later pages are one statement each.
    seen.statements = seen.mostAtOnce = 0;
    const third = await search.page(request('ocelot', 40));
    expect(seen).toMatchObject({ statements: 1, mostAtOnce: 1 });
    expect(third).toEqual(await sequential.page(request('ocelot', 40)));
  });

  it('runs one statement for a text they call narrow', async () => {
    const { search, seen } = await hedgingSearch();
    const page = await search.page(request('tune'));
    expect(seen).toMatchObject({ statements: 1, mostAtOnce: 1 });
    expect(page.total).toBe(NAMED);
  });

  it('counts exactly when stale statistics call broad a text that no longer is', async () => {
    const { search, seen } = await hedgingSearch(); // read while 1,200 titles say "ocelot"
    const takenDown = (
      await database.db
        .select({ id: tracks.id })
        .from(tracks)
        .where(sql`${tracks.slug} like 'ocelot-%'`)
        .limit(TITLED - 600)
    ).map((row) => row.id);
    await database.db
      .update(tracks)
      .set({ status: 'removed' })
      .where(and(eq(tracks.artistId, PLAIN.id), inArray(tracks.id, takenDown)));
    try {
      const page = await search.page({ ...request('ocelot'), key: 'ocelot, after the takedown' });
      expect(seen.mostAtOnce).toBe(2); // the statistics still said broad
      expect(page.total).toBe(600 + NAMED); // 900: not broad
      expect(page).toEqual(await new TrackSearch(database.db).page({ ...request('ocelot'), key: 'ocelot, sequential' }));
    } finally {
      await database.db.update(tracks).set({ status: 'published' }).where(inArray(tracks.id, takenDown));
    }
  });
});
