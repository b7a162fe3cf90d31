/**
 * The BlobStore on an S3-compatible object store (AWS S3, MinIO, Ceph, R2, ...), chosen by the S3_* variables,
 * so that instances on different machines share masters, renditions, waveforms, art and models.
 *
 * - put(Buffer) is one PutObject; put(Readable) is a multipart upload (@aws-sdk/lib-storage) holding at most
 *   QUEUE_SIZE parts of PART_SIZE in memory, never the whole file. S3 makes an object visible only when its
 *   PutObject or CompleteMultipartUpload succeeds, and a failed multipart upload is aborted, so a failed put
 *   leaves the key as it was.
 * - stream() must answer synchronously (the BlobStore contract): it returns a PassThrough fed by the GetObject
 *   once it answers; errors (a missing key is ENOENT) destroy it, and destroying it aborts the request.
 */
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { assertBlobKey, blobNotFound, type BlobInfo, type BlobStore } from './blob-store.js';
import { contentTypeOf } from './content-types.js';

/** Where the objects are: S3_ENDPOINT, S3_BUCKET, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_FORCE_PATH_STYLE. */
export interface S3Location {
  /** Null: AWS S3 itself (https://s3.<region>.amazonaws.com). */
  endpoint: string | null;
  bucket: string;
  region: string;
  /** Null: the SDK's default credential chain (environment, profile, instance role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  /** Bucket in the path (http://host/bucket/key) instead of the host name; what MinIO and most servers need. */
  forcePathStyle: boolean;
}

/** S3's smallest part is 5 MiB; 8 MiB parts keep a 1 GB master under 128 parts. */
const PART_SIZE = 8 * 1024 * 1024;
const QUEUE_SIZE = 2;
/** Listeners stream through the station in proxy mode: one socket per stream in flight, so more than the SDK's 50. */
const MAX_SOCKETS = 256;

function isNotFound(error: unknown): boolean {
  return error instanceof S3ServiceException && (error.name === 'NotFound' || error.name === 'NoSuchKey' || error.$metadata.httpStatusCode === 404);
}

export class S3BlobStore implements BlobStore {
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(location: S3Location) {
    this.bucket = location.bucket;
    this.client = new S3Client({
      endpoint: location.endpoint ?? undefined,
      region: location.region,
      forcePathStyle: location.forcePathStyle,
      credentials: location.credentials ?? undefined,
      // Checksums only where S3 requires them: several S3-compatible servers refuse the newer CRC headers.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      requestHandler: { httpAgent: { keepAlive: true, maxSockets: MAX_SOCKETS }, httpsAgent: { keepAlive: true, maxSockets: MAX_SOCKETS } },
    });
  }

  async put(key: string, data: Buffer | Readable): Promise<BlobInfo> {
    assertBlobKey(key);
    const target = { Bucket: this.bucket, Key: key, ContentType: contentTypeOf(key) };
    if (Buffer.isBuffer(data)) {
      await this.client.send(new PutObjectCommand({ ...target, Body: data, ContentLength: data.length }));
      return { size: data.length };
    }
    // The parts are aborted here rather than by Upload, whose failed abort would replace the put's own error.
    const upload = new Upload({ client: this.client, params: { ...target, Body: data }, partSize: PART_SIZE, queueSize: QUEUE_SIZE, leavePartsOnError: true });
    try {
      await upload.done();
    } catch (error) {
      // Parts of an unfinished upload are never an object; aborting frees their storage (a bucket lifecycle
      // rule that aborts incomplete multipart uploads catches the ones this misses).
      if (upload.uploadId) {
        await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: upload.uploadId })).catch(() => undefined);
      }
      throw error;
    } finally {
      // Upload stops reading when a part fails; the source must not stay open (a spooled file, a socket).
      if (!data.readableEnded) data.destroy();
    }
    const info = await this.stat(key);
    if (!info) throw new Error(`the object store lost ${key} right after storing it`);
    return info;
  }

  async get(key: string): Promise<Buffer> {
    assertBlobKey(key);
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      const bytes = await answer.Body!.transformToByteArray();
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    } catch (error) {
      throw isNotFound(error) ? blobNotFound(key) : error;
    }
  }

  stream(key: string, range?: { start: number; end: number }): Readable {
    assertBlobKey(key);
    const out = new PassThrough();
    const abort = new AbortController();
    out.once('close', () => abort.abort());
    const request = new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end}` : undefined });
    this.client
      .send(request, { abortSignal: abort.signal })
      // In Node the SDK's Body is an IncomingMessage, a Readable; its type also covers browsers' streams.
      .then((answer) => pipeline(answer.Body as Readable, out))
      .catch((error: unknown) => {
        // A reader that went away (out destroyed) already has its answer; anything else fails the stream.
        if (!out.destroyed) out.destroy(isNotFound(error) ? blobNotFound(key) : (error as Error));
      });
    return out;
  }

  async stat(key: string): Promise<BlobInfo | null> {
    try {
      assertBlobKey(key);
    } catch {
      return null;
    }
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: head.ContentLength ?? 0 };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertBlobKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  /** Closes the idle keep-alive sockets. */
  close(): void {
    this.client.destroy();
  }
}
