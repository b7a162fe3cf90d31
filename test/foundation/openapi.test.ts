/** Operations endpoints: the OpenAPI document, the interactive docs, health, readiness and metrics. */
import { ADMIN_PATHS, DEVELOPER_PATHS, LISTENER_PATHS, STUDIO_PATHS } from '../../src/http/web.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { stationForSuite } from '../helpers/station.js';
import { bearer, signUp } from './support.js';

let spec: any;
const registered: { method: string; url: string }[] = [];

const station = stationForSuite();
beforeAll(async () => {
  registered.push(...routesOf(station.http.printRoutes({ commonPrefix: false })));
  const response = await station.http.inject({ method: 'GET', url: '/openapi.json' });
  expect(response.statusCode).toBe(200);
  spec = response.json();
});

/**
 * Fastify keeps no public list of routes once it is ready (an onRoute hook would have to be added before the
 * station registers them), so read the tree printRoutes draws: "│   └── /:id (GET, HEAD)".
 */
function routesOf(tree: string): { method: string; url: string }[] {
  const stack: string[] = [];
  const routes: { method: string; url: string }[] = [];
  for (const line of tree.split('\n')) {
    const match = /^((?:[│ ] {3})*)[├└]── (.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1].length / 4;
    const url = (depth === 0 ? '' : stack[depth - 1]) + match[2];
    stack[depth] = url;
    stack.length = depth + 1;
    for (const method of match[3]?.split(', ') ?? []) routes.push({ method, url: url.replace(/(.)\/$/, '$1') });
  }
  return routes;
}

/** /v1/tracks/:id -> /v1/tracks/{id}, as @fastify/swagger writes it. */
const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

const KNOWN_OPERATIONS: [string, string][] = [
  ['get', '/v1/tracks'],
  ['get', '/v1/tracks/{id}'],
  ['get', '/v1/tracks/{id}/stream'],
  ['get', '/v1/artists'],
  ['get', '/v1/artists/{slug}'],
  ['post', '/v1/auth/signup'],
  ['post', '/v1/auth/login'],
  ['post', '/v1/auth/refresh'],
  ['post', '/v1/auth/revoke'],
  ['post', '/api/auth/admin/login'],
  ['post', '/api/auth/refresh'],
  ['get', '/station/v1/auth/validate'],
  ['get', '/healthz'],
  ['get', '/readyz'],
];

describe('/openapi.json', () => {
  it('is an OpenAPI 3.1.0 document with both security schemes', () => {
    expect(spec.openapi).toBe('3.1.0');
    expect(spec.info.title).toBeTruthy();
    expect(spec.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(spec.components.securitySchemes.apiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
  });

  it.each(KNOWN_OPERATIONS)('documents %s %s', (method, path) => {
    expect(spec.paths[path]?.[method], `${method.toUpperCase()} ${path}`).toBeDefined();
  });

  it('documents every route the server registered, except the hidden ones', () => {
    const documented = new Set<string>();
    for (const [path, operations] of Object.entries<Record<string, unknown>>(spec.paths)) {
      for (const method of Object.keys(operations)) documented.add(`${method.toUpperCase()} ${path}`);
    }
    // The web front end's pages and icon (src/http/web.ts) are for people and browsers, not API operations.
    const pages = [...LISTENER_PATHS, ...ADMIN_PATHS, ...STUDIO_PATHS, ...DEVELOPER_PATHS];
    const hidden = new Set<string>(['/openapi.json', '/metrics', '/favicon.ico', ...pages]);
    const missing = registered
      .filter((r) => !hidden.has(r.url) && !r.url.startsWith('/docs') && r.method !== 'HEAD')
      .map((r) => `${r.method} ${openApiPath(r.url)}`)
      .filter((key) => !documented.has(key) && !documented.has(key.replace(/\/\*$/, '/{key}')) && !/\*/.test(key));
    expect(registered).toContainEqual({ method: 'GET', url: '/v1/tracks/:id/stream' });
    expect(registered).toContainEqual({ method: 'POST', url: '/api/auth/logout' });
    expect(missing).toEqual([]);
  });

  it('is clean input for client generators: a unique operationId everywhere, 2020-12 tuples, named path parameters', () => {
    const ids: string[] = [];
    for (const item of Object.values<Record<string, { operationId?: string }>>(spec.paths)) {
      for (const operation of Object.values(item)) ids.push(operation.operationId!);
    }
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z0-9]*$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(spec.paths['/v1/tracks/{id}/stream'].get.operationId).toBe('getTracksByIdStream');
    expect(spec.paths['/station/v1/radio/stream-info'].get.operationId).toBe('getStationRadioStreamInfo');
    // Every path parameter is a name a client can use, the media wildcard included.
    expect(Object.keys(spec.paths).filter((path) => path.includes('{*}'))).toEqual([]);
    expect(spec.paths['/media/{key}'].get.parameters).toContainEqual(expect.objectContaining({ in: 'path', name: 'key' }));
    // Tuples in JSON Schema 2020-12 form (prefixItems), never draft-07's array-valued items.
    const text = JSON.stringify(spec);
    expect(text).not.toContain('"additionalItems"');
    const tempo = spec.paths['/station/v1/context/current'].get.responses['200'].content['application/json'].schema.properties.tempo_range;
    expect(tempo).toMatchObject({ type: 'array', prefixItems: [{ type: 'integer' }, { type: 'integer' }], items: false });
  });

  it('marks non-public operations with security and a scope note, public ones with none', () => {
    const tracks = spec.paths['/v1/tracks'].get;
    expect(tracks.security).toEqual([{ bearerAuth: [] }, { apiKey: [] }]);
    expect(tracks.description).toContain('Scope: `tracks:read`');
    const stream = spec.paths['/v1/tracks/{id}/stream'].get;
    expect(stream.description).toContain('Scope: `streams:read`');
    const validate = spec.paths['/station/v1/auth/validate'].get;
    expect(validate.security).toEqual([{ bearerAuth: [] }, { apiKey: [] }]);
    expect(validate.description).toMatch(/Scope:|Any authenticated caller/);
    const revoke = spec.paths['/v1/auth/revoke'].post;
    expect(revoke.description).toContain('X-CSRF-Token');
    for (const [method, path] of [
      ['post', '/v1/auth/signup'],
      ['post', '/api/auth/admin/login'],
      ['get', '/healthz'],
    ]) {
      expect(spec.paths[path][method].security, `${method} ${path}`).toEqual([]);
    }
    for (const [path, operations] of Object.entries<Record<string, any>>(spec.paths)) {
      for (const [method, operation] of Object.entries<any>(operations)) {
        if (operation.security?.length) {
          expect(operation.description, `${method} ${path}`).toMatch(/Scope: `[a-z:]+`|Any authenticated caller/);
        }
      }
    }
  });

  it('documents the error envelope on the error responses', () => {
    const responses = spec.paths['/v1/tracks/{id}'].get.responses;
    const errorSchema = JSON.stringify(responses['4XX'] ?? responses['4xx'] ?? responses['default'] ?? {});
    expect(errorSchema).toMatch(/request_id|ErrorEnvelope|def-/);
  });

  it('is served without a token', async () => {
    const response = await station.http.inject({ method: 'GET', url: '/openapi.json' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/application\/json/);
  });
});

describe('/docs', () => {
  it('serves the interactive docs as HTML without a token, following a redirect', async () => {
    let url = '/docs';
    let response = await station.http.inject({ method: 'GET', url });
    for (let hops = 0; hops < 3 && response.statusCode >= 300 && response.statusCode < 400; hops++) {
      url = new URL(String(response.headers.location), `http://station.test${url}`).pathname;
      response = await station.http.inject({ method: 'GET', url });
    }
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
    expect(response.body).toMatch(/swagger|<html/i);
  });
});

describe('health, readiness and metrics', () => {
  it('GET /healthz answers 200 {"status":"ok"}', async () => {
    const response = await station.http.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('GET /readyz answers 200 once the station is ready', async () => {
    const response = await station.http.inject({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ready' });
  });

  it('GET /metrics exposes http_requests_total labelled by route pattern, not raw URL', async () => {
    const listener = await signUp(station);
    await station.http.inject({ method: 'GET', url: '/v1/tracks/00000000-0000-4000-8000-000000000000', headers: bearer(listener) });
    const response = await station.http.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(response.body).toContain('# TYPE http_requests_total counter');
    expect(response.body).toMatch(/http_requests_total\{[^}]*route="\/v1\/tracks\/:id"[^}]*status_code="404"[^}]*\} 1/);
    expect(response.body).not.toContain('00000000-0000-4000-8000-000000000000');
    expect(response.body).toMatch(/http_request_duration_seconds_bucket\{/);
    expect(response.body).toContain('process_cpu_user_seconds_total');
  });
});
