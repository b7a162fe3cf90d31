/**
 * The station's synchronous SigV4 presigner against the reference, the SDK's own presigner
 * (@aws-sdk/s3-request-presigner, dev only): path-style and virtual-hosted links, several keys, expiries and
 * regions, signed at the same instant, must come out identical. Then UrlSigner with a presigner: stable links per 10-minute step, expiry at most 7 days.
 */
import { describe, expect, it } from 'vitest';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { ManualClock } from '../../src/infra/clock/clock.js';
import type { S3Location } from '../../src/infra/blobs/s3-blob-store.js';
import { S3Presigner } from '../../src/infra/blobs/s3-presigner.js';
import { UrlSigner } from '../../src/infra/blobs/url-signer.js';

/** AWS's documentation keys. */
const AWS_EXAMPLE_KEYS = { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' };

/** The SDK's presigned URL for the same request at the same time, query parameters sorted for comparison. */
async function sdkPresigned(location: S3Location, key: string, signedAt: number, expires: number): Promise<string> {
  const client = new S3Client({
    endpoint: location.endpoint ?? undefined,
    region: location.region,
    forcePathStyle: location.forcePathStyle,
    credentials: location.credentials!,
    // As S3BlobStore's client: no checksum parameters on GETs.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  try {
    const url = await getSignedUrl(client, new GetObjectCommand({ Bucket: location.bucket, Key: key }), {
      expiresIn: expires,
      signingDate: new Date(signedAt * 1000),
    });
    return normalised(url);
  } finally {
    client.destroy();
  }
}

/** The SDK orders the parameters its own way. */
function normalised(link: string): string {
  const url = new URL(link);
  url.searchParams.sort();
  return url.toString();
}

describe('S3Presigner', () => {
  const locations: [string, S3Location][] = [
    [
      'path style on a local endpoint with a port',
      { endpoint: 'http://127.0.0.1:9000', bucket: 'media', region: 'us-east-1', credentials: AWS_EXAMPLE_KEYS, forcePathStyle: true },
    ],
    [
      'virtual-hosted on AWS in another region',
      { endpoint: null, bucket: 'station-media', region: 'eu-west-3', credentials: AWS_EXAMPLE_KEYS, forcePathStyle: false },
    ],
    [
      'a dotted bucket name on AWS (path style, as TLS needs)',
      { endpoint: null, bucket: 'media.example.org', region: 'us-east-1', credentials: AWS_EXAMPLE_KEYS, forcePathStyle: false },
    ],
    [
      'virtual-hosted on a custom https endpoint',
      { endpoint: 'https://objects.example.net', bucket: 'station', region: 'auto', credentials: AWS_EXAMPLE_KEYS, forcePathStyle: false },
    ],
  ];
  const keys = ['audio/0b9c6a1e-4f7e-4d1a-9b0e-2f1f3c4d5e6f.mp3', 'tracks/abc/rendition-128.mp3', 'covers/x_y-z.png', 'a.b/c.d/e'];

  for (const [name, location] of locations) {
    it(`signs exactly as the SDK does: ${name}`, async () => {
      const presigner = new S3Presigner(location);
      const signedAt = Date.UTC(2026, 10, 27, 12, 40) / 1000;
      for (const key of keys) {
        for (const expires of [900, 3600, 86400, 7 * 86400]) {
          expect(normalised(presigner.presign(key, signedAt, signedAt + expires)), `${key} ${expires}`).toBe(
            await sdkPresigned(location, key, signedAt, expires),
          );
        }
      }
    });
  }

  it('signs links for a public endpoint other than the one the station uses', async () => {
    const inside: S3Location = { endpoint: 'http://minio:9000', bucket: 'media', region: 'us-east-1', credentials: AWS_EXAMPLE_KEYS, forcePathStyle: true };
    const presigner = new S3Presigner(inside, 'https://media.example.com');
    const signedAt = Date.UTC(2026, 0, 1) / 1000;
    const link = presigner.presign('audio/a.mp3', signedAt, signedAt + 600);
    expect(link.startsWith('https://media.example.com/media/audio/a.mp3?')).toBe(true);
    expect(normalised(link)).toBe(await sdkPresigned({ ...inside, endpoint: 'https://media.example.com' }, 'audio/a.mp3', signedAt, 600));
  });

  it('refuses to sign without static keys, and a link outside 1 s to 7 days', () => {
    expect(() => new S3Presigner({ endpoint: null, bucket: 'b', region: 'us-east-1', credentials: null, forcePathStyle: false })).toThrow(/S3_ACCESS_KEY_ID/);
    const presigner = new S3Presigner(locations[0][1]);
    expect(() => presigner.presign('a.mp3', 1000, 1000)).toThrow(RangeError);
    expect(() => presigner.presign('a.mp3', 1000, 1000 + 7 * 86400 + 1)).toThrow(RangeError);
  });
});

describe('UrlSigner with a presigner', () => {
  const presigner = new S3Presigner({
    endpoint: 'http://127.0.0.1:9000',
    bucket: 'media',
    region: 'us-east-1',
    credentials: AWS_EXAMPLE_KEYS,
    forcePathStyle: true,
  });
  const start = Date.UTC(2026, 10, 27, 12, 0, 5);

  it('hands out the same presigned link within a 10-minute step, valid for at least the TTL', () => {
    const clock = new ManualClock(start);
    const signer = new UrlSigner(Buffer.alloc(32, 1), 'http://station.test', clock, presigner);
    const first = signer.sign('audio/a.mp3', 3600);
    expect(first.url.startsWith('http://127.0.0.1:9000/media/audio/a.mp3?X-Amz-Algorithm=AWS4-HMAC-SHA256&')).toBe(true);
    const url = new URL(first.url);
    expect(url.searchParams.get('X-Amz-Date')).toBe('20261127T120000Z');
    const expiresAt = Date.UTC(2026, 10, 27, 12, 0) + Number(url.searchParams.get('X-Amz-Expires')) * 1000;
    expect(expiresAt).toBe(first.expiresAt.getTime());
    expect(expiresAt - start).toBeGreaterThanOrEqual(3600 * 1000);
    expect(expiresAt - start).toBeLessThanOrEqual(3600 * 1000 + 600 * 1000);

    clock.set(start + 4 * 60 * 1000);
    expect(signer.sign('audio/a.mp3', 3600).url).toBe(first.url);
    clock.set(start + 10 * 60 * 1000);
    const next = signer.sign('audio/a.mp3', 3600);
    expect(next.url).not.toBe(first.url);
    expect(new URL(next.url).searchParams.get('X-Amz-Date')).toBe('20261127T121000Z');
  });

  it('caps a presigned link at 7 days, and says so in expiresAt', () => {
    const signer = new UrlSigner(Buffer.alloc(32, 1), 'http://station.test', new ManualClock(start), presigner);
    const link = signer.sign('audio/a.mp3', 30 * 86400);
    expect(new URL(link.url).searchParams.get('X-Amz-Expires')).toBe(String(7 * 86400));
    expect(link.expiresAt.getTime()).toBe(Date.UTC(2026, 10, 27, 12, 0) + 7 * 86400 * 1000);
  });

  it('still verifies station-signed /media links, so links handed out before the switch keep working', () => {
    const clock = new ManualClock(start);
    const secret = Buffer.alloc(32, 1);
    const before = new UrlSigner(secret, 'http://station.test', clock).sign('audio/a.mp3', 3600);
    const after = new UrlSigner(secret, 'http://station.test', clock, presigner);
    const url = new URL(before.url);
    expect(after.verify('audio/a.mp3', url.searchParams.get('exp')!, url.searchParams.get('sig')!)).toBe(true);
  });
});
