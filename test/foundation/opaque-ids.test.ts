/**
 * Ids are opaque strings (contract.md): a path id that names nothing answers 404 with the *_NOT_FOUND code
 * (STATION_TRACK_NOT_FOUND for registry tracks), whatever its shape; never a validation error, never a 500.
 * Every route with a path parameter is found from the OpenAPI document, so a new route is covered the day
 * it is added.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { authHeaders, stationForSuite, staffLogin, type Credentials } from '../helpers/station.js';

let admin: Credentials;
const operations: { method: string; path: string }[] = [];

/** Shapes a client might send: words, numbers, near-UUIDs, a nil UUID, very long, encoded, punctuation. */
const ODD_IDS = [
  'nope',
  '1',
  '-1',
  '00000000-0000-0000-0000-000000000000',
  '6f1c2b1e-4b8a-4c59-9f7e-0c1d2e3f4a5g',
  'str_0123456789abcdef',
  'x'.repeat(300),
  encodeURIComponent("it's ; drop table"),
  encodeURIComponent('a b'),
  '%25',
  encodeURIComponent('é'),
];

/** A body each route with a required body accepts, so that only the id can be wrong. */
const BODIES: Record<string, unknown> = {
  'PATCH /station/v1/registry/tracks/{station_track_id}': { flag_for_review: true },
  'PATCH /station/v1/dataset/artists/{artist_id}': { status: 'excluded', reason: 'test' },
  'POST /station/v1/generate/lyrics/{lyric_id}/safety-check': {},
  'POST /station/v1/training/models/{model_id}/deploy': {},
  'POST /station/v1/generate/track/{generation_id}/regenerate': {},
  'PATCH /v1/admin/users/{id}/status': { status: 'active' },
  'PATCH /v1/admin/users/{id}/role': { role: 'listener' },
  'PATCH /v1/artists/{slug}': { bio: 'renamed' },
  'PATCH /v1/playlists/{id}': { name: 'renamed' },
  'POST /v1/playlists/{id}/tracks': { track_id: 'any' },
  'PUT /v1/playlists/{id}/tracks': { track_ids: [] },
  'PATCH /v1/capsules/{id}': { title: 'renamed' },
  'PATCH /v1/tracks/{id}': { title: 'renamed' },
  'DELETE /v1/tracks/{id}': { reason: 'test' },
};

/** Routes whose missing resource has its own code. */
const CODES: Record<string, string> = {
  '/station/v1/registry/tracks/{station_track_id}': 'STATION_TRACK_NOT_FOUND',
  '/station/v1/registry/tracks/{station_track_id}/playback': 'STATION_TRACK_NOT_FOUND',
  '/station/v1/transparency/{station_track_id}': 'STATION_TRACK_NOT_FOUND',
};

const station = stationForSuite();
beforeAll(async () => {
  admin = await staffLogin(station);
  const spec = (await station.http.inject({ method: 'GET', url: '/openapi.json' })).json();
  for (const [path, methods] of Object.entries<Record<string, unknown>>(spec.paths)) {
    if (!/\{[a-z_]+\}/.test(path)) continue;
    // A media path names a signed link, not an object by id: an unsigned one is 403 MEDIA_LINK_INVALID by design.
    if (path === '/media/{key}') continue;
    for (const method of Object.keys(methods)) if (method !== 'head') operations.push({ method: method.toUpperCase(), path });
  }
});

function expectedCode(path: string): string {
  return CODES[path] ?? `${path.startsWith('/station') ? 'STATION' : 'PLATFORM'}_NOT_FOUND`;
}

describe('ids are opaque', () => {
  it('finds the routes with path ids', () => {
    expect(operations.length).toBeGreaterThanOrEqual(20);
  });

  it('answers 404 with the *_NOT_FOUND code for an id of any shape on every route', async () => {
    const wrong: string[] = [];
    for (const { method, path } of operations) {
      for (const id of ODD_IDS) {
        const url = path.replace(/\{[a-z_]+\}/g, id);
        const body = BODIES[`${method} ${path}`];
        const response = await station.http.inject({
          method: method as 'GET',
          url,
          headers: { ...authHeaders(admin), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
          payload: body === undefined ? undefined : JSON.stringify(body),
        });
        const code = response.statusCode === 404 ? response.json().error?.code : undefined;
        if (response.statusCode !== 404 || code !== expectedCode(path)) {
          wrong.push(`${method} ${url.slice(0, 80)} -> ${response.statusCode} ${response.body.slice(0, 160)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});
