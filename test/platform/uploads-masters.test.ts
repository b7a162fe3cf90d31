/**
 * Issue 18: the radio airs an upload from its best source, not from its 320 kbps rendition. A WAV upload
 * keeps its samples as a FLAC master (`tracks/<id>/master.flac`, made in the render's decode pass); an MP3
 * upload's master is the file as uploaded. The catalog's read port names it (`playoutAudioKey`), the file
 * as uploaded stays where the store's downloads find it, and listeners still stream the renditions.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePcm } from '../../src/engine/audio/pcm.js';
import { quantise } from '../../src/engine/audio/flac-encode.js';
import { trackUploads, tracks } from '../../src/infra/db/schema/index.js';
import { CatalogRepository } from '../../src/platform/catalog/catalog.repository.js';
import { buildTestStation, type TestStation } from '../helpers/station.js';
import { loginAs, type Login } from './accounts-support.js';
import { artistFor, mp3Of, music, published, upload, wavOf } from './uploads-support.js';

async function samples(bytes: Uint8Array, format: 'wav' | 'flac'): Promise<Int32Array[]> {
  const parts: Float32Array[][] = [];
  for await (const chunk of decodePcm(bytes, format)) parts.push(chunk.channels);
  return parts[0].map((_, c) => quantise(Float32Array.from(parts.flatMap((p) => Array.from(p[c]))), 16));
}

describe('upload masters', () => {
  let station: TestStation;
  let owner: Login;
  let catalog: CatalogRepository;

  beforeAll(async () => {
    // The masters and renditions are the RenditionPool's; the engine only extracts style features (not read here).
    station = await buildTestStation({}, { fakeEngine: true });
    owner = await loginAs(station, 'artist');
    // Verified, so its tracks are on the radio's side of the catalog.
    await artistFor(station, owner.userId, false, true);
    catalog = new CatalogRepository(station.database.db);
  });
  afterAll(async () => {
    await station?.destroy();
  });

  it('keeps a WAV upload as a FLAC master of the same samples, which the radio airs', async () => {
    const wav = wavOf(music(1.2));
    const answer = await upload(station, owner, { title: 'Lossless Tide', genre: 'Ambient' }, { data: wav, filename: 'tide.wav', contentType: 'audio/wav' });
    expect(answer.statusCode, answer.body).toBe(202);
    const { id } = answer.json();
    const view = await published(station, owner, id);
    expect(view.master).toMatchObject({ format: 'wav', size_bytes: wav.length }); // the upload as uploaded, for its owner and the store

    const [row] = await station.database.db.select().from(tracks).where(eq(tracks.id, id));
    expect(row.masterBlobKey).toBe(`tracks/${id}/master.flac`);
    expect(row.audioBlobKey).toBe(`tracks/${id}/stream.mp3`); // listeners still stream the renditions
    const flac = await station.blobs.get(row.masterBlobKey!);
    expect(flac.subarray(0, 4).toString('latin1')).toBe('fLaC');
    expect(flac.length).toBeLessThan(wav.length);
    expect(await samples(flac, 'flac')).toEqual(await samples(wav, 'wav'));
    const [record] = await station.database.db.select().from(trackUploads).where(eq(trackUploads.trackId, id));
    expect((await station.blobs.get(record.masterBlobKey)).equals(wav)).toBe(true);

    expect((await catalog.findTrack(id, 'live'))?.playoutAudioKey).toBe(`tracks/${id}/master.flac`);
  }, 180_000);

  it('airs an MP3 upload from the file as uploaded, not from a rendition of it', async () => {
    const mp3 = await mp3Of(music(1.2));
    const answer = await upload(station, owner, { title: 'Original Press', genre: 'Pop' }, { data: mp3, filename: 'press.mp3' });
    expect(answer.statusCode, answer.body).toBe(202);
    const { id } = answer.json();
    await published(station, owner, id);
    const track = await catalog.findTrack(id, 'live');
    expect(track?.playoutAudioKey).toBe(`tracks/${id}/master.mp3`);
    expect((await station.blobs.get(track!.playoutAudioKey!)).equals(mp3)).toBe(true);
    expect(await station.blobs.stat(`tracks/${id}/master.flac`)).toBeNull();
  }, 180_000);

  it('falls back to the stream audio for a catalog row without a master', async () => {
    const [row] = await station.database.db.select({ id: tracks.id }).from(tracks).where(eq(tracks.title, 'Original Press')).limit(1);
    await station.database.db.update(tracks).set({ masterBlobKey: null }).where(eq(tracks.id, row.id));
    expect((await catalog.findTrack(row.id, 'live'))?.playoutAudioKey).toBe(`tracks/${row.id}/stream.mp3`);
  });
});
