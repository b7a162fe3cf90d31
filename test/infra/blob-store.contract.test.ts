/**
 * The BlobStore contract, run against the filesystem store and the object store (S3BlobStore on a local
 * S3-compatible server, test/infra/s3-server.ts): whole and streamed puts, ranged streams, stat, delete,
 * missing and invalid keys, a failed put that leaves nothing behind, and a multipart-sized object.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileBlobStore, type BlobStore } from '../../src/infra/blobs/blob-store.js';
import { S3BlobStore } from '../../src/infra/blobs/s3-blob-store.js';
import { startLocalS3, type LocalS3 } from './s3-server.js';

interface Backend {
  name: string;
  open(): Promise<{ store: BlobStore; close(): Promise<void> }>;
}

let s3: LocalS3;
beforeAll(async () => {
  s3 = await startLocalS3();
});
afterAll(async () => {
  await s3?.close();
});

const backends: Backend[] = [
  {
    name: 'FileBlobStore',
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'station-blobs-'));
      return { store: new FileBlobStore(dir), close: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  },
  {
    name: 'S3BlobStore',
    async open() {
      const store = new S3BlobStore(await s3.bucket());
      return { store, close: async () => store.close() };
    },
  },
];

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Fails with `error` once `bytes` bytes have been read: a client that hangs up mid-upload. */
function failingAfter(bytes: number, error = new Error('client went away')): Readable {
  const chunk = 256 * 1024;
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= bytes) {
        this.destroy(error);
        return;
      }
      const size = Math.min(chunk, bytes - sent);
      sent += size;
      this.push(randomBytes(size));
    },
  });
}

/** `total` bytes of a repeatable pattern, produced in 64 KiB chunks (never one buffer). */
function patterned(total: number): Readable {
  const chunk = 64 * 1024;
  let offset = 0;
  return new Readable({
    read() {
      if (offset >= total) {
        this.push(null);
        return;
      }
      const size = Math.min(chunk, total - offset);
      const buffer = Buffer.alloc(size);
      for (let i = 0; i < size; i++) buffer[i] = ((offset + i) * 7 + ((offset + i) >> 12)) & 0xff;
      offset += size;
      this.push(buffer);
    },
  });
}

const INVALID_KEYS = ['', '/abs/olute.mp3', '../escape.mp3', 'audio/../../escape.mp3', 'audio//double.mp3', 'audio/', '.hidden', 'sp ace.mp3', 'audio/ü.mp3'];

for (const backend of backends) {
  describe(`BlobStore contract: ${backend.name}`, () => {
    let store: BlobStore;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ store, close } = await backend.open());
    });
    afterAll(async () => {
      await close?.();
    });

    const BYTES = Buffer.from(Array.from({ length: 1000 }, (_, i) => (i * 31 + 7) & 0xff));

    it('puts a buffer and gives back its size, its bytes and its stat', async () => {
      expect(await store.put('audio/one.mp3', BYTES)).toEqual({ size: BYTES.length });
      expect((await store.get('audio/one.mp3')).equals(BYTES)).toBe(true);
      expect(await store.stat('audio/one.mp3')).toEqual({ size: BYTES.length });
      expect((await collect(store.stream('audio/one.mp3'))).equals(BYTES)).toBe(true);
    });

    it('puts a stream and an empty blob', async () => {
      const chunks = [BYTES.subarray(0, 100), BYTES.subarray(100, 600), BYTES.subarray(600)];
      expect(await store.put('waveforms/two.json', Readable.from(chunks))).toEqual({ size: BYTES.length });
      expect((await store.get('waveforms/two.json')).equals(BYTES)).toBe(true);
      expect(await store.put('empty.bin', Buffer.alloc(0))).toEqual({ size: 0 });
      expect(await store.stat('empty.bin')).toEqual({ size: 0 });
      expect((await store.get('empty.bin')).length).toBe(0);
    });

    it('replaces a blob put again under the same key', async () => {
      await store.put('covers/three.png', BYTES);
      await store.put('covers/three.png', Buffer.from('new art'));
      expect((await store.get('covers/three.png')).toString()).toBe('new art');
      expect(await store.stat('covers/three.png')).toEqual({ size: 7 });
    });

    it('streams byte ranges with both ends inclusive, the end clamped to the size', async () => {
      await store.put('audio/ranges.mp3', BYTES);
      const range = async (start: number, end: number) => collect(store.stream('audio/ranges.mp3', { start, end }));
      expect((await range(0, 0)).equals(BYTES.subarray(0, 1))).toBe(true);
      expect((await range(10, 19)).equals(BYTES.subarray(10, 20))).toBe(true);
      expect((await range(999, 999)).equals(BYTES.subarray(999))).toBe(true);
      expect((await range(990, 5000)).equals(BYTES.subarray(990))).toBe(true);
    });

    it('answers a missing key: stat null, get and stream fail with ENOENT, delete is harmless', async () => {
      expect(await store.stat('audio/missing.mp3')).toBeNull();
      await expect(store.get('audio/missing.mp3')).rejects.toMatchObject({ code: 'ENOENT' });
      await expect(collect(store.stream('audio/missing.mp3'))).rejects.toMatchObject({ code: 'ENOENT' });
      await expect(collect(store.stream('audio/missing.mp3', { start: 0, end: 9 }))).rejects.toMatchObject({ code: 'ENOENT' });
      await expect(store.delete('audio/missing.mp3')).resolves.toBeUndefined();
    });

    it('deletes a blob: gone for stat, get and stream, and other keys stay', async () => {
      await store.put('audio/doomed.mp3', BYTES);
      await store.put('audio/kept.mp3', BYTES);
      await store.delete('audio/doomed.mp3');
      expect(await store.stat('audio/doomed.mp3')).toBeNull();
      await expect(store.get('audio/doomed.mp3')).rejects.toMatchObject({ code: 'ENOENT' });
      await expect(collect(store.stream('audio/doomed.mp3'))).rejects.toMatchObject({ code: 'ENOENT' });
      expect(await store.stat('audio/kept.mp3')).toEqual({ size: BYTES.length });
    });

    it('refuses invalid keys with a RangeError (stat answers null), and stores nothing', async () => {
      for (const key of INVALID_KEYS) {
        await expect(store.put(key, BYTES), key).rejects.toBeInstanceOf(RangeError);
        await expect(store.put(key, Readable.from([BYTES])), key).rejects.toBeInstanceOf(RangeError);
        await expect(store.get(key), key).rejects.toBeInstanceOf(RangeError);
        expect(() => store.stream(key), key).toThrow(RangeError);
        await expect(store.delete(key), key).rejects.toBeInstanceOf(RangeError);
        expect(await store.stat(key), key).toBeNull();
      }
      expect(await store.stat('escape.mp3')).toBeNull();
    });

    it('leaves nothing under the key when a streamed put fails, small or past the first multipart part', async () => {
      for (const bytes of [10, 9 * 1024 * 1024]) {
        const key = `uploads/failed-${bytes}.wav`;
        await expect(store.put(key, failingAfter(bytes))).rejects.toThrow('client went away');
        expect(await store.stat(key), key).toBeNull();
        await expect(store.get(key)).rejects.toMatchObject({ code: 'ENOENT' });
      }
    });

    it('keeps the old bytes when a streamed put over them fails', async () => {
      await store.put('audio/precious.mp3', BYTES);
      await expect(store.put('audio/precious.mp3', failingAfter(9 * 1024 * 1024))).rejects.toThrow('client went away');
      expect((await store.get('audio/precious.mp3')).equals(BYTES)).toBe(true);
    });

    it('round-trips a streamed object of several parts (12 MB) byte for byte, and its ranges', async () => {
      const total = 12 * 1024 * 1024 + 12345;
      const expected = await collect(patterned(total));
      expect(await store.put('masters/large.wav', patterned(total))).toEqual({ size: total });
      expect(await store.stat('masters/large.wav')).toEqual({ size: total });
      const digest = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
      expect(digest(await collect(store.stream('masters/large.wav')))).toBe(digest(expected));
      // Across the boundary of the first 8 MiB part, and the tail.
      const start = 8 * 1024 * 1024 - 100;
      expect((await collect(store.stream('masters/large.wav', { start, end: start + 199 }))).equals(expected.subarray(start, start + 200))).toBe(true);
      expect((await collect(store.stream('masters/large.wav', { start: total - 10, end: total - 1 }))).equals(expected.subarray(total - 10))).toBe(true);
    });

    it('lets a reader stop early, and serves the next one', async () => {
      await store.put('masters/abandoned.wav', patterned(3 * 1024 * 1024));
      for (let i = 0; i < 5; i++) {
        const stream = store.stream('masters/abandoned.wav');
        await new Promise<void>((resolve, reject) => {
          stream.once('data', () => {
            stream.destroy();
            resolve();
          });
          stream.once('error', reject);
        });
      }
      expect(await store.stat('masters/abandoned.wav')).toEqual({ size: 3 * 1024 * 1024 });
      expect((await store.get('masters/abandoned.wav')).length).toBe(3 * 1024 * 1024);
    });
  });
}
