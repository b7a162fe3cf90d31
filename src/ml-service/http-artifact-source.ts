/**
 * The ML service's ArtifactSource: each ArtifactRef arrives with the signed http(s) `url` the station made
 * for it (protocol.ts). Bytes are fetched once, checked against the ref's sha256 and kept by that hash: in
 * memory (LRU bounded by bytes) and, when a directory is given, on disk, so a restart does not re-download
 * every model. A bad download is never cached. Signed links are bearer credentials: they never reach an
 * error message or a log line.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ArtifactRef, ArtifactSource } from '../engine/engine.js';
import { EngineError } from '../engine/errors.js';

export interface HttpArtifactSourceOptions {
  /** Disk cache directory (created on demand); null keeps artifacts in memory only. */
  cacheDir: string | null;
  /** Memory budget of the LRU (default 256 MiB). */
  memoryBytes?: number;
  /** Largest artifact accepted (default 512 MiB). */
  maxArtifactBytes?: number;
  /** Limit of one download (default 2 minutes). */
  fetchTimeoutMs?: number;
}

const MiB = 1024 * 1024;
const SHA256 = /^[0-9a-f]{64}$/;

export class HttpArtifactSource implements ArtifactSource {
  private readonly memory = new Map<string, Buffer>();
  private memoryUsed = 0;
  private readonly inflight = new Map<string, Promise<Buffer>>();
  private readonly memoryBytes: number;
  private readonly maxArtifactBytes: number;
  private readonly fetchTimeoutMs: number;
  /** Downloads made (cache misses), for tests and logs. */
  downloads = 0;

  constructor(private readonly options: HttpArtifactSourceOptions) {
    this.memoryBytes = options.memoryBytes ?? 256 * MiB;
    this.maxArtifactBytes = options.maxArtifactBytes ?? 512 * MiB;
    this.fetchTimeoutMs = options.fetchTimeoutMs ?? 120_000;
  }

  async read(ref: ArtifactRef & { url?: string }): Promise<Buffer> {
    const sha = ref.sha256.toLowerCase();
    if (!SHA256.test(sha)) throw invalid(ref, 'the ref has no valid sha256');
    const cached = this.fromMemory(sha);
    if (cached) return cached;
    let pending = this.inflight.get(sha);
    if (!pending) {
      pending = this.load(ref, sha).finally(() => this.inflight.delete(sha));
      this.inflight.set(sha, pending);
    }
    return pending;
  }

  private async load(ref: ArtifactRef & { url?: string }, sha: string): Promise<Buffer> {
    const onDisk = await this.fromDisk(sha);
    if (onDisk) return this.remember(sha, onDisk);
    if (!ref.url) throw invalid(ref, 'the ref carries no url to fetch it from');
    const bytes = await fetchUrlBytes(ref.url, { timeoutMs: this.fetchTimeoutMs, maxBytes: this.maxArtifactBytes }).catch((error: Error) => {
      throw invalid(ref, `cannot fetch it: ${error.message}`, { reason: 'FETCH_FAILED' });
    });
    this.downloads++;
    const actual = sha256(bytes);
    if (actual !== sha) {
      throw new EngineError('ARTIFACT_INVALID', `artifact ${ref.blobKey} (${ref.version}) does not match its sha256`, {
        stage: 'artifact',
        details: { blobKey: ref.blobKey, expected: ref.sha256, actual },
      });
    }
    await this.toDisk(sha, bytes);
    return this.remember(sha, bytes);
  }

  private fromMemory(sha: string): Buffer | undefined {
    const bytes = this.memory.get(sha);
    if (bytes) {
      this.memory.delete(sha); // most recently used last
      this.memory.set(sha, bytes);
    }
    return bytes;
  }

  private remember(sha: string, bytes: Buffer): Buffer {
    if (bytes.length > this.memoryBytes || this.memory.has(sha)) return bytes;
    this.memory.set(sha, bytes);
    this.memoryUsed += bytes.length;
    for (const [key, value] of this.memory) {
      if (this.memoryUsed <= this.memoryBytes) break;
      this.memory.delete(key);
      this.memoryUsed -= value.length;
    }
    return bytes;
  }

  private async fromDisk(sha: string): Promise<Buffer | null> {
    if (!this.options.cacheDir) return null;
    const bytes = await readFile(join(this.options.cacheDir, sha)).catch(() => null);
    // A file damaged on disk is ignored (and replaced by the next download).
    return bytes && sha256(bytes) === sha ? bytes : null;
  }

  private async toDisk(sha: string, bytes: Buffer): Promise<void> {
    const dir = this.options.cacheDir;
    if (!dir) return;
    try {
      await mkdir(dir, { recursive: true });
      const temporary = join(dir, `${sha}.${process.pid}.${Date.now()}.tmp`);
      await writeFile(temporary, bytes, { mode: 0o600 });
      await rename(temporary, join(dir, sha));
    } catch {
      // The disk cache is an optimisation: a full or read-only disk must not fail the request.
    }
  }
}

/** GETs an http(s) URL into a Buffer, with a time limit and a size limit. Errors never repeat the URL. */
export async function fetchUrlBytes(url: string, limits: { timeoutMs: number; maxBytes: number }): Promise<Buffer> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error('the url is not valid');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('the url is not http(s)');
  let response: Response;
  try {
    response = await fetch(parsed, { signal: AbortSignal.timeout(limits.timeoutMs), redirect: 'follow' });
  } catch (error) {
    const name = (error as Error).name;
    throw new Error(name === 'TimeoutError' ? `no answer within ${limits.timeoutMs} ms` : `${parsed.host} is unreachable`, { cause: error });
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    throw new Error(`${parsed.host} answered HTTP ${response.status}`);
  }
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > limits.maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw new Error(`it is larger than ${limits.maxBytes} bytes`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response.body ?? []) {
      size += chunk.byteLength;
      if (size > limits.maxBytes) throw new Error(`it is larger than ${limits.maxBytes} bytes`);
      chunks.push(Buffer.from(chunk));
    }
  } catch (error) {
    // Our own words only: a socket's error text does not travel on in an error message.
    if (size > limits.maxBytes) throw error;
    throw new Error(`the download from ${parsed.host} was interrupted`, { cause: error });
  }
  return Buffer.concat(chunks, size);
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function invalid(ref: ArtifactRef, why: string, details: Record<string, unknown> = {}): EngineError {
  return new EngineError('ARTIFACT_INVALID', `artifact ${ref.blobKey} (${ref.version}): ${why}`, {
    stage: 'artifact',
    details: { blobKey: ref.blobKey, ...details },
  });
}
