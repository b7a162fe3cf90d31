/**
 * The TypeScript client library (clients/js) against a real server on a real port: the integrator's path of
 * platform-api.md (a key, the sandbox, then production), CSRF and refresh on 401 built in, and its types
 * generated from the server's own document (the committed schema must be what the server serves now).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createStationClient, StationApiError } from '../../clients/js/src/index.js';
import { seedDemoCatalog } from '../../src/demo/seed-catalog.js';
import { seedSandboxCatalog } from '../../src/demo/seed-sandbox.js';
import { ManualClock } from '../../src/infra/clock/clock.js';
import { stationForSuite } from '../helpers/station.js';
import { createKey, loginAs, type Login } from '../platform/accounts-support.js';

const clock = new ManualClock(Date.now());
let baseUrl: string;
let developer: Login;

const station = stationForSuite({}, { clock });
beforeAll(async () => {
  await seedDemoCatalog(station.database.db);
  await seedSandboxCatalog(station.database.db);
  await station.http.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(station.http.server.address() as AddressInfo).port}`;
  developer = await loginAs(station, 'developer');
}, 120_000);

describe('clients/js', () => {
  it('follows the integrator flow: a test key on the sandbox, a live key in production, typed answers', async () => {
    const testKey = (await createKey(station, developer, { scopes: ['tracks:read', 'webhooks:read', 'webhooks:write'], environment: 'test' })).key;
    const liveKey = (await createKey(station, developer, { scopes: ['tracks:read'], environment: 'live' })).key;

    const sandbox = createStationClient({ baseUrl, apiKey: testKey, sandbox: true });
    const { data, error, response } = await sandbox.GET('/v1/tracks', { params: { query: { limit: 5 } } });
    expect(error, JSON.stringify(error)).toBeUndefined();
    expect(response.url).toBe(`${baseUrl}/sandbox/v1/tracks?limit=5`);
    expect(data!.limit).toBe(5);
    expect(data!.data.length).toBe(5);
    const sandboxIds = new Set(data!.data.map((track) => track.id));

    const production = createStationClient({ baseUrl, apiKey: liveKey });
    const live = await production.GET('/v1/tracks', { params: { query: { limit: 5 } } });
    expect(live.response.url).toBe(`${baseUrl}/v1/tracks?limit=5`);
    expect(live.data!.data.some((track) => sandboxIds.has(track.id))).toBe(false);

    // A live key is refused at the sandbox base, with the contract's envelope.
    const refused = await createStationClient({ baseUrl, apiKey: liveKey, sandbox: true }).GET('/v1/tracks');
    expect(refused.response.status).toBe(403);
    expect(refused.error).toMatchObject({ error: { code: 'PLATFORM_FORBIDDEN' } });

    // Writes carry the CSRF token by themselves: register a webhook in the sandbox.
    const hook = await sandbox.POST('/v1/webhooks', { body: { url: 'https://hooks.example.com/station', events: ['track.published'] } });
    expect(hook.error, JSON.stringify(hook.error)).toBeUndefined();
    expect(hook.response.status).toBe(201);
    expect(hook.data!.secret).toMatch(/\S{16,}/);
  });

  it('logs in, sends CSRF on writes, and refreshes an expired token once, transparently', async () => {
    const listener = await loginAs(station, 'listener');
    const client = createStationClient({ baseUrl });
    expect(await client.login(listener.email, listener.password)).toMatchObject({ role: 'listener' });
    const first = await client.accessToken();
    const created = await client.POST('/v1/playlists', { body: { name: 'Night drive' } });
    expect(created.response.status, JSON.stringify(created.error)).toBe(201);

    clock.advance(16 * 60_000); // past the 15-minute access token
    const again = await client.GET('/v1/users/me');
    expect(again.response.status).toBe(200);
    expect(again.data!.email).toBe(listener.email);
    expect(await client.accessToken()).not.toBe(first);
    const renamed = await client.PATCH('/v1/playlists/{id}', { params: { path: { id: created.data!.id } }, body: { name: 'Night drive II' } });
    expect(renamed.response.status, JSON.stringify(renamed.error)).toBe(200);

    await expect(createStationClient({ baseUrl }).login(listener.email, 'not the password')).rejects.toBeInstanceOf(StationApiError);
  });

  it('is typed from the document the server serves now (clients/js/src/schema.d.ts is regenerated)', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'station-client-'));
    try {
      const document = join(directory, 'openapi.json');
      writeFileSync(document, (await station.http.inject({ url: '/openapi.json' })).body);
      const generated = join(directory, 'schema.d.ts');
      execFileSync(process.execPath, [join('node_modules', 'openapi-typescript', 'bin', 'cli.js'), document, '-o', generated], { stdio: 'pipe' });
      const committed = readFileSync(join('clients', 'js', 'src', 'schema.d.ts'), 'utf8');
      expect(readFileSync(generated, 'utf8') === committed, 'run `npm run client:generate` and commit clients/js/src/schema.d.ts').toBe(true);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  }, 120_000);
});
