/**
 * A local S3-compatible server for the tests: s3rver (dev dependency) in this process, on a loopback port,
 * keeping its objects in a temporary directory that close() deletes. It speaks the S3 REST API the SDK uses
 * (PutObject, multipart uploads, ranged GetObject, HeadObject, DeleteObject) and checks that requests are
 * signed by a known key and not expired, though not the V4 signature itself (s3-presigner.test.ts does that).
 * Two gaps of s3rver 3.7.1: AbortMultipartUpload is refused (so the tests cannot see aborted parts go; they
 * check that no object appears), and "bytes=0-0" is read as the whole object, corrected below.
 */
import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import type { S3Location } from '../../src/infra/blobs/s3-blob-store.js';

/** s3rver's one account. */
export const S3_KEYS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface LocalS3 {
  endpoint: string;
  /** Creates an empty bucket and answers where it is, as S3BlobStore takes it. */
  bucket(): Promise<S3Location>;
  /** The S3_* variables of a fresh bucket, as an operator would set them. */
  env(): Promise<Record<string, string>>;
  close(): Promise<void>;
}

/**
 * s3rver's store takes a range's end as `options.end || Infinity`, so "bytes=0-0" (a player's first probe)
 * answers the whole object; S3 answers the first byte, as HTTP says. The store answers that here.
 */
function answerFirstByteRange(server: S3rver): void {
  const store = server.store;
  const getObject = store.getObject.bind(store);
  store.getObject = async (bucket, key, options) => {
    const object = await getObject(bucket, key, options);
    if (options?.start !== 0 || options.end !== 0 || !object?.content) return object;
    object.content.destroy();
    object.content = createReadStream(store.getResourcePath(bucket, key, 'object'), { start: 0, end: 0 });
    object.range = { start: 0, end: 0 };
    return object;
  };
}

export async function startLocalS3(): Promise<LocalS3> {
  const directory = mkdtempSync(join(tmpdir(), 'station-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
  answerFirstByteRange(server);
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const admin = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: S3_KEYS });
  const bucket = async (): Promise<S3Location> => {
    const name = `station-${randomBytes(6).toString('hex')}`;
    await admin.send(new CreateBucketCommand({ Bucket: name }));
    return { endpoint, bucket: name, region: 'us-east-1', credentials: S3_KEYS, forcePathStyle: true };
  };
  return {
    endpoint,
    bucket,
    async env() {
      const location = await bucket();
      return {
        S3_ENDPOINT: endpoint,
        S3_BUCKET: location.bucket,
        S3_REGION: location.region,
        S3_ACCESS_KEY_ID: S3_KEYS.accessKeyId,
        S3_SECRET_ACCESS_KEY: S3_KEYS.secretAccessKey,
        S3_FORCE_PATH_STYLE: 'true',
      };
    },
    async close() {
      admin.destroy();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
