/**
 * How the server serves the web front end: the two pages and their client-side paths, hashed assets with
 * long caching, nothing of the APIs shadowed, and a 503 that says how to build when the bundle is missing.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEB_ROOT, registerWeb } from '../../src/http/web.js';
import { buildTestStation, type TestStation } from '../helpers/station.js';
import { ensureWebBuild } from './support.js';

describe('serving the web front end', () => {
  let station: TestStation;

  beforeAll(async () => {
    ensureWebBuild();
    station = await buildTestStation();
  }, 120_000);
  afterAll(() => station.destroy());

  const get = (url: string) => station.http.inject({ url });

  it('serves the listener player at / and the admin panel at /admin, with their own sub-paths', async () => {
    for (const [url, title] of [
      ['/', 'Station radio'],
      ['/reset-password?token=abc', 'Station radio'],
      ['/verify-email?token=abc', 'Station radio'],
      // The listener's platform pages (client-side routes of the same app).
      ...[
        '/browse?q=neon&view=artists',
        '/artists/neon-tidewater',
        '/albums/run-the-grid',
        '/tracks/abc',
        '/library',
        '/playlists',
        '/playlists/abc',
        '/history',
        '/store',
        '/account',
      ].map((path) => [path, 'Station radio']),
      ['/admin', 'Station admin'],
      ['/admin/training', 'Station admin'],
      ['/admin/registry/anything/deeper', 'Station admin'],
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toContain(`<title>${title}</title>`);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    }
  });

  it('serves the hashed assets with long caching, and 404s for an unknown one', async () => {
    const html = readFileSync(join(WEB_ROOT, 'index.html'), 'utf8');
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)![1];
    const asset = await get(script);
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-type']).toMatch(/javascript/);
    expect(asset.headers['cache-control']).toContain('immutable');
    expect((await get('/assets/nothing-here.js')).statusCode).toBe(404);
    expect((await get('/assets/../index.html')).statusCode).not.toBe(200);
  });

  it('serves the station icon at /favicon.ico', async () => {
    const response = await get('/favicon.ico');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/x-icon');
    // An ICO directory (reserved 0, type 1) holding at least one image.
    const bytes = response.rawPayload;
    expect(bytes.readUInt16LE(0)).toBe(0);
    expect(bytes.readUInt16LE(2)).toBe(1);
    expect(bytes.readUInt16LE(4)).toBeGreaterThan(0);
  });

  it('lets a page on any host name of the station load signed media (CORS on valid links only)', async () => {
    // The page may be opened at 127.0.0.1 while PUBLIC_BASE_URL says localhost: its fetch of a waveform is cross-origin.
    await station.blobs.put('waveforms/cors-check.json', Buffer.from('{"data":[1,2,3]}'));
    const link = new URL(station.signer.sign('waveforms/cors-check.json', 600).url);
    const signed = await station.http.inject({ url: `${link.pathname}${link.search}`, headers: { origin: 'http://127.0.0.1:8080' } });
    expect(signed.statusCode).toBe(200);
    expect(signed.headers['access-control-allow-origin']).toBe('*');
    expect(signed.headers['access-control-allow-credentials']).toBeUndefined();
    expect(String(signed.headers['access-control-expose-headers'])).toContain('Content-Range');
    // A link that is not validly signed gets no CORS grant: a page elsewhere learns nothing from it.
    const forged = await station.http.inject({ url: `${link.pathname}?exp=1&sig=nope`, headers: { origin: 'http://127.0.0.1:8080' } });
    expect(forged.statusCode).toBe(403);
    expect(forged.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('shadows none of the APIs and operations routes', async () => {
    for (const url of [
      '/v1/nothing',
      '/station/v1/nothing',
      '/api/nothing',
      '/media/nothing',
      '/listen',
      '/adminx',
      '/artists',
      '/tracks/a/b',
      '/storefront',
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).not.toBe(200);
      expect(response.headers['content-type'], url).toMatch(/^application\/json/);
    }
    expect((await get('/healthz')).json()).toEqual({ status: 'ok' });
    expect((await get('/station/v1/radio/now-playing')).statusCode).toBe(401);
    expect((await get('/docs')).statusCode).not.toBe(404);
    const paths = Object.keys((await get('/openapi.json')).json().paths);
    expect(paths).not.toContain('/');
    expect(paths.some((p) => p.startsWith('/admin') || p.startsWith('/assets') || p.startsWith('/browse') || p.startsWith('/artists'))).toBe(false);
    expect((await get('/metrics')).statusCode).toBe(200);
  });

  it('answers the pages with a 503 saying how to build when the bundle is missing', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'station-no-web-'));
    const app = Fastify();
    await registerWeb(app, { publicBaseUrl: 'http://station.test', root: join(empty, 'web') });
    try {
      for (const url of ['/', '/admin', '/admin/radio']) {
        const response = await app.inject({ url });
        expect(response.statusCode, url).toBe(503);
        expect(response.headers['content-type']).toMatch(/^text\/html/);
        expect(response.body).toContain('npm run build:web');
      }
    } finally {
      await app.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
