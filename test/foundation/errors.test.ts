/** The error envelope of the contract on every failure path: routing, parsing, validation, auth, and 5xx. */
import { beforeAll, describe, expect, it } from 'vitest';
import { pollUntil } from '../helpers/poll.js';
import { buildTestStation, stationForSuite, createTestDatabase } from '../helpers/station.js';
import { bearer, expectEnvelope, randomClientIp, signUp, type Listener } from './support.js';

let listener: Listener;

const station = stationForSuite();
beforeAll(async () => {
  listener = await signUp(station);
});

const signup = (payload: string | object, headers: Record<string, string> = {}) =>
  station.http.inject({
    method: 'POST',
    url: '/v1/auth/signup',
    remoteAddress: randomClientIp(),
    headers: { 'content-type': 'application/json', ...headers },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });

const VALID_SIGNUP = { email: 'someone@example.com', password: 'a good password', display_name: 'Someone' };

describe('unknown routes', () => {
  it('answers 404 PLATFORM_NOT_FOUND on /v1 paths', async () => {
    const response = await station.http.inject({ method: 'GET', url: '/v1/does-not-exist?x=1' });
    const error = expectEnvelope(response, 404, 'PLATFORM_NOT_FOUND');
    expect(error.retry_after).toBeNull();
    expect(response.headers['content-type']).toMatch(/^application\/json/);
  });

  it('answers 404 STATION_NOT_FOUND on /station/v1 paths', async () => {
    const response = await station.http.inject({ method: 'GET', url: '/station/v1/nothing-here' });
    expectEnvelope(response, 404, 'STATION_NOT_FOUND');
  });

  it('answers 404 for a known path with an unknown method', async () => {
    const response = await station.http.inject({ method: 'DELETE', url: '/v1/tracks' });
    expectEnvelope(response, 404, 'PLATFORM_NOT_FOUND');
  });
});

describe('request bodies', () => {
  it('rejects malformed JSON with 400 *_VALIDATION_FAILED', async () => {
    expectEnvelope(await signup('{"email": '), 400, 'PLATFORM_VALIDATION_FAILED');
    const station400 = await station.http.inject({
      method: 'POST',
      url: '/api/auth/admin/login',
      remoteAddress: randomClientIp(),
      headers: { 'content-type': 'application/json' },
      payload: '{not json',
    });
    expectEnvelope(station400, 400, 'STATION_VALIDATION_FAILED');
  });

  it('rejects an empty JSON body with 400', async () => {
    expectEnvelope(await signup(''), 400, 'PLATFORM_VALIDATION_FAILED');
  });

  it('rejects wrong types, missing fields and additional properties with 400', async () => {
    expectEnvelope(await signup({ ...VALID_SIGNUP, password: { value: 'a good password' } }), 400, 'PLATFORM_VALIDATION_FAILED');
    expectEnvelope(await signup({ ...VALID_SIGNUP, display_name: { name: 'Someone' } }), 400, 'PLATFORM_VALIDATION_FAILED');
    expectEnvelope(await signup({ email: VALID_SIGNUP.email, password: VALID_SIGNUP.password }), 400, 'PLATFORM_VALIDATION_FAILED');
    expectEnvelope(await signup({ ...VALID_SIGNUP, role: 'super_admin' }), 400, 'PLATFORM_VALIDATION_FAILED');
    expectEnvelope(await signup({ ...VALID_SIGNUP, email: 'not-an-email' }), 400, 'PLATFORM_VALIDATION_FAILED');
    expectEnvelope(await signup([VALID_SIGNUP]), 400, 'PLATFORM_VALIDATION_FAILED');
  });

  it('says which field failed in the detail', async () => {
    const error = expectEnvelope(await signup({ ...VALID_SIGNUP, display_name: { first: 'x' } }), 400, 'PLATFORM_VALIDATION_FAILED');
    expect(error.detail).toContain('display_name');
  });

  // Query strings and params are coerced (they arrive as text); JSON bodies are not (src/http/validation.ts).
  it('rejects a number where the body schema wants a string', async () => {
    const response = await signup({ email: 'coerced@example.com', password: 123456789, display_name: 42 });
    expectEnvelope(response, 400, 'PLATFORM_VALIDATION_FAILED');
  });

  it('rejects a one-element array where the body schema wants a string', async () => {
    const response = await signup({ email: 'wrapped@example.com', password: ['a good password'], display_name: 'x' });
    expectEnvelope(response, 400, 'PLATFORM_VALIDATION_FAILED');
  });

  it('rejects invalid query parameters with 400', async () => {
    const response = await station.http.inject({ method: 'GET', url: '/v1/tracks?limit=abc', headers: bearer(listener) });
    expectEnvelope(response, 400, 'PLATFORM_VALIDATION_FAILED');
    const extra = await station.http.inject({ method: 'GET', url: '/v1/tracks?sort=evil', headers: bearer(listener) });
    expectEnvelope(extra, 400, 'PLATFORM_VALIDATION_FAILED');
  });

  it('caps page: the last page is served, one beyond is a 400', async () => {
    const last = await station.http.inject({ method: 'GET', url: '/v1/tracks?page=10000', headers: bearer(listener) });
    expect(last.statusCode).toBe(200);
    expect(last.json()).toMatchObject({ data: [], page: 10000 });
    for (const page of ['10001', '99999999999', '1e9']) {
      const response = await station.http.inject({ method: 'GET', url: `/v1/tracks?page=${page}`, headers: bearer(listener) });
      expectEnvelope(response, 400, 'PLATFORM_VALIDATION_FAILED');
    }
  });

  it('answers a malformed percent-encoding in the path with 400 in the envelope, never 500', async () => {
    for (const url of ['/v1/tracks/%E0%A4%A', '/station/v1/training/jobs/%zz', '/media/%25', '/media/%', '/media/a%2Fb%25c.mp3']) {
      const response = await station.http.inject({ method: 'GET', url, headers: bearer(listener) });
      expect(response.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, url).toBeLessThan(500);
      expect(response.json().error.code, url).toMatch(/^(PLATFORM|STATION)_/);
    }
  });

  it('rejects a body over 1 MiB with 413', async () => {
    const huge = JSON.stringify({ ...VALID_SIGNUP, display_name: 'x'.repeat(1024 * 1024) });
    expectEnvelope(await signup(huge), 413, 'PLATFORM_PAYLOAD_TOO_LARGE');
  });

  it('accepts a body just under the limit as far as the parser goes (then validates it)', async () => {
    const large = JSON.stringify({ ...VALID_SIGNUP, display_name: 'x'.repeat(1000 * 1000) });
    expectEnvelope(await signup(large), 400, 'PLATFORM_VALIDATION_FAILED');
  });

  it('rejects a wrong Content-Type with 415', async () => {
    const response = await signup('email=a@b.c', { 'content-type': 'application/x-www-form-urlencoded' });
    expectEnvelope(response, 415, 'PLATFORM_UNSUPPORTED_MEDIA_TYPE');
    const text = await signup(JSON.stringify(VALID_SIGNUP), { 'content-type': 'text/plain' });
    expectEnvelope(text, 415, 'PLATFORM_UNSUPPORTED_MEDIA_TYPE');
  });
});

describe('request ids', () => {
  it('generates one per request and sends it as X-Request-Id on success too', async () => {
    const a = await station.http.inject({ method: 'GET', url: '/healthz' });
    const b = await station.http.inject({ method: 'GET', url: '/healthz' });
    expect(a.headers['x-request-id']).toMatch(/^[A-Za-z0-9._:-]+$/);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });

  it('echoes a caller-supplied X-Request-Id in the header and the envelope', async () => {
    const response = await station.http.inject({ method: 'GET', url: '/v1/missing', headers: { 'x-request-id': 'trace-abc.123' } });
    expect(response.headers['x-request-id']).toBe('trace-abc.123');
    expect(expectEnvelope(response, 404, 'PLATFORM_NOT_FOUND').request_id).toBe('trace-abc.123');
  });

  it('replaces an unsafe caller-supplied id instead of echoing it', async () => {
    const response = await station.http.inject({ method: 'GET', url: '/v1/missing', headers: { 'x-request-id': 'bad id <script>' } });
    expect(response.headers['x-request-id']).not.toBe('bad id <script>');
    expectEnvelope(response, 404, 'PLATFORM_NOT_FOUND');
  });
});

describe('authentication', () => {
  it('answers 401 PLATFORM_AUTH_REQUIRED without a token on a platform path', async () => {
    expectEnvelope(await station.http.inject({ method: 'GET', url: '/v1/tracks' }), 401, 'PLATFORM_AUTH_REQUIRED');
  });

  it('answers 401 STATION_AUTH_REQUIRED without a token on a station path', async () => {
    expectEnvelope(await station.http.inject({ method: 'GET', url: '/station/v1/auth/validate' }), 401, 'STATION_AUTH_REQUIRED');
  });

  it('answers 401 for a garbage or malformed bearer token', async () => {
    const garbage = await station.http.inject({ method: 'GET', url: '/v1/tracks', headers: { authorization: 'Bearer not.a.jwt' } });
    expectEnvelope(garbage, 401, 'PLATFORM_AUTH_REQUIRED');
    const basic = await station.http.inject({ method: 'GET', url: '/v1/tracks', headers: { authorization: 'Basic dXNlcjpwYXNz' } });
    expectEnvelope(basic, 401, 'PLATFORM_AUTH_REQUIRED');
    const key = await station.http.inject({ method: 'GET', url: '/v1/tracks', headers: { 'x-api-key': 'sk_unknown_0123456789abcdef' } });
    expectEnvelope(key, 401, 'PLATFORM_AUTH_REQUIRED');
  });

  it('checks authentication before validating the query', async () => {
    const response = await station.http.inject({ method: 'GET', url: '/v1/tracks?limit=1000' });
    expectEnvelope(response, 401, 'PLATFORM_AUTH_REQUIRED');
  });
});

describe('internal errors', () => {
  it('answers 500 with only "Internal server error" and no internals; closing still stops everything', async () => {
    const testDb = await createTestDatabase();
    const reports: string[] = [];
    const broken = await buildTestStation({}, { database: testDb, webhooks: { sweepIntervalMs: 20, onError: (message) => reports.push(message) } });
    try {
      const user = await signUp(broken);
      await broken.database.close();
      const response = await broken.http.inject({ method: 'GET', url: '/v1/tracks', headers: bearer(user) });
      const error = expectEnvelope(response, 500, 'PLATFORM_INTERNAL_ERROR');
      expect(error.message).toBe('Internal server error');
      expect(response.body).not.toMatch(/stack|pool|pglite|closed|select|\.ts:|at /i);
      expect(error.detail).not.toMatch(/sql|pool|closed/i);
      const ready = await broken.http.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      await pollUntil(
        'a sweep report',
        () => reports.length,
        (count) => count > 0,
      ); // the webhook sweep meets the dead database
    } finally {
      // The database is gone, so some steps fail; the others still run: no timer of this station outlives it.
      await expect(broken.close()).rejects.toThrow();
      const after = reports.length;
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(reports.length).toBe(after);
      await testDb.drop();
    }
  });
});
