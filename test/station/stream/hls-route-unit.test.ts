/**
 * The HLS routes alone, on the filesystem BlobStore and the app's error handler: the contract's envelope for
 * 401 and 403 from `authorize`, 404 before the first segment, and the segment URIs a playlist hands out (the
 * ticket, or a signed link to the blob when media links are presigned).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Errors } from '../../../src/errors.js';
import { registerErrorHandling } from '../../../src/http/error-handler.js';
import { FileBlobStore } from '../../../src/infra/blobs/blob-store.js';
import { HlsBlobCache, hlsRoutes } from '../../../src/station/stream/hls-route.js';

const BASE = '/station/v1/radio/hls';
const PLAYLIST = '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:7\n#EXTINF:3.997,\n7.mp3\n#EXTINF:3.997,\n8.mp3\n';

let dir: string;
let blobs: FileBlobStore;
const apps: FastifyInstance[] = [];

/** Ticket "good" reads; "noscope" is a credential without station:read; anything else is refused. */
async function build(segmentLink?: (key: string) => string): Promise<FastifyInstance> {
  const app = Fastify();
  registerErrorHandling(app);
  await app.register(
    hlsRoutes(blobs, {
      basePath: BASE,
      prefix: 'hls/live',
      segmentLink,
      authorize: async (request) => {
        const { ticket } = request.query as { ticket?: string };
        if (ticket === 'noscope') throw Errors.insufficientScope('station:read');
        if (ticket !== 'good') throw Errors.authRequired('the HLS stream needs a listener ticket');
      },
    }),
  );
  apps.push(app);
  return app;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hls-route-'));
  blobs = new FileBlobStore(dir);
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await rm(dir, { recursive: true, force: true });
});

describe('HLS routes', () => {
  it('answers 404 before the first segment, then the playlist with the ticket on each segment URI', async () => {
    const app = await build();
    const before = await app.inject({ url: `${BASE}/live.m3u8?ticket=good` });
    expect(before.statusCode).toBe(404);
    expect(before.json().error.code).toBe('STATION_NOT_FOUND');

    await blobs.put('hls/live/playlist.m3u8', Buffer.from(PLAYLIST));
    await blobs.put('hls/live/8.mp3', Buffer.from('ID3-and-frames'));
    const playlist = await app.inject({ url: `${BASE}/live.m3u8?ticket=good` });
    expect(playlist.statusCode).toBe(200);
    expect(playlist.headers['content-type']).toBe('application/vnd.apple.mpegurl');
    expect(playlist.body).toBe(PLAYLIST.replace('7.mp3', '7.mp3?ticket=good').replace('8.mp3', '8.mp3?ticket=good'));
    const segment = await app.inject({ url: `${BASE}/8.mp3?ticket=good` });
    expect(segment.statusCode).toBe(200);
    expect(segment.headers['content-type']).toBe('audio/mpeg');
    expect(segment.body).toBe('ID3-and-frames');
    expect((await app.inject({ url: `${BASE}/9.mp3?ticket=good` })).statusCode).toBe(404);
  });

  it('refuses a missing or invalid ticket with 401 and a credential without station:read with 403', async () => {
    const app = await build();
    for (const url of [`${BASE}/live.m3u8`, `${BASE}/live.m3u8?ticket=forged`, `${BASE}/8.mp3`]) {
      const response = await app.inject({ url });
      expect(response.statusCode).toBe(401);
      expect(response.json().error.code).toBe('STATION_AUTH_REQUIRED');
    }
    for (const url of [`${BASE}/live.m3u8?ticket=noscope`, `${BASE}/8.mp3?ticket=noscope`]) {
      const response = await app.inject({ url });
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe('STATION_INSUFFICIENT_SCOPE');
    }
    // Only <digits>.mp3 names a segment: nothing else reaches the blob store (the playlist's own blob is there,
    // yet its name as a segment is a 404 like any name of any shape: ids are opaque).
    await blobs.put('hls/live/playlist.m3u8', Buffer.from(PLAYLIST));
    const notASegment = await app.inject({ url: `${BASE}/playlist.m3u8?ticket=good` });
    expect(notASegment.statusCode).toBe(404);
    expect(notASegment.json().error.code).toBe('STATION_NOT_FOUND');
  });

  it('hands out signed links to the segment blobs when media links are presigned', async () => {
    const app = await build((key) => `https://cdn.example/${key}?X-Amz-Signature=abc`);
    await blobs.put('hls/live/playlist.m3u8', Buffer.from(PLAYLIST));
    const playlist = await app.inject({ url: `${BASE}/live.m3u8?ticket=good` });
    const uris = playlist.body.split('\n').filter((line) => line && !line.startsWith('#'));
    expect(uris).toEqual(['https://cdn.example/hls/live/7.mp3?X-Amz-Signature=abc', 'https://cdn.example/hls/live/8.mp3?X-Amz-Signature=abc']);
  });

  it('reads the playlist at most every half second and a written segment once, and never keeps a miss', async () => {
    // The real file store, counting its reads.
    const reads: string[] = [];
    const store = { get: (key: string) => (reads.push(key), blobs.get(key)) };
    let now = 0;
    const cache = new HlsBlobCache(store, () => now);
    await blobs.put('hls/cache/playlist.m3u8', Buffer.from(PLAYLIST));
    expect((await cache.playlistAt('hls/cache/playlist.m3u8')).toString()).toBe(PLAYLIST);
    now = 499;
    await cache.playlistAt('hls/cache/playlist.m3u8');
    expect(reads).toEqual(['hls/cache/playlist.m3u8']);
    // The next segment is listed: a read half a second after the last one sees it.
    await blobs.put('hls/cache/playlist.m3u8', Buffer.from(`${PLAYLIST}#EXTINF:3.997,\n9.mp3\n`));
    now = 500;
    expect((await cache.playlistAt('hls/cache/playlist.m3u8')).toString()).toContain('9.mp3');

    // A segment not written yet is a miss each time, then read once it exists.
    await expect(cache.segmentAt('hls/cache/9.mp3')).rejects.toMatchObject({ code: 'ENOENT' });
    await blobs.put('hls/cache/9.mp3', Buffer.from('segment 9'));
    expect((await cache.segmentAt('hls/cache/9.mp3')).toString()).toBe('segment 9');
    expect((await cache.segmentAt('hls/cache/9.mp3')).toString()).toBe('segment 9');
    expect(reads.filter((key) => key === 'hls/cache/9.mp3')).toHaveLength(2);
  });
});
