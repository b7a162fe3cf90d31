/**
 * Issue 18: FLAC and AIFF uploads. A FLAC upload is its own master; an AIFF upload's samples are kept as a
 * FLAC master (`tracks/<id>/master.flac`), bit for bit; the renditions are encoded once from the upload and
 * the loudness is measured as for a WAV. A file cut short is refused with the contract's envelope
 * (400 PLATFORM_VALIDATION_FAILED) and leaves no row, blob or spooled file behind.
 */
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { inspectAudio } from '../../src/engine/audio/inspect.js';
import { decodePcm, type PcmFormat } from '../../src/engine/audio/pcm.js';
import { quantise } from '../../src/engine/audio/flac-encode.js';
import { trackUploads, tracks } from '../../src/infra/db/schema/index.js';
import { CatalogRepository } from '../../src/platform/catalog/catalog.repository.js';
import { stationForSuite } from '../helpers/station.js';
import { loginAs, type Login } from './accounts-support.js';
import { aiffOf, artistFor, expectNothingStored, flacOf, id3, integerMusic, published, stored, upload } from './uploads-support.js';

/** The decoded samples as integers of `bits` bits (exact for 16- and 24-bit sources). */
async function samples(bytes: Uint8Array, format: PcmFormat, bits: 16 | 24): Promise<Int32Array[]> {
  const parts: Float32Array[][] = [];
  for await (const chunk of decodePcm(bytes, format)) parts.push(chunk.channels);
  return parts[0].map((_, c) => quantise(Float32Array.from(parts.flatMap((p) => Array.from(p[c]))), bits));
}

describe('lossless uploads: FLAC and AIFF', () => {
  let owner: Login;
  let catalog: CatalogRepository;
  // Renditions, masters and loudness are the RenditionPool's and inspectAudio's, not the engine's: the engine only
  // extracts style features, which this suite never reads (the FakeEngine derives them from the bytes).
  const station = stationForSuite({}, { fakeEngine: true });

  beforeAll(async () => {
    owner = await loginAs(station, 'artist');
    await artistFor(station, owner.userId, false, true); // verified: its tracks are on the radio's side
    catalog = new CatalogRepository(station.database.db);
  });

  const expectRefused = async (data: Buffer, detail: RegExp) => {
    const answer = await upload(station, owner, { title: 'Cut', genre: 'Ambient' }, { data, filename: 'cut.flac', contentType: 'audio/flac' });
    expect(answer.statusCode, answer.body).toBe(400);
    const { error } = answer.json();
    expect(error).toMatchObject({ code: 'PLATFORM_VALIDATION_FAILED', http_status: 400 });
    expect(error.request_id).toBe(answer.headers['x-request-id']);
    expect(`${error.message} ${error.detail}`).toMatch(detail);
  };

  it('keeps a 24-bit FLAC upload as its own master, which the radio airs, and renders from it', async () => {
    const input = integerMusic(2, 24);
    const flac = flacOf(input, 24);
    // An ID3 tag in front of the stream (some taggers write one): its tags are read, the stream is the master.
    const file = Buffer.concat([id3({ TIT2: 'Lossless Lake', TCON: 'Ambient' }), flac]);
    const answer = await upload(station, owner, {}, { data: file, filename: 'lake.flac', contentType: 'audio/flac' });
    expect(answer.statusCode, answer.body).toBe(202);
    const { id } = answer.json();
    const view = await published(station, owner, id);
    expect(view).toMatchObject({ title: 'Lossless Lake', genre: 'Ambient' });
    expect(view.master).toMatchObject({ format: 'flac', container: 'FLAC', sample_rate: 44100, channels: 2, size_bytes: flac.length });
    expect(view.loudness_lufs).toEqual(expect.any(Number));
    expect(view.renditions.map((r: { bitrate_kbps: number }) => r.bitrate_kbps)).toEqual([128, 192, 320]);

    const [row] = await station.database.db.select().from(tracks).where(eq(tracks.id, id));
    expect(row.masterBlobKey).toBe(`tracks/${id}/master.flac`);
    const master = await station.blobs.get(row.masterBlobKey!);
    expect(master.equals(flac)).toBe(true);
    expect(await samples(master, 'flac', 24)).toEqual(input);
    expect((await catalog.findTrack(id, 'live'))?.playoutAudioKey).toBe(`tracks/${id}/master.flac`);
  }, 180_000);

  it('keeps a 24-bit AIFF upload as a FLAC master of the same samples, and the AIFF as uploaded', async () => {
    const input = integerMusic(2, 24);
    const aiff = aiffOf(input, 24);
    const answer = await upload(
      station,
      owner,
      { title: 'Big Endian Blues', genre: 'Blues' },
      { data: aiff, filename: 'blues.aif', contentType: 'audio/aiff' },
    );
    expect(answer.statusCode, answer.body).toBe(202);
    const { id } = answer.json();
    const view = await published(station, owner, id);
    expect(view.master).toMatchObject({ format: 'aiff', container: 'AIFF', sample_rate: 44100, channels: 2, size_bytes: aiff.length });
    expect(view.duration_sec).toBeCloseTo(2, 5);
    expect(view.loudness_lufs).toEqual(expect.any(Number));

    const [row] = await station.database.db.select().from(tracks).where(eq(tracks.id, id));
    expect(row.masterBlobKey).toBe(`tracks/${id}/master.flac`);
    const master = await station.blobs.get(row.masterBlobKey!);
    expect(master.subarray(0, 4).toString('latin1')).toBe('fLaC');
    expect(await samples(master, 'flac', 24)).toEqual(input);
    expect(await samples(aiff, 'aiff', 24)).toEqual(input); // the reader itself is exact
    const [record] = await station.database.db.select().from(trackUploads).where(eq(trackUploads.trackId, id));
    expect(record.masterBlobKey).toBe(`tracks/${id}/master.aiff`);
    expect((await station.blobs.get(record.masterBlobKey)).equals(aiff)).toBe(true);
  }, 180_000);

  it('reads AIFF-C, big- and little-endian, 16-bit mono, exactly', async () => {
    const [mono] = integerMusic(1.5, 16);
    for (const compression of ['NONE', 'sowt'] as const) {
      const file = aiffOf([mono], 16, { compression });
      expect(await samples(file, 'aiff', 16)).toEqual([mono]);
      const answer = await upload(station, owner, { title: `AIFF-C ${compression}`, genre: 'Test' }, { data: file, filename: 'c.aifc' });
      expect(answer.statusCode, answer.body).toBe(202);
      expect(answer.json().master).toMatchObject({ format: 'aiff', channels: 1 });
      // Rendered before the next test counts what refusals leave behind.
      expect((await published(station, owner, answer.json().id)).status).toBe('published');
    }
  }, 180_000);

  it('measures an AIFF, a FLAC and a WAV of the same samples alike', async () => {
    const input = integerMusic(1.5, 16);
    const wav = Buffer.alloc(44 + input[0].length * 4);
    wav.write('RIFF', 0, 'latin1');
    wav.writeUInt32LE(wav.length - 8, 4);
    wav.write('WAVEfmt ', 8, 'latin1');
    wav.writeUInt32LE(16, 16);
    wav.writeUInt16LE(1, 20);
    wav.writeUInt16LE(2, 22);
    wav.writeUInt32LE(44100, 24);
    wav.writeUInt32LE(44100 * 4, 28);
    wav.writeUInt16LE(4, 32);
    wav.writeUInt16LE(16, 34);
    wav.write('data', 36, 'latin1');
    wav.writeUInt32LE(input[0].length * 4, 40);
    for (let i = 0; i < input[0].length; i++) {
      wav.writeInt16LE(input[0][i], 44 + i * 4);
      wav.writeInt16LE(input[1][i], 46 + i * 4);
    }
    const limits = { maxDurationSec: 1200 };
    const [fromWav, fromAiff, fromFlac] = await Promise.all([
      inspectAudio(wav, limits),
      inspectAudio(aiffOf(input, 16), limits),
      inspectAudio(flacOf(input, 16), limits),
    ]);
    expect(fromWav.loudnessLufs).toEqual(expect.any(Number));
    for (const other of [fromAiff, fromFlac]) {
      expect(other).toMatchObject({ loudnessLufs: fromWav.loudnessLufs, durationSec: fromWav.durationSec, sampleRate: 44100, channels: 2 });
    }
    expect([fromAiff.format, fromFlac.format]).toEqual(['aiff', 'flac']);
  });

  it('refuses a FLAC or an AIFF cut short, or a FLAC with a damaged frame, and keeps nothing', async () => {
    const before = await stored(station);
    const input = integerMusic(1.5, 16);
    const flac = flacOf(input, 16);
    await expectRefused(flac.subarray(0, Math.floor(flac.length * 0.6)), /truncated|cut short/);
    await expectRefused(flac.subarray(0, 30), /truncated|not usable/); // inside STREAMINFO
    const damaged = Buffer.from(flac);
    damaged[Math.floor(damaged.length / 2)] ^= 0xff;
    await expectRefused(damaged, /cut short or damaged/);
    const aiff = aiffOf(input, 16);
    await expectRefused(aiff.subarray(0, Math.floor(aiff.length / 2) + 1), /truncated/);
    await expectNothingStored(station, before);
  });

  it('refuses a FLAC that does not declare its length, and a surround AIFF', async () => {
    const before = await stored(station);
    const flac = flacOf(integerMusic(1.5, 16), 16);
    const unknown = Buffer.from(flac);
    unknown.writeUInt8(unknown[8 + 13] & 0xf0, 8 + 13); // STREAMINFO total samples: 0 (unknown)
    unknown.writeUInt32BE(0, 8 + 14);
    await expectRefused(unknown, /does not declare its length/);

    const [l, r] = integerMusic(1.5, 16);
    const surround = await upload(station, owner, { title: 'Surround', genre: 'Test' }, { data: aiffOf([l, r, l], 16), filename: 's.aif' });
    expect(surround.statusCode, surround.body).toBe(415);
    expect(surround.json().error.code).toBe('PLATFORM_UNSUPPORTED_MEDIA_TYPE');
    await expectNothingStored(station, before);
  });
});
