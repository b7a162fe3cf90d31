/**
 * GET /v1/tracks?q=: full-text search over titles, artist names, release titles and genres (src/platform/catalog/
 * track-search.ts). Words and prefixes, case and accents, ranking tiers, pagination without overlap, renamed
 * artists and releases, and the broad search (more than MAX_SEARCH_RESULTS matches) served tier by tier.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { albums, artists, tracks } from '../../src/infra/db/schema/index.js';
import { MAX_SEARCH_RESULTS } from '../../src/platform/catalog/track-search.js';
import { stationForSuite } from '../helpers/station.js';
import { bearer, expectEnvelope, signUp, type Listener } from '../foundation/support.js';

let listener: Listener;

const HARBOUR = { id: randomUUID(), slug: 'harbour-choir', name: 'Harbour Choir' };
const RADIATOR = { id: randomUUID(), slug: 'quiet-radiator', name: 'Quiet Radiator' };
const LANTERN_EP = randomUUID();
const T = {
  paperLantern: randomUUID(), // Quiet Radiator, "Paper Lantern", on the EP "Harbour Lights"
  lanterns: randomUUID(), // Harbour Choir, "Lanterns on the Water"
  harbourSong: randomUUID(), // Harbour Choir, "Harbour Song" (title and artist both say harbour)
  riverCall: randomUUID(), // Harbour Choir, "River Call" (harbour only in the artist's name)
  rio: randomUUID(), // Quiet Radiator, "Cartas al Río"
  dontStop: randomUUID(), // Quiet Radiator, "Don't Stop"
  removed: randomUUID(), // Quiet Radiator, "Lantern Removed", taken down
};

const get = (url: string) => station.http.inject({ method: 'GET', url, headers: bearer(listener) });
const ids = async (url: string): Promise<string[]> => {
  const response = await get(url);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.map((t: { id: string }) => t.id);
};

const station = stationForSuite();
beforeAll(async () => {
  listener = await signUp(station);
  const { db } = station.database;
  await db.insert(artists).values([
    { ...HARBOUR, genre: 'folk' },
    { ...RADIATOR, genre: 'lo-fi' },
  ]);
  await db
    .insert(albums)
    .values({ id: LANTERN_EP, slug: 'harbour-lights-ep', title: 'Harbour Lights', artistId: RADIATOR.id, type: 'ep', genre: 'lo-fi', releaseYear: 2024 });
  const track = (id: string, title: string, artistId: string, streams: number, extra: Partial<typeof tracks.$inferInsert> = {}) => ({
    id,
    slug: `t-${id.slice(0, 8)}`,
    title,
    artistId,
    genre: artistId === HARBOUR.id ? 'folk' : 'lo-fi',
    durationSec: 120,
    streams,
    ...extra,
  });
  await db
    .insert(tracks)
    .values([
      track(T.paperLantern, 'Paper Lantern', RADIATOR.id, 50, { albumId: LANTERN_EP, trackNumber: 1 }),
      track(T.lanterns, 'Lanterns on the Water', HARBOUR.id, 900),
      track(T.harbourSong, 'Harbour Song', HARBOUR.id, 10),
      track(T.riverCall, 'River Call', HARBOUR.id, 5_000),
      track(T.rio, 'Cartas al Río', RADIATOR.id, 7),
      track(T.dontStop, "Don't Stop", RADIATOR.id, 3),
      track(T.removed, 'Lantern Removed', RADIATOR.id, 10_000, { status: 'removed' }),
    ]);
});

describe('catalog search', () => {
  it('finds tracks by a word of the title, case-insensitively, and never a removed one', async () => {
    expect(await ids('/v1/tracks?q=PAPER')).toEqual([T.paperLantern]);
    expect(await ids('/v1/tracks?q=water')).toEqual([T.lanterns]);
    expect(await ids('/v1/tracks?search=water')).toEqual([T.lanterns]);
  });

  it("finds tracks by the artist's name and by the release title, and requires every word", async () => {
    expect((await ids('/v1/tracks?q=quiet%20radiator')).sort()).toEqual([T.paperLantern, T.rio, T.dontStop].sort());
    expect(await ids('/v1/tracks?q=radiator%20paper')).toEqual([T.paperLantern]);
    expect(await ids('/v1/tracks?q=radiator%20water')).toEqual([]);
    // "Harbour Lights" is the EP Paper Lantern is on.
    expect(await ids('/v1/tracks?q=lights')).toEqual([T.paperLantern]);
  });

  it('matches the last word also as the start of a word from two characters on (it is being typed), the others whole', async () => {
    expect((await ids('/v1/tracks?q=lant')).sort()).toEqual([T.paperLantern, T.lanterns].sort());
    expect(await ids('/v1/tracks?q=paper%20radi')).toEqual([T.paperLantern]);
    expect(await ids('/v1/tracks?q=pap%20radiator')).toEqual([]);
    expect(await ids('/v1/tracks?q=l')).toEqual([]);
  });

  it('ignores accents and punctuation, and finds nothing for a query without letters or digits', async () => {
    expect(await ids('/v1/tracks?q=rio')).toEqual([T.rio]);
    expect(await ids(`/v1/tracks?q=${encodeURIComponent('RÍO')}`)).toEqual([T.rio]);
    expect(await ids(`/v1/tracks?q=${encodeURIComponent("don't")}`)).toEqual([T.dontStop]);
    expect(await ids(`/v1/tracks?q=${encodeURIComponent('stop!')}`)).toEqual([T.dontStop]);
    for (const q of ['%', '_', '&|!', "''", ':*']) {
      expect((await get(`/v1/tracks?q=${encodeURIComponent(q)}`)).json(), q).toMatchObject({ data: [], total: 0 });
    }
  });

  it('ranks whole words of the title first, then of the names, then prefixes and genres; most streamed first within each', async () => {
    // "harbour": the title Harbour Song (tier 3); then the artist Harbour Choir and the EP Harbour Lights (tier 2), by streams.
    expect(await ids('/v1/tracks?q=harbour')).toEqual([T.harbourSong, T.riverCall, T.lanterns, T.paperLantern]);
    // "lantern": the whole word in Paper Lantern's title beats the prefix of "Lanterns", though Lanterns streams more.
    expect(await ids('/v1/tracks?q=lantern')).toEqual([T.paperLantern, T.lanterns]);
    // A genre word ranks last: every folk track, most streamed first.
    expect(await ids('/v1/tracks?q=folk')).toEqual([T.riverCall, T.lanterns, T.harbourSong]);
  });

  it('pages through the results with totals and without overlap, and combines with the other filters', async () => {
    const pages = [];
    for (let page = 1; page <= 3; page++) {
      const body = (await get(`/v1/tracks?q=harbour&limit=2&page=${page}`)).json();
      expect(body).toMatchObject({ total: 4, page, limit: 2 });
      pages.push(...body.data.map((t: { id: string }) => t.id));
    }
    expect(pages).toEqual([T.harbourSong, T.riverCall, T.lanterns, T.paperLantern]);
    expect(await ids(`/v1/tracks?q=harbour&artist=${RADIATOR.slug}`)).toEqual([T.paperLantern]);
    expect(await ids(`/v1/tracks?q=harbour&artist=${HARBOUR.id}&genre=FOLK`)).toEqual([T.harbourSong, T.riverCall, T.lanterns]);
    expect((await get('/v1/tracks?q=harbour&page=9')).json()).toMatchObject({ data: [], total: 4 });
  });

  it('follows a renamed artist or release', async () => {
    const { db } = station.database;
    await db.update(artists).set({ name: 'Loud Radiator' }).where(eq(artists.id, RADIATOR.id));
    await db.update(albums).set({ title: 'Paper Moons' }).where(eq(albums.id, LANTERN_EP));
    try {
      expect(await ids('/v1/tracks?q=quiet')).toEqual([]);
      expect((await ids('/v1/tracks?q=loud')).sort()).toEqual([T.paperLantern, T.rio, T.dontStop].sort());
      expect(await ids('/v1/tracks?q=moons')).toEqual([T.paperLantern]);
      expect(await ids('/v1/tracks?q=lights')).toEqual([]);
    } finally {
      await db.update(artists).set({ name: RADIATOR.name }).where(eq(artists.id, RADIATOR.id));
      await db.update(albums).set({ title: 'Harbour Lights' }).where(eq(albums.id, LANTERN_EP));
    }
    expect(await ids('/v1/tracks?q=lights')).toEqual([T.paperLantern]);
  });

  it('refuses an over-long query with 400', async () => {
    expectEnvelope(await get(`/v1/tracks?q=${'a'.repeat(201)}`), 400, 'PLATFORM_VALIDATION_FAILED');
  });
});

describe('a broad search (more matches than it yields)', () => {
  const extra = MAX_SEARCH_RESULTS + 50;
  const TITLE_HIT = randomUUID();
  const NAME_HIT = randomUUID();
  const CHORDS = { id: randomUUID(), slug: 'zither-chords', name: 'Zither Chords' };

  beforeAll(async () => {
    const { db } = station.database;
    await db.insert(artists).values({ ...CHORDS, genre: 'zither' });
    // Many tracks of the genre "zither" (tier 1), one with it in the title (tier 3), one by an artist named for it (tier 2).
    await db.insert(tracks).values([
      ...Array.from({ length: extra }, (_, i) => ({
        slug: `zither-${i}`,
        title: `Plucked ${i}`,
        artistId: HARBOUR.id,
        genre: 'zither',
        durationSec: 60,
        streams: 100 + i,
      })),
      { id: TITLE_HIT, slug: 'zither-title', title: 'Zither Dawn', artistId: HARBOUR.id, genre: 'folk', durationSec: 60, streams: 1 },
      { id: NAME_HIT, slug: 'zither-name', title: 'Morning', artistId: CHORDS.id, genre: 'folk', durationSec: 60, streams: 2 },
    ]);
  });

  it('says it yields MAX_SEARCH_RESULTS, ranks them by tier then streams, and pages through them without overlap', async () => {
    const first = (await get('/v1/tracks?q=zither&limit=5')).json();
    expect(first.total).toBe(MAX_SEARCH_RESULTS);
    const top = first.data.map((t: { id: string; streams: number }) => t.id);
    expect(top.slice(0, 2)).toEqual([TITLE_HIT, NAME_HIT]);
    expect(first.data.slice(2).map((t: { streams: number }) => t.streams)).toEqual([100 + extra - 1, 100 + extra - 2, 100 + extra - 3]);

    const seen = new Set<string>();
    for (const page of [1, 2, 3]) {
      for (const id of await ids(`/v1/tracks?q=zither&limit=100&page=${page}`)) seen.add(id);
    }
    expect(seen.size).toBe(300);
    const last = (await get(`/v1/tracks?q=zither&limit=100&page=${MAX_SEARCH_RESULTS / 100}`)).json();
    expect(last.data).toHaveLength(100);
    expect(last.data.at(-1).streams).toBe(100 + extra - (MAX_SEARCH_RESULTS - 2));
    expect((await get(`/v1/tracks?q=zither&limit=100&page=${MAX_SEARCH_RESULTS / 100 + 1}`)).json()).toMatchObject({ data: [], total: MAX_SEARCH_RESULTS });
  });

  it('narrowed by another filter below the limit, counts exactly again', async () => {
    expect((await get(`/v1/tracks?q=zither&artist=${CHORDS.slug}`)).json()).toMatchObject({ total: 1, data: [{ id: NAME_HIT }] });
  });
});

describe('a broad search whose common tier lies outside the most streamed tracks', () => {
  const FILLERS = 2_100; // more than a first walk reads (WALK_ROWS), all streamed more than the matches but HIGH
  const MATCHES = MAX_SEARCH_RESULTS + 20;
  const HIGH = 5; // matches streamed more than every filler: the walk finds them, the GIN index the rest
  const TITLE_HIT = randomUUID();

  beforeAll(async () => {
    const { db } = station.database;
    await db.insert(tracks).values([
      ...Array.from({ length: FILLERS }, (_, i) => ({
        slug: `filler-${i}`,
        title: `Filler ${i}`,
        artistId: HARBOUR.id,
        genre: 'folk',
        durationSec: 60,
        streams: 1_000_000 + i,
      })),
      ...Array.from({ length: MATCHES }, (_, i) => ({
        slug: `quokka-${i}`,
        title: `Hop ${i}`,
        artistId: HARBOUR.id,
        genre: 'quokka',
        durationSec: 60,
        streams: i < HIGH ? 5_000_000 + i : 1_000 + i,
      })),
      { id: TITLE_HIT, slug: 'quokka-title', title: 'Quokka Smile', artistId: HARBOUR.id, genre: 'folk', durationSec: 60, streams: 3 },
    ]);
  });

  it('takes what a short walk found, then the rest of the tier from the index, without gap or overlap', async () => {
    // Twice: the first search learns that the walk falls short, the second reads the index at once.
    for (let round = 0; round < 2; round++) {
      const first = (await get('/v1/tracks?q=quokka&limit=20')).json();
      expect(first.total).toBe(MAX_SEARCH_RESULTS);
      const streams = first.data.map((t: { streams: number }) => t.streams);
      expect(first.data[0].id).toBe(TITLE_HIT);
      expect(streams.slice(1)).toEqual([
        ...Array.from({ length: HIGH }, (_, i) => 5_000_000 + HIGH - 1 - i),
        ...Array.from({ length: 20 - 1 - HIGH }, (_, i) => 1_000 + MATCHES - 1 - i),
      ]);
      const second = (await get('/v1/tracks?q=quokka&limit=20&page=2')).json();
      expect(second.data.map((t: { streams: number }) => t.streams)).toEqual(Array.from({ length: 20 }, (_, i) => 1_000 + MATCHES - 1 - (20 - 1 - HIGH) - i));
    }
  });
});
