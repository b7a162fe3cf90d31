/**
 * Issue 18: a demo catalog master is kept lossless. The seed stores the engine's FLAC master beside the
 * 128 kbps MP3 encoded once from it (`catalog/<id>.flac`, `catalog/<id>.mp3`), the catalog's read port
 * gives the radio the FLAC (`playoutAudioKey`), a lengthened master gets both under its new keys, and the
 * sandbox copy airs the same master.
 */
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedDemoCatalog } from '../../src/demo/seed-catalog.js';
import { lengthenDemoMasters, renderDemoMasters } from '../../src/demo/seed-audio.js';
import { seedSandboxCatalog } from '../../src/demo/seed-sandbox.js';
import { tracks } from '../../src/infra/db/schema/index.js';
import { CatalogRepository } from '../../src/platform/catalog/catalog.repository.js';
import { FakeEngine } from '../helpers/fake-engine.js';
import { stationForSuite } from '../helpers/station.js';

const station = stationForSuite();
const engine = new FakeEngine();
const MASTERS = 2;

beforeAll(async () => {
  expect(await seedDemoCatalog(station.database.db, { plannedSec: 4 })).toBe(true);
  await seedSandboxCatalog(station.database.db);
});

async function rendered() {
  const rows = await station.database.db.select().from(tracks).where(eq(tracks.environment, 'live'));
  return rows.filter((t) => t.audioBlobKey !== null);
}

describe('demo masters', () => {
  const deps = () => ({ db: station.database.db, blobs: station.blobs, engine });

  it('keeps the FLAC master beside its MP3, and the radio airs the FLAC', async () => {
    let count = 0;
    await renderDemoMasters(
      deps(),
      2,
      () => count >= MASTERS,
      () => (count += 1),
    );
    const live = await rendered();
    expect(live).toHaveLength(MASTERS);
    const catalog = new CatalogRepository(station.database.db);
    for (const track of live) {
      expect(track.audioBlobKey).toBe(`catalog/${track.id}.mp3`);
      expect(track.masterBlobKey).toBe(`catalog/${track.id}.flac`);
      expect((await station.blobs.get(track.masterBlobKey!)).subarray(0, 4).toString('latin1')).toBe('fLaC');
      expect((await station.blobs.get(track.audioBlobKey!)).length).toBe(track.audioSizeBytes);
      expect((await catalog.findTrack(track.id, 'live'))?.playoutAudioKey).toBe(track.masterBlobKey);
      const [copy] = await station.database.db
        .select()
        .from(tracks)
        .where(and(eq(tracks.slug, track.slug), eq(tracks.environment, 'test')));
      expect([copy.audioBlobKey, copy.masterBlobKey]).toEqual([track.audioBlobKey, track.masterBlobKey]);
    }
  });

  it('gives a lengthened master a FLAC of its own under the new keys', async () => {
    let count = 0;
    await lengthenDemoMasters(
      deps(),
      5,
      () => count >= 1,
      () => (count += 1),
    );
    const longer = (await rendered()).filter((t) => t.audioBlobKey!.includes('.5s.'));
    expect(longer).toHaveLength(1);
    expect(longer[0].masterBlobKey).toBe(`catalog/${longer[0].id}.5s.flac`);
    expect(await station.blobs.stat(longer[0].masterBlobKey!)).not.toBeNull();
  });
});
