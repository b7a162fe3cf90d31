/**
 * Storage for audio masters, waveforms and cover art. The embedded default is the filesystem under
 * DATA_DIR; the app serves it at signed, expiring URLs (see url-signer.ts), which is the "CDN".
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
  put(key: string, data: Buffer | Readable): Promise<BlobInfo>;
  get(key: string): Promise<Buffer>;
  /** A byte range, both ends inclusive, as in HTTP Range. */
  stream(key: string, range?: { start: number; end: number }): Readable;
  stat(key: string): Promise<BlobInfo | null>;
  delete(key: string): Promise<void>;
}

const KEY_PATTERN = /^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*$/i;

export function assertBlobKey(key: string): void {
  if (!KEY_PATTERN.test(key) || key.includes('..')) throw new RangeError(`invalid blob key: ${key}`);
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

  get(key: string): Promise<Buffer> {
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
