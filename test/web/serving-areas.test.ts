/**
 * The artist studio (/studio) and the developer portal (/developers) as the server serves them: each its own
 * page and bundle, with the pages' CSP, their client-side sub-paths, nothing beside them claimed, and the 503
 * that says how to build when the bundle is missing. The listener page loads neither area's code.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEB_ROOT, registerWeb } from '../../src/http/web.js';
import { buildTestStation, type TestStation } from '../helpers/station.js';
import { ensureWebBuild } from './support.js';

describe('serving the studio and the developer portal', () => {
  let station: TestStation;

  beforeAll(async () => {
    ensureWebBuild();
    station = await buildTestStation();
  }, 120_000);
  afterAll(() => station.destroy());

  const get = (url: string) => station.http.inject({ url });
  const scripts = (html: string) => [...html.matchAll(/(?:src|href)="\/assets\/([^"]+\.js)"/g)].map((m) => m[1]);

  it('serves each area at its path and sub-paths, with the pages’ headers', async () => {
    for (const [url, title] of [
      ['/studio', 'Station artist studio'],
      ['/studio/tracks', 'Station artist studio'],
      ['/studio/analytics/anything', 'Station artist studio'],
      ['/developers', 'Station developer portal'],
      ['/developers/webhooks', 'Station developer portal'],
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toContain(`<title>${title}</title>`);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers['content-security-policy']).toContain("script-src 'self'");
      expect(response.headers['x-content-type-options']).toBe('nosniff');
    }
    for (const url of ['/studiox', '/developer', '/developersx/keys']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type'], url).toMatch(/^application\/json/);
    }
    const paths = Object.keys((await get('/openapi.json')).json().paths);
    expect(paths.some((p) => p.startsWith('/studio') || p.startsWith('/developers'))).toBe(false);
  });

  it('gives each area its own entry bundle, none of it on the listener page', async () => {
    const entry = (page: string) => scripts(readFileSync(join(WEB_ROOT, page), 'utf8'));
    const listener = entry('index.html');
    const studio = entry('studio/index.html');
    const developers = entry('developers/index.html');
    expect(studio.find((f) => f.startsWith('studio-'))).toBeDefined();
    expect(developers.find((f) => f.startsWith('developers-'))).toBeDefined();
    for (const file of [...studio, ...developers]) {
      if (file.startsWith('studio-') || file.startsWith('developers-')) expect(listener).not.toContain(file);
    }
    for (const file of studio) expect((await get(`/assets/${file}`)).statusCode, file).toBe(200);
  });

  it('answers the areas with a 503 saying how to build when the bundle is missing', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'station-no-web-'));
    const app = Fastify();
    await registerWeb(app, { publicBaseUrl: 'http://station.test', root: join(empty, 'web') });
    try {
      for (const url of ['/studio', '/studio/tracks', '/developers', '/developers/keys']) {
        const response = await app.inject({ url });
        expect(response.statusCode, url).toBe(503);
        expect(response.body).toContain('npm run build:web');
      }
    } finally {
      await app.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
