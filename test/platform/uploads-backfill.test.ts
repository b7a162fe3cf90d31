/**
 * Issue 18: catalog tracks from before masters were kept (no `tracks.master_blob_key`) get one where the
 * platform still holds a better source (a WAV upload's samples as FLAC, an MP3 upload's original, a demo
 * track's FLAC beside its MP3); the others keep airing their stream audio, recorded as such. Every run is
 * bounded, a second run does nothing, and a run cut short is taken up where it stopped.
 */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePcm } from '../../src/engine/audio/pcm.js';
import { quantise } from '../../src/engine/audio/flac-encode.js';
import { RenditionPool } from '../../src/engine/worker/rendition-pool.js';
import { trackMasterBackfill, tracks } from '../../src/infra/db/schema/index.js';
import { CatalogRepository } from '../../src/platform/catalog/catalog.repository.js';
import { CatalogUploadReads } from '../../src/platform/catalog/upload-reads.js';
import { CatalogUploadWrites } from '../../src/platform/catalog/upload-writes.js';
import { MasterBackfill } from '../../src/platform/uploads/master-backfill.js';
import { systemTimers, type IntervalTimers } from '../../src/infra/clock/timers.js';
import { pollUntil } from '../helpers/poll.js';
import { stationForSuite } from '../helpers/station.js';
import { loginAs, type Login } from './accounts-support.js';
import { artistFor, flacOf, integerMusic, mp3Of, music, published, upload, wavOf } from './uploads-support.js';

async function samples(bytes: Uint8Array, format: 'wav' | 'flac'): Promise<Int32Array[]> {
  const parts: Float32Array[][] = [];
  for await (const chunk of decodePcm(bytes, format)) parts.push(chunk.channels);
  return parts[0].map((_, c) => quantise(Float32Array.from(parts.flatMap((p) => Array.from(p[c]))), 16));
}

// Real timers, with a record of the intervals set: the last test runs the hourly one itself.
const intervals: { callback: () => void; ms: number }[] = [];
const timers: IntervalTimers = {
  setInterval: (callback, ms) => (intervals.push({ callback, ms }), systemTimers.setInterval(callback, ms)),
  clearInterval: (handle) => systemTimers.clearInterval(handle),
};
// One station for the file: the hourly tick never fires on its own within it, so the module's backfill runs only
// at start (an empty catalog) until the last test fires it. The renditions and FLAC masters are made by the
// RenditionPool, not the engine: the engine only extracts the uploads' style features, which this file never
// reads (the FakeEngine derives them from the bytes).
const station = stationForSuite({}, { timers, fakeEngine: true });

describe('master backfill', () => {
  const pool = new RenditionPool({ size: 1, niceness: 0 });
  const warnings: string[] = [];
  let owner: Login;
  let backfill: MasterBackfill;
  const ids: Record<string, string> = {};

  /** A track as an install from before migration 0039 has it: published, no master. */
  const forgetMaster = async (id: string) => {
    await station.database.db.update(tracks).set({ masterBlobKey: null }).where(eq(tracks.id, id));
    await station.blobs.delete(`tracks/${id}/master.flac`);
  };
  const uploaded = async (title: string, data: Buffer) => {
    const answer = await upload(station, owner, { title, genre: 'Ambient' }, { data });
    expect(answer.statusCode, answer.body).toBe(202);
    const { id } = answer.json();
    await published(station, owner, id);
    await forgetMaster(id);
    return id as string;
  };
  /** A demo catalog row as the seed wrote it (`catalog/<id>.mp3`), with a FLAC of `flacSec` beside it or none. */
  const demoTrack = async (artistId: string, durationSec: number, flacSec: number | null) => {
    const slug = `demo-${randomBytes(4).toString('hex')}`;
    const [row] = await station.database.db.insert(tracks).values({ slug, title: slug, artistId, genre: 'Lo-Fi', durationSec }).returning({ id: tracks.id });
    const audio = `catalog/${row.id}.mp3`;
    await station.blobs.put(audio, await mp3Of(music(durationSec)));
    if (flacSec !== null) await station.blobs.put(`catalog/${row.id}.flac`, flacOf(integerMusic(flacSec, 16), 16));
    await station.database.db.update(tracks).set({ audioBlobKey: audio, audioFormat: 'mp3' }).where(eq(tracks.id, row.id));
    return row.id;
  };
  const ledger = async (id: string) => (await station.database.db.select().from(trackMasterBackfill).where(eq(trackMasterBackfill.trackId, id)))[0];
  const masterOf = async (id: string) => (await station.database.db.select({ key: tracks.masterBlobKey }).from(tracks).where(eq(tracks.id, id)))[0].key;

  beforeAll(async () => {
    owner = await loginAs(station, 'artist');
    const artist = await artistFor(station, owner.userId, false, true);
    backfill = new MasterBackfill({
      db: station.database.db,
      catalog: new CatalogUploadWrites(),
      catalogReads: new CatalogUploadReads(station.database.db),
      blobs: station.blobs,
      bus: station.bus,
      clock: station.clock,
      losslessOf: async (bytes, format) => (await pool.render(bytes, format, [], async () => undefined, undefined, { losslessMaster: true })).losslessMaster!,
      log: { warn: (_object, message) => warnings.push(message), error: (_object, message) => warnings.push(message) },
    });
    ids.wav = await uploaded('Old Wave', wavOf(music(1.4)));
    ids.mp3 = await uploaded('Old Press', await mp3Of(music(1.4)));
    ids.gone = await uploaded('Lost Original', wavOf(music(1.2)));
    await station.blobs.delete(`tracks/${ids.gone}/master.wav`);
    ids.demoFlac = await demoTrack(artist.id, 2, 2);
    ids.demoNone = await demoTrack(artist.id, 2, null);
    ids.demoOther = await demoTrack(artist.id, 2, 5); // a FLAC of another length: not this track's
    // A crash after the FLAC was written and before the row named it: the next run writes it again.
    await station.blobs.put(`tracks/${ids.wav}/master.flac`, Buffer.from('half-written'));
  }, 300_000);
  afterAll(async () => {
    await pool.close();
  });

  it('gives each track the best source there is, in bounded runs, and records the rest as airing their stream audio', async () => {
    const first = await backfill.run(2);
    expect(first).toMatchObject({ looked: 2, failed: 0, more: true });
    const rest = await backfill.run();
    expect(rest).toMatchObject({ looked: 4, failed: 0, more: false });
    const outcomes = [first, rest]
      .flatMap((run) => Object.entries(run.byOutcome))
      .reduce<Record<string, number>>((all, [k, n]) => ({ ...all, [k]: (all[k] ?? 0) + n! }), {});
    expect(outcomes).toEqual({ made_lossless: 1, adopted_original_mp3: 1, adopted_lossless: 1, stream_audio_only: 3 });
    expect(warnings).toEqual([]);

    // A WAV upload: its samples as FLAC, exactly, and the radio airs it.
    expect(await masterOf(ids.wav)).toBe(`tracks/${ids.wav}/master.flac`);
    const flac = await station.blobs.get(`tracks/${ids.wav}/master.flac`);
    expect(await samples(flac, 'flac')).toEqual(await samples(await station.blobs.get(`tracks/${ids.wav}/master.wav`), 'wav'));
    expect((await new CatalogRepository(station.database.db).findTrack(ids.wav, 'live'))?.playoutAudioKey).toBe(`tracks/${ids.wav}/master.flac`);
    expect(await ledger(ids.wav)).toMatchObject({ outcome: 'made_lossless', audioBlobKey: `tracks/${ids.wav}/stream.mp3` });

    // An MP3 upload: the file as uploaded, recorded as lossy.
    expect(await masterOf(ids.mp3)).toBe(`tracks/${ids.mp3}/master.mp3`);
    expect((await ledger(ids.mp3)).detail).toMatch(/lossy/);
    // A demo track with its FLAC beside the MP3.
    expect(await masterOf(ids.demoFlac)).toBe(`catalog/${ids.demoFlac}.flac`);
    // No lossless source: no master, the stream audio airs, and the ledger says why.
    for (const id of [ids.gone, ids.demoNone, ids.demoOther]) {
      expect(await masterOf(id)).toBeNull();
      expect(await ledger(id)).toMatchObject({ outcome: 'stream_audio_only', masterBlobKey: null });
    }
    expect((await ledger(ids.gone)).detail).toMatch(/gone/);
    expect((await ledger(ids.demoOther)).detail).toMatch(/length/);
  });

  it('does nothing on a second run', async () => {
    const before = await station.database.db.select().from(trackMasterBackfill);
    const flac = await station.blobs.get(`tracks/${ids.wav}/master.flac`);
    expect(await backfill.run()).toEqual({ looked: 0, byOutcome: {}, failed: 0, more: false });
    expect(await station.database.db.select().from(trackMasterBackfill)).toEqual(before);
    expect((await station.blobs.get(`tracks/${ids.wav}/master.flac`)).equals(flac)).toBe(true);
  });

  it('looks again at a track whose stream audio changed (a master rendered again)', async () => {
    const audio = `catalog/${ids.demoNone}.150s.mp3`;
    await station.blobs.put(audio, await station.blobs.get(`catalog/${ids.demoNone}.mp3`));
    await station.blobs.put(`catalog/${ids.demoNone}.150s.flac`, flacOf(integerMusic(2, 16), 16));
    await station.database.db.update(tracks).set({ audioBlobKey: audio }).where(eq(tracks.id, ids.demoNone));
    expect(await backfill.run()).toMatchObject({ looked: 1, byOutcome: { adopted_lossless: 1 } });
    expect(await masterOf(ids.demoNone)).toBe(`catalog/${ids.demoNone}.150s.flac`);
    expect(await backfill.run()).toMatchObject({ looked: 0 });
  });
});

describe('master backfill in the uploads module', () => {
  it('runs in the background on the hourly tick (as it does once at start)', async () => {
    const owner = await loginAs(station, 'artist');
    await artistFor(station, owner.userId, false, true);
    const answer = await upload(station, owner, { title: 'Hourly', genre: 'Ambient' }, { data: await mp3Of(music(1.2)) });
    expect(answer.statusCode, answer.body).toBe(202);
    const { id } = answer.json();
    await published(station, owner, id);
    await station.database.db.update(tracks).set({ masterBlobKey: null }).where(eq(tracks.id, id));

    for (const interval of intervals.filter((i) => i.ms === 3600_000)) interval.callback();
    const row = await pollUntil(
      'the hourly backfill run',
      async () => (await station.database.db.select().from(trackMasterBackfill).where(eq(trackMasterBackfill.trackId, id)))[0],
      (found) => found !== undefined,
      30_000,
    );
    expect(row).toMatchObject({ outcome: 'adopted_original_mp3', masterBlobKey: `tracks/${id}/master.mp3` });
    const [track] = await station.database.db.select({ key: tracks.masterBlobKey }).from(tracks).where(eq(tracks.id, id));
    expect(track.key).toBe(`tracks/${id}/master.mp3`);
  }, 180_000);
});
