/**
 * The catalog's write port for the uploads group (src/platform/catalog/upload-writes.ts) on the real database:
 * each write lands in the handle it is given (a rolled-back transaction leaves no row), and the conditional
 * writes (publish, fail, a master given by the backfill) change only the rows they are meant to. Runs on
 * PGlite, or PostgreSQL when DATABASE_URL is set.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AudioFeatures } from '../../src/engine/types.js';
import { FEATURE_EXTRACTOR_VERSION } from '../../src/engine/features/version.js';
import type { Database, Db } from '../../src/infra/db/client.js';
import { artists, trackFeatures, tracks } from '../../src/infra/db/schema/index.js';
import { CatalogUploadWrites, type NewCatalogTrack } from '../../src/platform/catalog/upload-writes.js';
import { openSuiteDatabase, type SuiteDatabase } from '../helpers/station.js';

let suiteDb: SuiteDatabase | undefined;
let database: Database;
let db: Db;
const writes = new CatalogUploadWrites();
const ARTIST = { id: randomUUID(), slug: 'uploader', name: 'Uploader', genre: 'jazz' };

const newTrack = (slug: string): NewCatalogTrack => ({
  id: randomUUID(),
  slug,
  title: `Title ${slug}`,
  artistId: ARTIST.id,
  genre: 'jazz',
  durationSec: 60,
  status: 'processing',
});
const row = async (id: string) => (await db.select().from(tracks).where(eq(tracks.id, id)))[0];
const audio = (id: string) => ({ blobKey: `tracks/${id}/320.mp3`, masterBlobKey: `tracks/${id}/master.flac`, bitrateKbps: 320, sizeBytes: 1234 });

const features = (tempoBpm: number): AudioFeatures => ({
  durationSec: 60,
  tempoBpm,
  tempoConfidence: 0.8,
  key: 'C',
  mode: 'major',
  keyConfidence: 0.7,
  chroma: Array.from({ length: 12 }, () => 0.1),
  mfccMean: Array.from({ length: 13 }, (_, k) => k),
  mfccStd: Array.from({ length: 13 }, () => 1),
  loudnessDb: -14,
  energy: 0.5,
  spectralCentroidHz: 1500,
  onsetRate: 2,
  beatChords: ['C', 'G'],
});

beforeAll(async () => {
  suiteDb = await openSuiteDatabase();
  database = suiteDb.database;
  db = database.db;
  await db.insert(artists).values(ARTIST);
}, 120_000);

afterAll(async () => {
  await suiteDb?.close();
});

describe('the catalog rows an upload writes', () => {
  it('creates and changes a track in the handle given: a rolled-back transaction leaves nothing', async () => {
    const kept = newTrack('kept');
    const dropped = newTrack('dropped');
    await db.transaction(async (tx) => {
      await writes.createTrack(kept, tx);
      await writes.changeTrack(kept.id, { title: 'Changed', bpm: 90 }, tx);
      await writes.changeTrack(kept.id, {}, tx); // nothing to change: no statement, no error
    });
    await expect(
      db.transaction(async (tx) => {
        await writes.createTrack(dropped, tx);
        throw new Error('the upload failed after its row');
      }),
    ).rejects.toThrow('the upload failed after its row');
    expect(await row(kept.id)).toMatchObject({ title: 'Changed', bpm: 90, status: 'processing' });
    expect(await row(dropped.id)).toBeUndefined();
  });

  it('publishes a processing track once; a takedown or a failure that came first wins', async () => {
    const published = newTrack('published');
    const removed = newTrack('removed');
    const failed = newTrack('failed');
    for (const track of [published, removed, failed]) await writes.createTrack(track, db);
    expect(await writes.publish(published.id, audio(published.id), db)).toBe(true);
    expect(await writes.publish(published.id, audio('again'), db)).toBe(false);
    expect(await row(published.id)).toMatchObject({
      status: 'published',
      audioBlobKey: `tracks/${published.id}/320.mp3`,
      masterBlobKey: `tracks/${published.id}/master.flac`,
      audioFormat: 'mp3',
      audioBitrateKbps: 320,
      audioSizeBytes: 1234,
    });
    await writes.markRemoved(removed.id, db);
    expect(await writes.publish(removed.id, audio(removed.id), db)).toBe(false);
    expect(await row(removed.id)).toMatchObject({ status: 'removed', audioBlobKey: null });
    await writes.markFailed(failed.id, db);
    expect(await row(failed.id)).toMatchObject({ status: 'failed' });
    // A failure reported after the takedown leaves it removed, and one after publication leaves it published.
    await writes.markFailed(removed.id, db);
    await writes.markFailed(published.id, db);
    expect((await row(removed.id)).status).toBe('removed');
    expect((await row(published.id)).status).toBe('published');
  });

  it('gives a master only to a track still without one and still airing the audio it was found for', async () => {
    const track = newTrack('backfilled');
    await writes.createTrack({ ...track, status: 'published', audioBlobKey: 'catalog/a.mp3' }, db);
    expect(await writes.giveMaster(track.id, 'catalog/a.flac', 'catalog/other.mp3', db)).toBe(false);
    expect((await row(track.id)).masterBlobKey).toBeNull();
    expect(await db.transaction((tx) => writes.giveMaster(track.id, 'catalog/a.flac', 'catalog/a.mp3', tx))).toBe(true);
    expect(await writes.giveMaster(track.id, 'catalog/b.flac', 'catalog/a.mp3', db)).toBe(false);
    expect((await row(track.id)).masterBlobKey).toBe('catalog/a.flac');
  });

  it('stores a track’s features once, replacing them when extracted again', async () => {
    const track = newTrack('featured');
    await writes.createTrack(track, db);
    await writes.saveFeatures(track.id, features(80), db);
    await writes.saveFeatures(track.id, features(96), db);
    const rows = await db.select().from(trackFeatures).where(eq(trackFeatures.trackId, track.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ extractorVersion: FEATURE_EXTRACTOR_VERSION, features: features(96) });
  });
});
