/**
 * A station configured with the S3_* variables keeps an uploaded track's master and renditions in the object
 * store (a local S3-compatible server, test/infra/s3-server.ts), nothing under DATA_DIR/blobs, and serves them
 * through either kind of link: station-signed /media links it proxies from the store (the default), or the
 * store's own presigned URLs (STATION_MEDIA_LINKS=presigned) that the listener fetches from the store, and
 * that the web pages' Content-Security-Policy then allows.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMp3 } from '../../src/engine/audio/mp3-frames.js';
import { registerWeb } from '../../src/http/web.js';
import { S3Presigner } from '../../src/infra/blobs/s3-presigner.js';
import { renditionKeys } from '../../src/platform/uploads/view.js';
import { buildTestStation, type TestStation } from '../helpers/station.js';
import { S3_KEYS, startLocalS3, type LocalS3 } from '../infra/s3-server.js';
import { bearer, loginAs } from './accounts-support.js';
import { artistFor, mp3Of, music, published, upload } from './uploads-support.js';

let s3: LocalS3;
let admin: S3Client;
beforeAll(async () => {
  s3 = await startLocalS3();
  admin = new S3Client({ endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: S3_KEYS });
});
afterAll(async () => {
  admin?.destroy();
  await s3?.close();
});

async function objectsIn(bucket: string): Promise<string[]> {
  const listing = await admin.send(new ListObjectsV2Command({ Bucket: bucket }));
  return (listing.Contents ?? []).map((object) => object.Key!).sort();
}

/** Uploads a short MP3 as an artist, waits for its renditions, and answers the track's upload view. */
async function uploadedTrack(station: TestStation) {
  const owner = await loginAs(station, 'artist');
  await artistFor(station, owner.userId);
  const answer = await upload(station, owner, { title: 'Stored Elsewhere', genre: 'Ambient' }, { data: await mp3Of(music(1.2)) });
  expect(answer.statusCode, answer.body).toBe(202);
  return published(station, owner, answer.json().id);
}

async function streamLink(station: TestStation, trackId: string, quality: string): Promise<string> {
  const listener = await loginAs(station, 'listener');
  const redirect = await station.http.inject({ method: 'GET', url: `/v1/tracks/${trackId}/stream?quality=${quality}`, headers: bearer(listener) });
  expect(redirect.statusCode, redirect.body).toBe(302);
  return String(redirect.headers.location);
}

for (const mode of ['proxy', 'presigned'] as const) {
  describe(`media in an object store, ${mode} links`, () => {
    let station: TestStation;
    let bucket: string;

    beforeAll(async () => {
      const env = await s3.env();
      bucket = env.S3_BUCKET;
      // The FakeEngine: the renditions stored and served are the RenditionPool's; the engine only extracts features.
      station = await buildTestStation({ ...env, ...(mode === 'presigned' ? { STATION_MEDIA_LINKS: 'presigned' } : {}) }, { fakeEngine: true });
    });
    afterAll(async () => {
      await station?.destroy();
    });

    it('stores the master and renditions in the bucket and serves each rendition, whole and by range', async () => {
      const view = await uploadedTrack(station);
      const keys = new Map(renditionKeys(view.id));
      // The track's own objects (the live stream's HLS segments share the bucket: hls/live/...).
      const trackObjects = (await objectsIn(bucket)).filter((key) => key.startsWith('tracks/'));
      expect(trackObjects).toEqual([`tracks/${view.id}/master.mp3`, ...keys.values()].sort());
      expect((await objectsIn(bucket)).filter((key) => !key.startsWith('tracks/') && !key.startsWith('hls/live/'))).toEqual([]);
      expect(await readdir(join(station.config.dataDir, 'blobs')).catch(() => [])).toEqual([]);

      for (const rendition of view.renditions as { bitrate_kbps: number; size_bytes: number; quality: string }[]) {
        const link = await streamLink(station, view.id, rendition.quality);
        const key = keys.get(rendition.bitrate_kbps)!;
        let get: (range?: string) => Promise<{ status: number; headers: (name: string) => string | undefined; body: Buffer }>;
        if (mode === 'proxy') {
          const url = new URL(link);
          expect(url.origin).toBe('http://station.test');
          expect(url.pathname).toBe(`/media/${key}`);
          get = async (range) => {
            const answer = await station.http.inject({ method: 'GET', url: url.pathname + url.search, headers: range ? { range } : {} });
            return { status: answer.statusCode, headers: (name) => answer.headers[name] as string | undefined, body: answer.rawPayload };
          };
        } else {
          // The listener goes to the store itself, not through the station.
          expect(link.startsWith(`${s3.endpoint}/${bucket}/${key}?X-Amz-Algorithm=AWS4-HMAC-SHA256&`)).toBe(true);
          get = async (range) => {
            const answer = await fetch(link, { headers: range ? { range } : {} });
            return { status: answer.status, headers: (name) => answer.headers.get(name) ?? undefined, body: Buffer.from(await answer.arrayBuffer()) };
          };
        }
        const whole = await get();
        expect(whole.status).toBe(200);
        expect(whole.headers('content-type')).toBe('audio/mpeg');
        expect(Number(whole.headers('content-length'))).toBe(rendition.size_bytes);
        expect(whole.body.length).toBe(rendition.size_bytes);
        expect(new Set(parseMp3(whole.body).frames.map((f) => f.bitrateKbps))).toEqual(new Set([rendition.bitrate_kbps]));

        const head = await get('bytes=0-99');
        expect(head.status).toBe(206);
        expect(head.headers('content-range')).toBe(`bytes 0-99/${rendition.size_bytes}`);
        expect(head.body.equals(whole.body.subarray(0, 100))).toBe(true);
        const tail = await get(`bytes=${rendition.size_bytes - 500}-`);
        expect(tail.status).toBe(206);
        expect(tail.body.equals(whole.body.subarray(rendition.size_bytes - 500))).toBe(true);
      }
    }, 180_000);
  });
}

describe('the web pages with presigned media links', () => {
  it("allow images, audio and fetches from the store's origin, beside PUBLIC_BASE_URL", async () => {
    const root = mkdtempSync(join(tmpdir(), 'station-web-'));
    writeFileSync(join(root, 'index.html'), '<!doctype html><title>Station radio</title>');
    const presigner = new S3Presigner(
      { endpoint: 'http://minio:9000', bucket: 'media', region: 'us-east-1', credentials: S3_KEYS, forcePathStyle: false },
      'https://cdn.example.com:8443/',
    );
    expect(presigner.origin).toBe('https://media.cdn.example.com:8443');
    const app = Fastify();
    await registerWeb(app, { publicBaseUrl: 'https://radio.example.com', root, mediaOrigin: presigner.origin });
    try {
      const csp = String((await app.inject({ url: '/' })).headers['content-security-policy']);
      for (const directive of ['img-src', 'media-src', 'connect-src']) {
        expect(csp).toMatch(new RegExp(`${directive} 'self' https://radio\\.example\\.com https://media\\.cdn\\.example\\.com:8443 `));
      }
      expect(csp).toContain("script-src 'self'");
    } finally {
      await app.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
