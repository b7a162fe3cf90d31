/**
 * Helpers of the uploads suites: real audio made by the radio's own encoders (LAME for MP3, the WAV writer),
 * a multipart/form-data body built by hand, artists with owners, and a look at everything an upload could
 * have left behind (rows, blobs, spooled files).
 */
import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { count } from 'drizzle-orm';
import type { Station } from '../../src/app.js';
import { createMp3Stream, encodeWav } from '../../src/engine/audio/encode.js';
import { createFlacStream, quantise } from '../../src/engine/audio/flac-encode.js';
import { artists, trackUploads, tracks } from '../../src/infra/db/schema/index.js';
import { pollUntil } from '../helpers/poll.js';
import { bearer } from './accounts-support.js';

export const RATE = 44100;

/** A 997 Hz sine at `dbfs` peak in the left channel (and the right unless `leftOnly`). */
export function sine(seconds: number, dbfs = 0, leftOnly = false): [Float32Array, Float32Array] {
  const amplitude = 10 ** (dbfs / 20);
  const left = new Float32Array(Math.round(RATE * seconds));
  for (let i = 0; i < left.length; i++) left[i] = amplitude * Math.sin((2 * Math.PI * 997 * i) / RATE);
  return [left, leftOnly ? new Float32Array(left.length) : left];
}

/** A stereo sweep of a few tones, so encoders have something to do. */
export function music(seconds: number): [Float32Array, Float32Array] {
  const left = new Float32Array(Math.round(RATE * seconds));
  const right = new Float32Array(left.length);
  for (let i = 0; i < left.length; i++) {
    const t = i / RATE;
    left[i] = 0.3 * Math.sin(2 * Math.PI * 220 * t) + 0.1 * Math.sin(2 * Math.PI * 1760 * t);
    right[i] = 0.3 * Math.sin(2 * Math.PI * 330 * t) + 0.1 * Math.sin(2 * Math.PI * 2640 * t * (1 + t / 10));
  }
  return [left, right];
}

/** ID3v2.4 text frames (UTF-8), the way taggers write title, artist, album, genre and ISRC. */
export function id3(frames: Record<string, string>): Buffer {
  const synchsafe = (n: number) => Buffer.from([(n >> 21) & 0x7f, (n >> 14) & 0x7f, (n >> 7) & 0x7f, n & 0x7f]);
  const body = Buffer.concat(
    Object.entries(frames).map(([id, text]) => {
      const value = Buffer.concat([Buffer.from([3]), Buffer.from(text, 'utf8')]);
      return Buffer.concat([Buffer.from(id, 'latin1'), synchsafe(value.length), Buffer.from([0, 0]), value]);
    }),
  );
  return Buffer.concat([Buffer.from('ID3', 'latin1'), Buffer.from([4, 0, 0]), synchsafe(body.length), body]);
}

/** An MP3 by the radio's LAME encoder, with an optional ID3 tag in front. */
export async function mp3Of([left, right]: [Float32Array, Float32Array], tags: Record<string, string> = {}): Promise<Buffer> {
  const encoder = await createMp3Stream('192kbps', RATE);
  const audio = Buffer.concat([encoder.write(left, right), encoder.finish()]);
  return Object.keys(tags).length ? Buffer.concat([id3(tags), audio]) : audio;
}

export const wavOf = ([left, right]: [Float32Array, Float32Array]) => encodeWav(left, right, RATE);

/** A valid 16-bit stereo WAV of silence, written directly (large files in no time). */
export function silentWav(seconds: number): Buffer {
  const dataBytes = Math.round(RATE * seconds) * 4;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(2, 22);
  header.writeUInt32LE(RATE, 24);
  header.writeUInt32LE(RATE * 4, 28);
  header.writeUInt16LE(4, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(dataBytes, 40);
  return Buffer.concat([header, Buffer.alloc(dataBytes)]);
}

export interface FilePart {
  data: Buffer;
  filename?: string;
  contentType?: string;
  field?: string;
}

/** A multipart/form-data body: text fields first, then the file part (if any). */
export function form(fields: Record<string, string>, file?: FilePart) {
  const boundary = `----station-test-${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.filename ?? 'song.mp3'}"\r\nContent-Type: ${file.contentType ?? 'audio/mpeg'}\r\n\r\n`;
    parts.push(Buffer.from(head), file.data, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export function upload(station: Station, login: { token: string; csrf: string }, fields: Record<string, string>, file?: FilePart) {
  const body = form(fields, file);
  return station.http.inject({ method: 'POST', url: '/v1/tracks', headers: { ...bearer(login), ...body.headers }, payload: body.payload });
}

/** An artist owned by `ownerUserId`; only a verified or platform-owned artist's tracks reach the radio. */
export async function artistFor(station: Station, ownerUserId: string | null, platformOwned = false, verified = false) {
  const slug = `uploader-${randomBytes(4).toString('hex')}`;
  const [artist] = await station.database.db
    .insert(artists)
    .values({ slug, name: `Uploader ${slug}`, genre: 'Electronic', ownerUserId, platformOwned, verified })
    .returning();
  return artist;
}

/** Waits until the upload's renditions are rendered and the track is published. */
export async function published(station: Station, login: { token: string; csrf: string }, id: string) {
  const view = await pollUntil(
    `track ${id} published`,
    async () => (await station.http.inject({ method: 'GET', url: `/v1/tracks/${id}/upload`, headers: bearer(login) })).json(),
    (body) => body.status !== 'processing',
    120_000, // decoding and three MP3 renditions; minutes on a loaded CI machine
  );
  if (view.status !== 'published') throw new Error(`upload ${id} ended ${view.status}: ${view.failure}`);
  return view;
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath ?? '', e.name));
}

/** Everything an upload writes: catalog rows, upload records, track blobs, spooled files. */
export async function stored(station: Station) {
  const { db } = station.database;
  const [[trackRows], [uploadRows]] = await Promise.all([db.select({ n: count() }).from(tracks), db.select({ n: count() }).from(trackUploads)]);
  return {
    tracks: trackRows.n,
    uploads: uploadRows.n,
    blobs: (await filesUnder(join(station.config.dataDir, 'blobs', 'tracks'))).length,
    spooled: (await filesUnder(join(station.config.dataDir, 'tmp', 'uploads'))).length,
  };
}

/** Waits for the spooled file of a finished request to be deleted, then compares with `before`. */
export async function expectNothingStored(station: Station, before: Awaited<ReturnType<typeof stored>>) {
  await pollUntil(
    'nothing stored by a refused upload',
    () => stored(station),
    (now) => JSON.stringify(now) === JSON.stringify(before),
    5_000,
  );
}

/** A PCM WAV whose header says what the test needs (any rate, channel count, width), with `frames` frames of silence. */
export function pcmWav({ rate, channels, bits = 16, frames }: { rate: number; channels: number; bits?: number; frames: number }): Buffer {
  const frameBytes = (bits / 8) * channels;
  const dataBytes = frames * frameBytes;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * frameBytes, 28);
  header.writeUInt16LE(frameBytes, 32);
  header.writeUInt16LE(bits, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(dataBytes, 40);
  // 8-bit PCM is unsigned: silence is 128.
  return Buffer.concat([header, Buffer.alloc(dataBytes, bits === 8 ? 128 : 0)]);
}

/** `music` as integers of `bits` bits, with the lowest bits dithered so that a lossy path would show. */
export function integerMusic(seconds: number, bits: 16 | 24): [Int32Array, Int32Array] {
  const [left, right] = music(seconds).map((c) => quantise(c, bits));
  for (let i = 0; i < left.length; i++) {
    left[i] += (i * 7919) % 5;
    right[i] -= (i * 104_729) % 3;
  }
  return [left, right];
}

/** A FLAC file of these integer samples by the station's own encoder (16 or 24 bits, any channel count up to 2). */
export function flacOf(channels: Int32Array[], bits: 16 | 24, rate = RATE): Buffer {
  const encoder = createFlacStream({ sampleRate: rate, channels: channels.length as 1 | 2, bitsPerSample: bits });
  const head = encoder.header();
  const body = encoder.write(channels);
  const end = encoder.finish();
  const file = Buffer.concat([head, body, end.frames]);
  file.set(end.header, 0); // the header again, with the length and the MD5
  return file;
}

/** The sample rate as AIFF's 80-bit extended float. */
function extended80(rate: number): Buffer {
  const out = Buffer.alloc(10);
  const exponent = Math.floor(Math.log2(rate));
  out.writeUInt16BE(16383 + exponent, 0);
  const mantissa = BigInt(rate) << BigInt(63 - exponent);
  out.writeBigUInt64BE(mantissa, 2);
  return out;
}

/**
 * An AIFF (or AIFF-C) file of these integer samples, written by hand from the AIFF 1.3 / AIFF-C layout:
 * FORM, COMM (channels, frames, bits, rate), SSND (offset, block size, big-endian samples; `sowt`: little-endian).
 */
export function aiffOf(channels: Int32Array[], bits: 8 | 16 | 24, { rate = RATE, compression }: { rate?: number; compression?: 'NONE' | 'sowt' } = {}): Buffer {
  const frames = channels[0].length;
  const width = bits / 8;
  const data = Buffer.alloc(frames * channels.length * width);
  let at = 0;
  for (let f = 0; f < frames; f++) {
    for (const channel of channels) {
      if (compression === 'sowt') data.writeIntLE(channel[f], at, width);
      else data.writeIntBE(channel[f], at, width);
      at += width;
    }
  }
  const aifc = compression !== undefined;
  const commBody = Buffer.alloc(aifc ? 24 : 18);
  commBody.writeUInt16BE(channels.length, 0);
  commBody.writeUInt32BE(frames, 2);
  commBody.writeUInt16BE(bits, 6);
  extended80(rate).copy(commBody, 8);
  if (aifc) commBody.write(compression, 18, 'latin1'); // then an empty Pascal string (2 bytes: length 0, pad)
  const chunk = (id: string, body: Buffer) => {
    const head = Buffer.alloc(8);
    head.write(id, 0, 'latin1');
    head.writeUInt32BE(body.length, 4);
    return Buffer.concat([head, body, Buffer.alloc(body.length % 2)]);
  };
  const ssnd = chunk('SSND', Buffer.concat([Buffer.alloc(8), data]));
  const form = Buffer.concat([Buffer.from(aifc ? 'AIFC' : 'AIFF', 'latin1'), chunk('COMM', commBody), ssnd]);
  return chunk('FORM', form);
}
