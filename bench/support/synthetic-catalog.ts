/** The synthetic catalog of bench/catalog-search.ts: its rows and the query mix asked of it. */
import { sql } from 'drizzle-orm';
import type { Db } from '../../src/infra/db/client.js';
import { demoLyricsCorpus } from '../../src/demo/content/index.js';

const TRACKS_PER_ARTIST = 50;
const RELEASES_PER_ARTIST = 5;
const CHUNK = 5_000;

export const GENRES = [
  ['synthwave', 'outrun'],
  ['lo-fi', 'chill hip hop'],
  ['folk', 'indie folk'],
  ['jazz', 'soul jazz'],
  ['ambient', 'drone'],
  ['rock', 'garage rock'],
  ['pop', 'dream pop'],
  ['techno', 'minimal'],
  ['house', 'deep house'],
  ['hip hop', 'boom bap'],
  ['classical', 'chamber'],
  ['blues', 'delta blues'],
  ['country', 'americana'],
  ['reggae', 'dub'],
  ['metal', 'doom'],
  ['punk', 'post-punk'],
  ['soul', 'neo soul'],
  ['funk', 'p-funk'],
  ['latin', 'bolero'],
  ['electronic', 'idm'],
  ['r&b', 'contemporary'],
  ['disco', 'nu-disco'],
  ['trance', 'progressive'],
  ['world', 'afrobeat'],
];

/** mulberry32: a small seeded generator, so every run builds the same catalog and asks the same queries. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = random(20260101);
const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)];
const capitalise = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** The corpus as running text: drawing a token from it draws words with their natural frequencies. */
const TOKENS = demoLyricsCorpus.flatMap((song) => song.sections.flatMap((s) => s.lines.flatMap((line) => line.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])));
const BY_FREQUENCY = (() => {
  const counts = new Map<string, number>();
  for (const token of TOKENS) counts.set(token, (counts.get(token) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([word]) => word);
})();

function words(min: number, max: number): string {
  const n = min + Math.floor(rand() * (max - min + 1));
  return Array.from({ length: n }, () => capitalise(pick(TOKENS))).join(' ');
}

export interface Catalog {
  artistNames: string[];
  titles: string[];
}

/** Writes artists, releases and tracks in chunks of CHUNK rows, each chunk one statement. */
export async function seedCatalog(db: Db, TRACKS: number): Promise<Catalog> {
  const artistCount = Math.ceil(TRACKS / TRACKS_PER_ARTIST);
  const insertJson = async (target: string, columns: string, rows: unknown[]) => {
    for (let i = 0; i < rows.length; i += CHUNK) {
      const json = JSON.stringify(rows.slice(i, i + CHUNK));
      await db.execute(sql.raw(`insert into ${target} select * from json_to_recordset('${json.replaceAll("'", "''")}'::json) as r(${columns})`));
    }
  };
  const artists = Array.from({ length: artistCount }, (_, i) => {
    const [genre] = GENRES[i % GENRES.length];
    return { id: crypto.randomUUID(), slug: `bench-artist-${i}`, name: `${rand() < 0.2 ? 'The ' : ''}${words(1, 2)}`, genre };
  });
  await insertJson('artists (id, slug, name, genre)', 'id uuid, slug text, name text, genre text', artists);

  const albums = artists.flatMap((artist, a) =>
    Array.from({ length: RELEASES_PER_ARTIST }, (_, r) => ({
      id: crypto.randomUUID(),
      slug: `bench-release-${a}-${r}`,
      artist_id: artist.id,
      title: words(1, 3),
      type: r < 3 ? 'album' : 'ep',
      release_year: 2000 + Math.floor(rand() * 26),
      genre: artist.genre,
    })),
  );
  await insertJson(
    'albums (id, slug, artist_id, title, type, release_year, genre)',
    'id uuid, slug text, artist_id uuid, title text, type store_product_type, release_year int, genre text',
    albums,
  );

  const titles: string[] = [];
  const tracks = Array.from({ length: TRACKS }, (_, i) => {
    const a = Math.floor(i / TRACKS_PER_ARTIST);
    const album = albums[a * RELEASES_PER_ARTIST + Math.floor((i % TRACKS_PER_ARTIST) / (TRACKS_PER_ARTIST / RELEASES_PER_ARTIST))];
    const [genre, subgenre] = GENRES[(a + (rand() < 0.2 ? 1 : 0)) % GENRES.length];
    const title = words(1, 4);
    titles.push(title);
    return {
      slug: `bench-track-${i}`,
      title,
      artist_id: artists[a].id,
      album_id: album.id,
      track_number: (i % (TRACKS_PER_ARTIST / RELEASES_PER_ARTIST)) + 1,
      genre,
      subgenre,
      duration_sec: 90 + Math.floor(rand() * 300),
      streams: Math.floor(10 ** (rand() * 6)),
      release_year: album.release_year,
    };
  });
  await insertJson(
    'tracks (slug, title, artist_id, album_id, track_number, genre, subgenre, duration_sec, streams, release_year)',
    'slug text, title text, artist_id uuid, album_id uuid, track_number int, genre text, subgenre text, duration_sec real, streams bigint, release_year int',
    tracks,
  );
  await db.execute(sql`analyze`);
  return { artistNames: artists.map((a) => a.name), titles };
}

/** The query mix: each category names how it picks its next query. */
export function queryMix(catalog: Catalog): Record<string, () => string> {
  const common = BY_FREQUENCY.slice(0, 10);
  const mid = BY_FREQUENCY.slice(30, 300);
  const rare = BY_FREQUENCY.slice(800);
  const long = mid.filter((w) => w.length >= 5);
  // Chosen once: filtering 100,000 titles at every search would put the bench's own garbage beside the searches.
  const twoWordTitles = catalog.titles.filter((t) => t.includes(' ')).slice(0, 5000);
  return {
    'common word (the, night...)': () => `q=${encodeURIComponent(pick(common))}`,
    'mid-frequency word': () => `q=${encodeURIComponent(pick(mid))}`,
    'rare word': () => `q=${encodeURIComponent(pick(rare))}`,
    'two words of a title': () => {
      const title = pick(twoWordTitles).split(' ');
      return `q=${encodeURIComponent(title.slice(0, 2).join(' '))}`;
    },
    'prefix (3-4 letters)': () => {
      const word = pick(long);
      return `q=${encodeURIComponent(word.slice(0, 3 + Math.floor(rand() * 2)))}`;
    },
    'artist name': () => `q=${encodeURIComponent(pick(catalog.artistNames))}`,
    genre: () => `q=${encodeURIComponent(pick(GENRES)[0])}`,
    'no match': () => `q=zzqx${Math.floor(rand() * 1e6)}`,
    'common word, page 5': () => `q=${encodeURIComponent(pick(common))}&page=5`,
  };
}
