/**
 * Platform catalog reads over the real database: /v1/tracks (pagination, search, filters), track detail with
 * credits, /v1/artists and discographies, and on-demand streaming through signed /media links with Range.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/infra/clock/clock.js';
import { artists, lyrics, playEvents, songwriters, trackCredits, tracks } from '../../src/infra/db/schema/index.js';
import { CatalogRepository } from '../../src/platform/catalog/catalog.repository.js';
import { buildTestStation, type TestStation } from '../helpers/station.js';
import { bearer, expectEnvelope, signUp, type Listener } from '../foundation/support.js';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const clock = new ManualClock(Date.now());
let station: TestStation;
let base: string;
let listener: Listener;

const NEON = { id: randomUUID(), slug: 'neon-tidewater', name: 'Neon Tidewater' };
const QUIET = { id: randomUUID(), slug: 'quiet-radiator', name: 'Quiet Radiator' };
const AUDIO_TRACK = randomUUID();
const SILENT_TRACK = randomUUID();
const REMOVED_TRACK = randomUUID();
const PERCENT_TRACK = randomUUID();
const AUDIO = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 31 + (i >> 8)) & 0xff));
const WRITERS = { ada: randomUUID(), bo: randomUUID() };

async function seed() {
  const { db } = station.database;
  await db.insert(artists).values([
    { ...NEON, genre: 'Synthwave', verified: true, platformOwned: true, bio: 'Night drives along the harbour.', formedYear: 2019, followers: 1200 },
    { ...QUIET, genre: 'Folk', verified: false, bio: 'Songs from a cold flat.', followers: 40 },
  ]);
  const rows: (typeof tracks.$inferInsert)[] = [];
  for (let i = 1; i <= 14; i++) {
    rows.push({
      id: i === 1 ? AUDIO_TRACK : randomUUID(),
      slug: `neon-signal-${i}`,
      title: i === 1 ? 'Harbour Lights' : `Neon Signal ${String(i).padStart(2, '0')}`,
      artistId: NEON.id,
      genre: 'Synthwave',
      subgenre: 'outrun',
      mood: ['nocturnal'],
      bpm: 100 + i,
      musicalKey: 'A',
      mode: 'minor',
      durationSec: 180 + i,
      isrc: `QZNEO26${String(i).padStart(5, '0')}`,
      releaseYear: 2025,
      streams: 1000 - i * 10,
    });
  }
  rows.push({ id: PERCENT_TRACK, slug: 'one-hundred-percent', title: '100% Neon', artistId: NEON.id, genre: 'Synthwave', durationSec: 200, streams: 3 });
  for (let i = 1; i <= 10; i++) {
    rows.push({
      id: i === 1 ? SILENT_TRACK : randomUUID(),
      slug: `radiator-song-${i}`,
      title: i === 1 ? 'Paper Lantern' : `Radiator Song ${String(i).padStart(2, '0')}`,
      artistId: QUIET.id,
      genre: 'Folk',
      durationSec: 150.4,
      streams: 500 - i,
    });
  }
  rows.push({ id: REMOVED_TRACK, slug: 'withdrawn', title: 'Withdrawn Lantern', artistId: QUIET.id, genre: 'Folk', durationSec: 100, status: 'removed' });
  await db.insert(tracks).values(rows);

  const { size } = await station.blobs.put(`audio/${AUDIO_TRACK}.mp3`, AUDIO);
  await db
    .update(tracks)
    .set({ audioBlobKey: `audio/${AUDIO_TRACK}.mp3`, audioFormat: 'mp3', audioBitrateKbps: 192, audioSizeBytes: size })
    .where(eq(tracks.id, AUDIO_TRACK));

  await db.insert(songwriters).values([
    { id: WRITERS.ada, slug: 'ada-wren', name: 'Ada Wren', ipi: '00012345678', platformOwned: true, artistId: NEON.id },
    { id: WRITERS.bo, slug: 'bo-marsh', name: 'Bo Marsh' },
  ]);
  await db.insert(trackCredits).values([
    { trackId: AUDIO_TRACK, songwriterId: WRITERS.bo, role: 'producer', splitPct: 25 },
    { trackId: AUDIO_TRACK, songwriterId: WRITERS.ada, role: 'composer_lyricist', splitPct: 75 },
  ]);
  await db.insert(lyrics).values({
    slug: 'harbour-lights',
    trackId: AUDIO_TRACK,
    artistId: NEON.id,
    songwriterId: WRITERS.ada,
    title: 'Harbour Lights',
    language: 'en',
    sections: [{ name: 'verse', lines: ['lights on the water'] }],
  });
}

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  station = await buildTestStation({ PUBLIC_BASE_URL: base }, { clock, fakeEngine: true });
  await station.http.listen({ port, host: '127.0.0.1' });
  await seed();
  listener = await signUp(station);
});
afterAll(async () => {
  await station?.destroy();
});

const get = (url: string, who: { token: string } | null = listener) => station.http.inject({ method: 'GET', url, headers: who ? bearer(who) : {} });

describe('GET /v1/tracks', () => {
  it('needs a token', async () => {
    expectEnvelope(await get('/v1/tracks', null), 401, 'PLATFORM_AUTH_REQUIRED');
  });

  it('pages through the published catalog, most streamed first', async () => {
    const first = await get('/v1/tracks');
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(Object.keys(body).sort()).toEqual(['data', 'limit', 'page', 'total']);
    expect(body).toMatchObject({ total: 25, page: 1, limit: 20 });
    expect(body.data).toHaveLength(20);
    const streams = body.data.map((t: any) => t.streams);
    expect(streams).toEqual([...streams].sort((a, b) => b - a));
    expect(body.data[0]).toMatchObject({
      id: AUDIO_TRACK,
      title: 'Harbour Lights',
      artist: NEON.name,
      artist_slug: NEON.slug,
      duration: 181,
      key: 'A',
      mode: 'minor',
    });

    const seen = new Set<string>();
    for (let page = 1; page <= 3; page++) {
      const response = (await get(`/v1/tracks?page=${page}&limit=10`)).json();
      expect(response).toMatchObject({ total: 25, page, limit: 10 });
      expect(response.data).toHaveLength(page < 3 ? 10 : 5);
      for (const track of response.data) seen.add(track.id);
    }
    expect(seen.size).toBe(25);
    expect(seen.has(REMOVED_TRACK)).toBe(false);
    const beyond = (await get('/v1/tracks?page=9&limit=10')).json();
    expect(beyond).toMatchObject({ data: [], total: 25, page: 9 });
  });

  it('accepts limit=100 and rejects limit>100, limit=0 and page=0 with 400', async () => {
    expect((await get('/v1/tracks?limit=100')).json().data).toHaveLength(25);
    for (const query of ['limit=101', 'limit=0', 'page=0', 'page=-1', 'page=1.5']) {
      expectEnvelope(await get(`/v1/tracks?${query}`), 400, 'PLATFORM_VALIDATION_FAILED');
    }
  });

  it('searches titles and artist names with q or search, case-insensitively', async () => {
    const byTitle = (await get('/v1/tracks?q=lantern')).json();
    expect(byTitle.data.map((t: any) => t.id)).toEqual([SILENT_TRACK]);
    expect(byTitle.total).toBe(1);
    const byArtist = (await get('/v1/tracks?search=RADIATOR&limit=5')).json();
    expect(byArtist.total).toBe(10);
    expect(byArtist.data).toHaveLength(5);
    expect(byArtist.data.every((t: any) => t.artist === QUIET.name)).toBe(true);
    expect((await get('/v1/tracks?q=nothing-like-this')).json()).toMatchObject({ data: [], total: 0 });
  });

  it('searches words: punctuation separates them and is never a pattern, so a query of punctuation alone finds nothing', async () => {
    expect((await get(`/v1/tracks?q=${encodeURIComponent('100%')}`)).json().data.map((t: any) => t.id)).toEqual([PERCENT_TRACK]);
    expect((await get(`/v1/tracks?q=${encodeURIComponent('%')}`)).json()).toMatchObject({ data: [], total: 0 });
    expect((await get('/v1/tracks?q=_')).json().total).toBe(0);
  });

  it('filters by genre and by artist slug, and combines filters', async () => {
    expect((await get('/v1/tracks?genre=folk')).json().total).toBe(10);
    expect((await get('/v1/tracks?genre=Synthwave')).json().total).toBe(15);
    const neon = (await get(`/v1/tracks?artist=${NEON.slug}&limit=100`)).json();
    expect(neon.total).toBe(15);
    expect(neon.data.every((t: any) => t.artist_slug === NEON.slug)).toBe(true);
    expect((await get(`/v1/tracks?artist=${QUIET.slug}&q=paper`)).json().total).toBe(1);
    expect((await get(`/v1/tracks?artist=${QUIET.slug}&genre=synthwave`)).json().total).toBe(0);
    expect((await get('/v1/tracks?artist=nobody')).json().total).toBe(0);
  });

  it('rejects unknown query parameters', async () => {
    expectEnvelope(await get('/v1/tracks?sort=title'), 400, 'PLATFORM_VALIDATION_FAILED');
  });
});

describe('GET /v1/tracks/{id}', () => {
  it('answers the detail with credits, audio and lyrics flag', async () => {
    const response = await get(`/v1/tracks/${AUDIO_TRACK}`);
    expect(response.statusCode).toBe(200);
    const track = response.json();
    expect(track).toMatchObject({
      id: AUDIO_TRACK,
      slug: 'neon-signal-1',
      title: 'Harbour Lights',
      artist: NEON.name,
      genre: 'Synthwave',
      bpm: 101,
      isrc: 'QZNEO2600001',
      audio: { format: 'mp3', bitrate_kbps: 192, size_bytes: AUDIO.length },
      has_lyrics: true,
      cover_art_url: null,
      waveform_url: null,
    });
    expect(track.credits).toEqual([
      { songwriter_id: WRITERS.ada, name: 'Ada Wren', ipi: '00012345678', role: 'composer_lyricist', split_pct: 75 },
      { songwriter_id: WRITERS.bo, name: 'Bo Marsh', ipi: null, role: 'producer', split_pct: 25 },
    ]);
    expect(new Date(track.created_at).toISOString()).toBe(track.created_at);
  });

  it('answers a track without audio or credits', async () => {
    const track = (await get(`/v1/tracks/${SILENT_TRACK}`)).json();
    expect(track).toMatchObject({ id: SILENT_TRACK, audio: null, credits: [], has_lyrics: false, duration: 150 });
  });

  it('reads every field of the detail exactly as a plain select does (the detail arrives as one json value)', async () => {
    const full = randomUUID();
    await station.database.db.insert(tracks).values({
      id: full,
      slug: 'every-column',
      title: 'Every Column',
      artistId: QUIET.id,
      genre: 'Folk',
      subgenre: 'chamber',
      mood: ['wistful', 'warm "quoted"', 'a,b'],
      lifestyle: 'study',
      bpm: 87,
      musicalKey: 'F#',
      mode: 'major',
      energy: 0.73,
      durationSec: 211.37,
      isrc: 'QZQUI2600099',
      explicit: true,
      releaseYear: 2024,
      audioBlobKey: 'audio/every.mp3',
      audioFormat: 'mp3',
      audioBitrateKbps: 320,
      audioSizeBytes: 9_007_199_254,
      coverBlobKey: 'covers/every.png',
      waveformBlobKey: 'waveforms/every.json',
      streams: 4_000_000_001,
    });
    const repo = new CatalogRepository(station.database.db);
    for (const id of [full, AUDIO_TRACK, SILENT_TRACK]) {
      const { artistId, ...plain } = (await repo.findTrack(id, 'live'))!;
      expect([artistId, plain.status]).toEqual([expect.any(String), 'published']);
      const detail = await repo.findTrackDetail(id, 'live');
      expect(detail?.track).toStrictEqual(plain);
      expect(detail?.track.createdAt).toBeInstanceOf(Date);
    }
    await station.database.db.delete(tracks).where(eq(tracks.id, full));
  });

  it('answers 404 PLATFORM_NOT_FOUND for an unknown or removed id of any shape', async () => {
    expectEnvelope(await get(`/v1/tracks/${randomUUID()}`), 404, 'PLATFORM_NOT_FOUND');
    expectEnvelope(await get(`/v1/tracks/${REMOVED_TRACK}`), 404, 'PLATFORM_NOT_FOUND');
    expectEnvelope(await get('/v1/tracks/not-a-uuid'), 404, 'PLATFORM_NOT_FOUND');
    expectEnvelope(await get(`/v1/tracks/${AUDIO_TRACK}`, null), 401, 'PLATFORM_AUTH_REQUIRED');
  });
});

describe('GET /v1/artists', () => {
  it('lists artists by name with pagination', async () => {
    const all = (await get('/v1/artists')).json();
    expect(all).toMatchObject({ total: 2, page: 1, limit: 20 });
    expect(all.data.map((a: any) => a.slug)).toEqual([NEON.slug, QUIET.slug]);
    expect(all.data[0]).toEqual({ id: NEON.id, slug: NEON.slug, name: NEON.name, genre: 'Synthwave', verified: true, platform_owned: true, followers: 1200 });
    const second = (await get('/v1/artists?page=2&limit=1')).json();
    expect(second).toMatchObject({ total: 2, page: 2, limit: 1 });
    expect(second.data.map((a: any) => a.slug)).toEqual([QUIET.slug]);
    expectEnvelope(await get('/v1/artists?limit=101'), 400, 'PLATFORM_VALIDATION_FAILED');
    expectEnvelope(await get('/v1/artists', null), 401, 'PLATFORM_AUTH_REQUIRED');
  });

  it('filters by verified, genre and search', async () => {
    expect((await get('/v1/artists?verified=true')).json().data.map((a: any) => a.slug)).toEqual([NEON.slug]);
    expect((await get('/v1/artists?verified=false')).json().data.map((a: any) => a.slug)).toEqual([QUIET.slug]);
    expect((await get('/v1/artists?genre=FOLK')).json().data.map((a: any) => a.slug)).toEqual([QUIET.slug]);
    expect((await get('/v1/artists?search=tidewater')).json().data.map((a: any) => a.slug)).toEqual([NEON.slug]);
    expect((await get('/v1/artists?search=cold%20flat')).json().data.map((a: any) => a.slug)).toEqual([QUIET.slug]);
    expect((await get('/v1/artists?verified=true&genre=folk')).json()).toMatchObject({ data: [], total: 0 });
    expectEnvelope(await get('/v1/artists?verified=maybe'), 400, 'PLATFORM_VALIDATION_FAILED');
  });
});

describe('GET /v1/artists/{slug}', () => {
  it('answers the profile with its published tracks (on no release here: test/platform/artists-albums.test.ts has releases)', async () => {
    const response = await get(`/v1/artists/${QUIET.slug}`);
    expect(response.statusCode).toBe(200);
    const artist = response.json();
    expect(artist).toMatchObject({ id: QUIET.id, name: QUIET.name, bio: 'Songs from a cold flat.', formed_year: null, verified: false, discography: [] });
    expect(artist.other_tracks).toHaveLength(10);
    expect(artist.other_tracks.map((t: any) => t.id)).not.toContain(REMOVED_TRACK);
    expect(artist.other_tracks.every((t: any) => t.artist_slug === QUIET.slug)).toBe(true);
    expect((await get(`/v1/artists/${NEON.slug}`)).json().other_tracks).toHaveLength(15);
  });

  it('answers 404 for an unknown slug of any shape', async () => {
    expectEnvelope(await get('/v1/artists/no-such-artist'), 404, 'PLATFORM_NOT_FOUND');
    expectEnvelope(await get('/v1/artists/Bad_Slug'), 404, 'PLATFORM_NOT_FOUND');
  });
});

describe('GET /v1/tracks/{id}/stream and /media', () => {
  async function streamLocation(): Promise<URL> {
    const response = await fetch(`${base}/v1/tracks/${AUDIO_TRACK}/stream`, { headers: bearer(listener), redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.get('cache-control')).toBe('no-store');
    return new URL(response.headers.get('location')!);
  }

  it('redirects to a signed /media link and records the play', async () => {
    const { db } = station.database;
    const [before] = await db.select({ streams: tracks.streams }).from(tracks).where(eq(tracks.id, AUDIO_TRACK));
    const location = await streamLocation();
    expect(location.origin).toBe(base);
    expect(location.pathname).toBe(`/media/audio/${AUDIO_TRACK}.mp3`);
    expect(location.searchParams.get('exp')).toMatch(/^\d+$/);
    expect(Number(location.searchParams.get('exp')) * 1000).toBeGreaterThan(clock.now());
    expect(location.searchParams.get('sig')).toMatch(/^[A-Za-z0-9_-]{20,}$/);

    const [after] = await db.select({ streams: tracks.streams }).from(tracks).where(eq(tracks.id, AUDIO_TRACK));
    expect(after.streams).toBe(before.streams + 1);
    const events = await db
      .select()
      .from(playEvents)
      .where(and(eq(playEvents.trackId, AUDIO_TRACK), eq(playEvents.userId, listener.userId)));
    expect(events.length).toBeGreaterThanOrEqual(1);
    expect(events[0].source).toBe('on_demand');
  });

  it('counts one play per listener and track within the track’s length, however many stream requests', async () => {
    const { db } = station.database;
    const fan = await signUp(station);
    const streams = async () => (await db.select({ streams: tracks.streams }).from(tracks).where(eq(tracks.id, AUDIO_TRACK)))[0].streams;
    const plays = async (who: Listener) =>
      (
        await db
          .select()
          .from(playEvents)
          .where(and(eq(playEvents.trackId, AUDIO_TRACK), eq(playEvents.userId, who.userId)))
      ).length;
    const before = await streams();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => fetch(`${base}/v1/tracks/${AUDIO_TRACK}/stream`, { headers: bearer(fan), redirect: 'manual' })),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(302)); // every request still gets its link
    expect(await plays(fan)).toBe(1);
    expect(await streams()).toBe(before + 1);
    // Another listener's play counts.
    const other = await signUp(station);
    expect((await fetch(`${base}/v1/tracks/${AUDIO_TRACK}/stream`, { headers: bearer(other), redirect: 'manual' })).status).toBe(302);
    expect(await streams()).toBe(before + 2);
    // The window is the track's length (181 s here), from the first counted play.
    clock.advance(170_000);
    await fetch(`${base}/v1/tracks/${AUDIO_TRACK}/stream`, { headers: bearer(fan), redirect: 'manual' });
    expect(await plays(fan)).toBe(1);
    clock.advance(12_000);
    await fetch(`${base}/v1/tracks/${AUDIO_TRACK}/stream`, { headers: bearer(fan), redirect: 'manual' });
    expect(await plays(fan)).toBe(2);
  });

  it('follows the redirect to the bytes', async () => {
    const response = await fetch(`${base}/v1/tracks/${AUDIO_TRACK}/stream`, { headers: bearer(listener) });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/mpeg');
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    expect(Number(response.headers.get('content-length'))).toBe(AUDIO.length);
    expect(Buffer.from(await response.arrayBuffer()).equals(AUDIO)).toBe(true);
  });

  it('serves byte ranges with 206 and Content-Range', async () => {
    const url = (await streamLocation()).toString();
    const middle = await fetch(url, { headers: { range: 'bytes=10-19' } });
    expect(middle.status).toBe(206);
    expect(middle.headers.get('content-range')).toBe(`bytes 10-19/${AUDIO.length}`);
    expect(middle.headers.get('content-length')).toBe('10');
    expect(Buffer.from(await middle.arrayBuffer()).equals(AUDIO.subarray(10, 20))).toBe(true);

    const suffix = await fetch(url, { headers: { range: 'bytes=-16' } });
    expect(suffix.status).toBe(206);
    expect(suffix.headers.get('content-range')).toBe(`bytes ${AUDIO.length - 16}-${AUDIO.length - 1}/${AUDIO.length}`);
    expect(Buffer.from(await suffix.arrayBuffer()).equals(AUDIO.subarray(AUDIO.length - 16))).toBe(true);

    const open = await fetch(url, { headers: { range: `bytes=${AUDIO.length - 5}-` } });
    expect(open.status).toBe(206);
    expect(Buffer.from(await open.arrayBuffer()).equals(AUDIO.subarray(AUDIO.length - 5))).toBe(true);

    const clamped = await fetch(url, { headers: { range: `bytes=4000-999999` } });
    expect(clamped.status).toBe(206);
    expect(clamped.headers.get('content-range')).toBe(`bytes 4000-${AUDIO.length - 1}/${AUDIO.length}`);
    expect((await clamped.arrayBuffer()).byteLength).toBe(AUDIO.length - 4000);
  });

  it('answers 416 with Content-Range */size for an unsatisfiable range', async () => {
    const url = (await streamLocation()).toString();
    for (const range of [`bytes=${AUDIO.length}-`, 'bytes=50-10', 'bytes=-0', 'items=0-10']) {
      const response = await fetch(url, { headers: { range } });
      expect(response.status, range).toBe(416);
      expect(response.headers.get('content-range')).toBe(`bytes */${AUDIO.length}`);
      const body = (await response.json()) as any;
      expect(body.error.http_status).toBe(416);
      expect(body.error.request_id).toBe(response.headers.get('x-request-id'));
    }
  });

  it('refuses an altered signature, an altered expiry, a missing signature or another key with 403', async () => {
    const location = await streamLocation();
    const sig = location.searchParams.get('sig')!;
    const exp = location.searchParams.get('exp')!;
    const variants = [
      `${location.pathname}?exp=${exp}&sig=${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`,
      `${location.pathname}?exp=${Number(exp) + 3600}&sig=${sig}`,
      `${location.pathname}?exp=${exp}`,
      `${location.pathname}`,
      `/media/audio/${SILENT_TRACK}.mp3?exp=${exp}&sig=${sig}`,
    ];
    for (const path of variants) {
      const response = await fetch(`${base}${path}`);
      expect(response.status, path).toBe(403);
      const body = (await response.json()) as any;
      expect(body.error.http_status).toBe(403);
      expect(body.error.code).toMatch(/^PLATFORM_/);
    }
  });

  it('answers 404 for a track without audio', async () => {
    const response = await get(`/v1/tracks/${SILENT_TRACK}/stream`);
    expectEnvelope(response, 404, 'PLATFORM_NOT_FOUND');
    expectEnvelope(await get(`/v1/tracks/${SILENT_TRACK}/stream`, null), 401, 'PLATFORM_AUTH_REQUIRED');
  });

  it('refuses an expired link with 403', async () => {
    const url = (await streamLocation()).toString();
    expect((await fetch(url)).status).toBe(200);
    const start = clock.now();
    try {
      // Links are valid for at least their TTL (an hour here); expiry is rounded up to a 10-minute step.
      const exp = Number(new URL(url).searchParams.get('exp'));
      expect(exp * 1000 - start).toBeGreaterThanOrEqual(3600 * 1000);
      expect(exp * 1000 - start).toBeLessThanOrEqual(3600 * 1000 + 600 * 1000);
      expect((await fetch(url)).status).toBe(200);
      clock.set(exp * 1000 + 1000);
      const response = await fetch(url);
      expect(response.status).toBe(403);
      expect(((await response.json()) as any).error.http_status).toBe(403);
    } finally {
      clock.set(start);
    }
  });
});
