/**
 * Quotas of developer keys: a monthly quota by environment and a per-minute burst, per account and
 * environment (an account's keys share them), counted in the shared counter store, with X-RateLimit-* on
 * every answer (the spelling @fastify/rate-limit uses on the auth routes) and 429 PLATFORM_RATE_LIMITED
 * with Retry-After beyond. Time is the injected clock.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiQuota, DEFAULT_QUOTAS, monthKey } from '../../src/auth/api-quota.js';
import { ManualClock } from '../../src/infra/clock/clock.js';
import { InProcessCounterStore } from '../../src/infra/counters/in-process-counter-store.js';
import { buildTestStation, stationForSuite, createTestDatabase, type TestStation } from '../helpers/station.js';
import { clientAddress } from '../auth/support.js';
import { createKey, loginAs } from './accounts-support.js';

const RATE_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

describe('developer key quotas through HTTP', () => {
  // 20:59:30 UTC on the last day of January: the month turns in 3h00m30s.
  const clock = new ManualClock(Date.UTC(2026, 0, 31, 20, 59, 30));

  const station = stationForSuite({}, { clock, apiQuotas: { live: 8, test: 5, burstPerMinute: 3 } });

  it('sends the same X-RateLimit-* spelling as the auth routes, on success and on refusal', async () => {
    const signup = await station.http.inject({
      method: 'POST',
      url: '/v1/auth/signup',
      remoteAddress: clientAddress(),
      payload: { email: `q-${randomBytes(4).toString('hex')}@example.com`, password: 'listener-password', display_name: 'Q' },
    });
    for (const name of RATE_HEADERS) expect(signup.headers[name], name).toBeDefined();

    const developer = await loginAs(station, 'developer');
    const key = await createKey(station, developer, { scopes: ['tracks:read'], environment: 'live' });
    const ok = await station.http.inject({ url: '/v1/tracks', headers: { 'x-api-key': key.key } });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['x-ratelimit-limit']).toBe('3');
    expect(ok.headers['x-ratelimit-remaining']).toBe('2');
    expect(ok.headers['x-ratelimit-reset']).toBe('30');
    // A refusal for scope is still an answer to a key-authenticated request, and counted.
    const forbidden = await station.http.inject({ url: '/v1/webhooks', headers: { 'x-api-key': key.key } });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.headers['x-ratelimit-remaining']).toBe('1');
    // A session (not a key) is not metered.
    const bySession = await station.http.inject({ url: '/v1/tracks', headers: { authorization: `Bearer ${developer.token}` } });
    expect(bySession.headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('refuses beyond the burst with Retry-After until the minute turns', async () => {
    clock.set(Date.UTC(2026, 0, 31, 21, 0, 10));
    const developer = await loginAs(station, 'developer');
    const key = await createKey(station, developer, { scopes: ['tracks:read'], environment: 'live' });
    const call = () => station.http.inject({ url: '/v1/tracks', headers: { 'x-api-key': key.key } });
    for (let i = 0; i < 3; i++) expect((await call()).statusCode).toBe(200);
    const refused = await call();
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toMatchObject({ code: 'PLATFORM_RATE_LIMITED', retry_after: 50 });
    expect(refused.headers['retry-after']).toBe('50');
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    clock.advance(50_000);
    expect((await call()).statusCode).toBe(200);
  });

  it('a test key spends its monthly quota and answers 429 until the month turns; the JWT counts with its key', async () => {
    clock.set(Date.UTC(2026, 0, 31, 21, 0, 0));
    const developer = await loginAs(station, 'developer');
    const key = await createKey(station, developer, { scopes: ['tracks:read'], environment: 'test' });
    const token = (await station.http.inject({ method: 'POST', url: '/v1/auth/token', remoteAddress: clientAddress(), payload: { api_key: key.key } })).json()
      .token as string;
    const viaKey = () => station.http.inject({ url: '/v1/tracks', headers: { 'x-api-key': key.key } });
    const viaToken = () => station.http.inject({ url: '/v1/tracks', headers: { authorization: `Bearer ${token}`, 'x-api-key': key.key } });
    const answers = [];
    for (let i = 0; i < 5; i++) {
      answers.push(await (i % 2 ? viaToken() : viaKey()));
      clock.advance(61_000); // past the burst window each time
    }
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200]);
    // Once the month has fewer requests left than the minute, the month is the window shown.
    expect(answers[4].headers['x-ratelimit-limit']).toBe('5');
    expect(answers[4].headers['x-ratelimit-remaining']).toBe('0');

    const refused = await viaToken();
    expect(refused.statusCode).toBe(429);
    const untilMonthEnd = Math.ceil((Date.UTC(2026, 1, 1) - clock.now()) / 1000);
    expect(refused.headers['retry-after']).toBe(String(untilMonthEnd));
    expect(refused.headers['x-ratelimit-limit']).toBe('5');
    clock.advance(3600_000); // still January
    expect((await viaKey()).statusCode).toBe(429);

    clock.set(Date.UTC(2026, 1, 1, 0, 0, 1));
    const february = await viaKey();
    expect(february.statusCode).toBe(200);
  });

  it("counts an account's keys together per environment: a second key buys no more burst; another account or environment is apart", async () => {
    clock.set(Date.UTC(2026, 2, 3, 10, 0, 0));
    const developer = await loginAs(station, 'developer');
    const a = await createKey(station, developer, { scopes: ['tracks:read'], environment: 'live' });
    const b = await createKey(station, developer, { scopes: ['tracks:read'], environment: 'live' });
    const sandbox = await createKey(station, developer, { scopes: ['tracks:read'], environment: 'test' });
    const stranger = await createKey(station, await loginAs(station, 'developer'), { scopes: ['tracks:read'], environment: 'live' });
    const call = (key: { key: string }) => station.http.inject({ url: '/v1/tracks', headers: { 'x-api-key': key.key } });
    expect([(await call(a)).statusCode, (await call(b)).statusCode, (await call(a)).statusCode]).toEqual([200, 200, 200]);
    const refused = await call(b);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    expect((await call(a)).statusCode).toBe(429);
    expect((await call(sandbox)).statusCode).toBe(200);
    expect((await call(stranger)).statusCode).toBe(200);
  });

  it("spends one month for all of an account's live keys: 25 keys never make 25 quotas", async () => {
    clock.set(Date.UTC(2026, 3, 7, 10, 0, 0));
    const developer = await loginAs(station, 'developer');
    const keys = [];
    for (let i = 0; i < 3; i++) keys.push(await createKey(station, developer, { scopes: ['tracks:read'], environment: 'live' }));
    const statuses = [];
    for (let i = 0; i < 9; i++) {
      statuses.push((await station.http.inject({ url: '/v1/tracks', headers: { 'x-api-key': keys[i % 3].key } })).statusCode);
      clock.advance(61_000); // past the burst window each time
    }
    // live: 8 a month for the account, whichever of its keys asks.
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 429]);
    expect((await station.http.inject({ url: '/v1/tracks', headers: { 'x-api-key': keys[0].key } })).statusCode).toBe(429);
  });
});

describe('the limits of platform-api.md', () => {
  it('are 1,000,000 a month live, 100,000 test, 500 a minute', async () => {
    expect(DEFAULT_QUOTAS).toEqual({ live: 1_000_000, test: 100_000, burstPerMinute: 500 });
    const clock = new ManualClock(Date.UTC(2026, 4, 20, 8, 0, 0));
    const counters = new InProcessCounterStore(clock);
    const quota = new ApiQuota(counters, clock);
    await counters.set(monthKey('owner-1', 'live', '2026-05'), String(999_999), 3600_000);
    await counters.set(monthKey('owner-1', 'test', '2026-05'), String(99_999), 3600_000);
    expect(await quota.take('owner-1', 'live')).toMatchObject({ allowed: true, limit: 1_000_000, remaining: 0 });
    expect(await quota.take('owner-1', 'live')).toMatchObject({ allowed: false, limit: 1_000_000 });
    expect(await quota.take('owner-1', 'test')).toMatchObject({ allowed: true, limit: 100_000, remaining: 0 });
    expect(await quota.take('owner-1', 'test')).toMatchObject({ allowed: false, limit: 100_000 });
    const fresh = [];
    for (let i = 0; i < 501; i++) fresh.push(await quota.take('owner-2', 'live'));
    expect(fresh[0]).toMatchObject({ allowed: true, limit: 500, remaining: 499 });
    expect(fresh[499]).toMatchObject({ allowed: true, remaining: 0 });
    expect(fresh[500]).toMatchObject({ allowed: false, limit: 500 });
  });
});

const multiInstance = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);

describe.skipIf(!multiInstance)('quotas across two instances', () => {
  const clock = new ManualClock(Date.UTC(2026, 6, 1, 9, 0, 0));
  const cleanups: Array<() => Promise<void> | void> = [];
  let a: TestStation;
  let b: TestStation;

  beforeAll(async () => {
    const testDb = await createTestDatabase();
    cleanups.push(() => testDb.drop());
    const dataDir = mkdtempSync(join(tmpdir(), 'station-quota-shared-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const env = { DATA_DIR: dataDir, REDIS_PREFIX: `test-${randomBytes(5).toString('hex')}` };
    const options = { database: testDb, clock, apiQuotas: { burstPerMinute: 4 } };
    a = await buildTestStation(env, options);
    b = await buildTestStation(env, options);
    cleanups.push(
      () => a.destroy(),
      () => b.destroy(),
    );
  });
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it("one burst for an account's keys, whichever instance answers and whichever key asks", async () => {
    const developer = await loginAs(a, 'developer');
    const first = await createKey(a, developer, { scopes: ['tracks:read'], environment: 'live' });
    const second = await createKey(b, developer, { scopes: ['tracks:read'], environment: 'live' });
    const on = (s: TestStation, key: { key: string }) => s.http.inject({ url: '/v1/tracks', headers: { 'x-api-key': key.key } });
    const statuses = [];
    for (const [s, key] of [
      [a, first],
      [b, second],
      [a, second],
      [b, first],
      [a, first],
      [b, second],
    ] as const)
      statuses.push((await on(s, key)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  });
});
