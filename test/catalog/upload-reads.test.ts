/**
 * The catalog's read port for the uploads group (src/platform/catalog/upload-reads.ts) on the real database: the
 * artists a caller uploads for, the ISRC check (per environment, the track itself excepted), the lock of a track's
 * row in the transaction given, and the derived tables the uploads' repository joins to its upload and takedown
 * records (a managed track read whole in one statement, uploads counted by track status), and the tracks without a
 * master that the master backfill joins to its upload records and pages by id. Runs on PGlite, or
 * PostgreSQL when DATABASE_URL is set.
 */
import { randomUUID } from 'node:crypto';
import { and, asc, eq, gt, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Db } from '../../src/infra/db/client.js';
import { artists, trackUploads, tracks, users } from '../../src/infra/db/schema/index.js';
import { SandboxTwins } from '../../src/platform/artists/sandbox-twins.js';
import { CatalogUploadReads } from '../../src/platform/catalog/upload-reads.js';
import { CatalogUploadWrites } from '../../src/platform/catalog/upload-writes.js';
import { UploadsRepository } from '../../src/platform/uploads/uploads.repository.js';
import { openSuiteDatabase, type SuiteDatabase } from '../helpers/station.js';

let suiteDb: SuiteDatabase | undefined;
let database: Database;
let db: Db;
let reads: CatalogUploadReads;
let repo: UploadsRepository;

const OWNER = { id: randomUUID(), email: 'upload-reads@example.com', passwordHash: 'x', displayName: 'Uploader' };
const LIVE = { id: randomUUID(), slug: 'uploader', name: 'Uploader', genre: 'jazz', ownerUserId: OWNER.id, platformOwned: true };
const SANDBOX = { id: randomUUID(), slug: 'uploader', name: 'Uploader (sandbox)', genre: 'jazz', environment: 'test' as const, ownerUserId: OWNER.id };
const OTHER = { id: randomUUID(), slug: 'other', name: 'Other', genre: 'rock' };
const T = { uploaded: randomUUID(), seeded: randomUUID(), sandbox: randomUUID() };

const upload = (trackId: string) => ({
  trackId,
  uploadedBy: OWNER.id,
  masterBlobKey: `tracks/${trackId}/master.wav`,
  masterFormat: 'wav',
  container: 'wav',
  sizeBytes: 1000,
  sampleRate: 44100,
  channels: 2,
});

beforeAll(async () => {
  suiteDb = await openSuiteDatabase();
  database = suiteDb.database;
  db = database.db;
  reads = new CatalogUploadReads(db);
  repo = new UploadsRepository(db, new CatalogUploadWrites(), reads, new SandboxTwins(db));
  await db.insert(users).values(OWNER);
  await db.insert(artists).values([LIVE, SANDBOX, OTHER]);
  const track = (id: string, slug: string, artistId: string, extra: Partial<typeof tracks.$inferInsert> = {}) => ({
    id,
    slug,
    title: `Title ${slug}`,
    artistId,
    genre: 'jazz',
    durationSec: 60,
    ...extra,
  });
  await repo.insert(track(T.uploaded, 'uploaded', LIVE.id, { status: 'processing', isrc: 'USABC2600001' }), upload(T.uploaded));
  await db
    .insert(tracks)
    .values([
      track(T.seeded, 'seeded', OTHER.id, { isrc: 'USABC2600002' }),
      { ...track(T.sandbox, 'uploaded', SANDBOX.id, { status: 'processing', isrc: 'USABC2600001' }), environment: 'test' as const },
    ]);
}, 120_000);

afterAll(async () => {
  await suiteDb?.close();
});

describe('CatalogUploadReads', () => {
  it('names the artists a caller uploads for, by slug or id in an environment, and those a user owns', async () => {
    const live = { id: LIVE.id, slug: 'uploader', ownerUserId: OWNER.id };
    expect(await reads.artistByIdOrSlug('uploader', 'live')).toEqual(live);
    expect(await reads.artistByIdOrSlug(LIVE.id, 'live', db)).toEqual(live);
    expect(await reads.artistByIdOrSlug('uploader', 'test')).toEqual({ id: SANDBOX.id, slug: 'uploader', ownerUserId: OWNER.id });
    expect(await reads.artistByIdOrSlug(LIVE.id, 'test')).toBeNull();
    expect(await reads.artistByIdOrSlug('nobody', 'live')).toBeNull();
    expect(await reads.artistsOwnedBy(OWNER.id, 'live')).toEqual([live]);
    expect(await reads.artistsOwnedBy(OWNER.id, 'test')).toEqual([{ id: SANDBOX.id, slug: 'uploader', ownerUserId: OWNER.id }]);
    expect(await reads.artistsOwnedBy(randomUUID(), 'live')).toEqual([]);
  });

  it('finds an ISRC taken by another track of the environment only', async () => {
    expect(await reads.isrcTaken('USABC2600001', 'live', undefined)).toBe(true);
    expect(await reads.isrcTaken('USABC2600001', 'live', T.uploaded)).toBe(false); // the track itself
    expect(await reads.isrcTaken('USABC2600002', 'live', T.uploaded)).toBe(true);
    expect(await reads.isrcTaken('USABC2600002', 'test', undefined)).toBe(false);
    expect(await reads.isrcTaken('USABC2600001', 'test', undefined)).toBe(true);
  });

  it('reads a managed track whole through the derived tables, locked first in the transaction when asked', async () => {
    const found = await repo.find(T.uploaded, { environment: 'live' });
    expect(found).toMatchObject({
      track: { id: T.uploaded, slug: 'uploaded', title: 'Title uploaded', status: 'processing', isrc: 'USABC2600001', durationSec: 60, environment: 'live' },
      artist: { id: LIVE.id, slug: 'uploader', name: 'Uploader', ownerUserId: OWNER.id, platformOwned: true },
      upload: { trackId: T.uploaded, masterBlobKey: `tracks/${T.uploaded}/master.wav`, sampleRate: 44100 },
      takedown: null,
    });
    expect(found!.track.createdAt).toBeInstanceOf(Date);
    expect(found!.track.mood).toEqual([]);
    expect(await repo.find(T.uploaded, { environment: 'test' })).toBeNull();
    expect(await repo.find('not-a-uuid')).toBeNull();
    // A track with no upload record (a seeded one): the row and its artist, no upload.
    expect(await repo.find(T.seeded)).toMatchObject({ track: { id: T.seeded }, artist: { id: OTHER.id, platformOwned: false }, upload: null, takedown: null });

    const at = new Date(Date.UTC(2026, 0, 2));
    await repo.transaction(async (tx) => {
      const locked = await tx.find(T.uploaded, { lock: true, environment: 'live' });
      expect(locked?.track.status).toBe('processing');
      await tx.takeDown(T.uploaded, 'rights claim', OWNER.id, at);
      // Read again in the transaction: the takedown and the removed row, joined.
      expect(await tx.find(T.uploaded, { lock: true })).toMatchObject({
        track: { status: 'removed' },
        takedown: { trackId: T.uploaded, reason: 'rights claim', removedBy: OWNER.id, removedAt: at },
      });
    });
    await db.transaction((tx) => reads.lockTrack(randomUUID(), tx)); // no such track: locks nothing, fails nothing
    expect(await repo.find(T.uploaded)).toMatchObject({ track: { status: 'removed' }, takedown: { reason: 'rights claim' } });
  });

  it('joins the tracks’ status to the uploads: which uploads have a status, and how many of a user’s are processing', async () => {
    const second = randomUUID();
    await repo.insert({ id: second, slug: 'second', title: 'Second', artistId: LIVE.id, genre: 'jazz', durationSec: 30, status: 'processing' }, upload(second));
    expect(await repo.idsWithStatus('processing')).toEqual([second]);
    expect(await repo.idsWithStatus('removed')).toEqual([T.uploaded]);
    expect(await repo.processingCountBy(OWNER.id)).toBe(1);
    expect(await repo.processingCountBy(randomUUID())).toBe(0);
  });

  it('hands out the tracks that air their stream audio and have no master, to join to the uploads and page by id', async () => {
    const ids = [randomUUID(), randomUUID(), randomUUID(), randomUUID()].sort();
    const [masterless, sandboxMasterless, mastered, silent] = ids;
    const row = (id: string, extra: Partial<typeof tracks.$inferInsert>) => ({
      id,
      slug: `masterless-${id.slice(0, 8)}`,
      title: 'Masterless',
      artistId: LIVE.id,
      genre: 'jazz',
      durationSec: 42,
      ...extra,
    });
    await repo.insert(row(masterless, { audioBlobKey: `tracks/${masterless}/stream.mp3` }), upload(masterless));
    await db.insert(tracks).values([
      { ...row(sandboxMasterless, { artistId: SANDBOX.id, audioBlobKey: `catalog/${sandboxMasterless}.mp3` }), environment: 'test' as const },
      row(mastered, { audioBlobKey: `tracks/${mastered}/stream.mp3`, masterBlobKey: `tracks/${mastered}/master.flac` }),
      row(silent, {}), // no stream audio yet (processing): nothing to give a master to
    ]);

    const track = reads.tracksWithoutMaster();
    const page = (after: string, tx: Db = db) =>
      tx
        .select({ id: track.id, audioBlobKey: track.audioBlobKey, durationSec: track.durationSec, uploadKey: trackUploads.masterBlobKey })
        .from(track)
        .leftJoin(trackUploads, eq(trackUploads.trackId, track.id))
        .where(and(inArray(track.id, ids), after ? gt(track.id, after) : undefined))
        .orderBy(asc(track.id));
    // Of every environment, with its upload's master when it has one; neither the mastered nor the silent track.
    expect(await page('')).toEqual([
      { id: masterless, audioBlobKey: `tracks/${masterless}/stream.mp3`, durationSec: 42, uploadKey: `tracks/${masterless}/master.wav` },
      { id: sandboxMasterless, audioBlobKey: `catalog/${sandboxMasterless}.mp3`, durationSec: 42, uploadKey: null },
    ]);
    expect((await page(masterless)).map((r) => r.id)).toEqual([sandboxMasterless]);
    // Embedded in a transaction's statement, it reads what the transaction wrote: a track given its master drops out.
    await db.transaction(async (tx) => {
      expect(await new CatalogUploadWrites().giveMaster(masterless, `tracks/${masterless}/master.flac`, `tracks/${masterless}/stream.mp3`, tx)).toBe(true);
      expect((await page('', tx)).map((r) => r.id)).toEqual([sandboxMasterless]);
    });
    expect((await page('')).map((r) => r.id)).toEqual([sandboxMasterless]);
  });
});
