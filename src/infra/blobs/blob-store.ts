/**
 * Storage for audio masters, renditions, waveforms, cover art, models and checkpoints. The embedded default is
 * the filesystem under DATA_DIR; S3BlobStore (s3-blob-store.ts) keeps them in an S3-compatible object store
 * shared by instances on several machines. Links to them are signed by url-signer.ts.
 * Both stores pass the same contract: test/infra/blob-store.contract.test.ts.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile, readFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomUUID } from 'node:crypto';

export interface BlobInfo {
  size: number;
}

export interface BlobStore {
  /** Stores the whole blob or nothing: a put that fails leaves the key as it was (absent, or the old bytes). */
  put(key: string, data: Buffer | Readable): Promise<BlobInfo>;
  /** Rejects with code ENOENT when there is no such blob. */
  get(key: string): Promise<Buffer>;
  /** A byte range, both ends inclusive, as in HTTP Range; a missing blob fails the stream with code ENOENT. */
  stream(key: string, range?: { start: number; end: number }): Readable;
  /** Null when there is no such blob (or the key is not a valid key). */
  stat(key: string): Promise<BlobInfo | null>;
  /** Deleting a missing blob is not an error. */
  delete(key: string): Promise<void>;
}

const KEY_PATTERN = /^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*$/i;

export function assertBlobKey(key: string): void {
  if (!KEY_PATTERN.test(key) || key.includes('..')) throw new RangeError(`invalid blob key: ${key}`);
}

/** The error of a missing blob, shaped like the filesystem's, so callers test one code whichever store it is. */
export function blobNotFound(key: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`no blob under ${key}`), { code: 'ENOENT' });
}

export class FileBlobStore implements BlobStore {
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  private pathOf(key: string): string {
    assertBlobKey(key);
    const path = resolve(join(this.root, key));
    if (!path.startsWith(this.root + sep)) throw new RangeError(`invalid blob key: ${key}`);
    return path;
  }

  async put(key: string, data: Buffer | Readable): Promise<BlobInfo> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    // Write to a temporary name and rename: a crash mid-write never leaves a truncated blob under the real key.
    const temporary = `${path}.${randomUUID()}.part`;
    try {
      if (Buffer.isBuffer(data)) await writeFile(temporary, data);
      else await pipeline(data, createWriteStream(temporary));
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    return { size: (await stat(path)).size };
  }

  async get(key: string): Promise<Buffer> {
    return readFile(this.pathOf(key));
  }

  stream(key: string, range?: { start: number; end: number }): Readable {
    return createReadStream(this.pathOf(key), range ? { start: range.start, end: range.end } : undefined);
  }

  async stat(key: string): Promise<BlobInfo | null> {
    try {
      const info = await stat(this.pathOf(key));
      return info.isFile() ? { size: info.size } : null;
    } catch {
      return null;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }
}
