/**
 * Presigned GET URLs of the object store (AWS Signature Version 4, query-string form), so that listeners, a
 * CDN or the ML service fetch media from the store itself instead of through the station.
 *
 * Written here rather than taken from @aws-sdk/s3-request-presigner because links are built inside
 * synchronous views (UrlSigner.sign) and the SDK's presigner is asynchronous; the algorithm is small and
 * test/infra/s3-presigner.test.ts checks that it signs exactly as the SDK's presigner does.
 * Only static keys can sign this way: the SDK's other credential sources are asynchronous and expire.
 */
import { createHash, createHmac } from 'node:crypto';
import type { S3Location } from './s3-blob-store.js';

/** SigV4 refuses links valid for longer than 7 days. */
export const MAX_PRESIGN_SEC = 7 * 24 * 3600;

export interface Presigner {
  /** A GET URL for the key, signed at `signedAt` and valid until `expiresAt` (both unix seconds). */
  presign(key: string, signedAt: number, expiresAt: number): string;
}

const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();
const sha256Hex = (data: string) => createHash('sha256').update(data, 'utf8').digest('hex');

/** RFC 3986 escaping, as SigV4 wants it: encodeURIComponent leaves !'()* alone. */
function rfc3986(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** 20130524T000000Z */
function amzDate(unixSeconds: number): string {
  return new Date(unixSeconds * 1000)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

export class S3Presigner implements Presigner {
  /** Where the links point (scheme, host and port), for the web pages' Content-Security-Policy. */
  readonly origin: string;
  private readonly host: string;
  private readonly pathPrefix: string;
  private readonly accessKeyId: string;
  private readonly secretAccessKey: string;
  private readonly region: string;
  private signingKeyMemo: { day: string; key: Buffer } | null = null;

  /**
   * @param publicEndpoint the store's address as link holders reach it (S3_PUBLIC_ENDPOINT), when it differs
   *   from the one the station uses; the link is signed for that host, so a proxy in front must keep it.
   */
  constructor(location: S3Location, publicEndpoint: string | null = null) {
    if (!location.credentials) throw new Error('presigned links need S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY');
    this.accessKeyId = location.credentials.accessKeyId;
    this.secretAccessKey = location.credentials.secretAccessKey;
    this.region = location.region;
    const endpoint = new URL(publicEndpoint ?? location.endpoint ?? `https://s3.${location.region}.amazonaws.com`);
    const basePath = endpoint.pathname.replace(/\/+$/, '');
    // Dotted bucket names break TLS on virtual hosts (*.s3.amazonaws.com); the SDK falls back to paths too.
    if (location.forcePathStyle || location.bucket.includes('.')) {
      this.host = endpoint.host;
      this.pathPrefix = `${basePath}/${rfc3986(location.bucket)}`;
    } else {
      this.host = `${location.bucket}.${endpoint.host}`;
      this.pathPrefix = basePath;
    }
    this.origin = `${endpoint.protocol}//${this.host}`;
  }

  private signingKey(day: string): Buffer {
    if (this.signingKeyMemo?.day !== day) {
      const dateKey = hmac(`AWS4${this.secretAccessKey}`, day);
      this.signingKeyMemo = { day, key: hmac(hmac(hmac(dateKey, this.region), 's3'), 'aws4_request') };
    }
    return this.signingKeyMemo.key;
  }

  presign(key: string, signedAt: number, expiresAt: number): string {
    const expires = expiresAt - signedAt;
    if (expires <= 0 || expires > MAX_PRESIGN_SEC) throw new RangeError(`a presigned link lasts 1 s to 7 days; asked for ${expires} s`);
    const date = amzDate(signedAt);
    const day = date.slice(0, 8);
    const scope = `${day}/${this.region}/s3/aws4_request`;
    const path = `${this.pathPrefix}/${key.split('/').map(rfc3986).join('/')}`;
    // Already in the sorted order SigV4 wants; the same parameters as the SDK's presigner (x-id is its
    // operation hint, which S3 ignores but which the signature covers).
    const query = [
      ['X-Amz-Algorithm', 'AWS4-HMAC-SHA256'],
      ['X-Amz-Content-Sha256', 'UNSIGNED-PAYLOAD'],
      ['X-Amz-Credential', `${this.accessKeyId}/${scope}`],
      ['X-Amz-Date', date],
      ['X-Amz-Expires', String(expires)],
      ['X-Amz-SignedHeaders', 'host'],
      ['x-id', 'GetObject'],
    ]
      .map(([name, value]) => `${name}=${rfc3986(value)}`)
      .join('&');
    const canonicalRequest = ['GET', path, query, `host:${this.host}`, '', 'host', 'UNSIGNED-PAYLOAD'].join('\n');
    const stringToSign = ['AWS4-HMAC-SHA256', date, scope, sha256Hex(canonicalRequest)].join('\n');
    const signature = createHmac('sha256', this.signingKey(day)).update(stringToSign, 'utf8').digest('hex');
    return `${this.origin}${path}?${query}&X-Amz-Signature=${signature}`;
  }
}
