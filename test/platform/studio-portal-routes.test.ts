/**
 * The two reads the artist studio and the developer portal start from (issue 17): GET /v1/users/me/artist, the
 * caller's own artist profile, and GET /v1/developer/usage, the month's requests of the caller's keys against
 * the quotas.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEnvelope } from '../foundation/support.js';
import { buildTestStation, type TestStation } from '../helpers/station.js';
import { bearer, createKey, loginAs } from './accounts-support.js';

let station: TestStation;

beforeAll(async () => {
  station = await buildTestStation();
});
afterAll(() => station?.destroy());

describe('GET /v1/users/me/artist', () => {
  it("answers the caller's own profile once made, 404 before, 401 without a credential", async () => {
    const owner = await loginAs(station, 'listener');
    expectEnvelope(await station.http.inject({ method: 'GET', url: '/v1/users/me/artist', headers: bearer(owner) }), 404, 'PLATFORM_NOT_FOUND');
    const created = await station.http.inject({
      method: 'POST',
      url: '/v1/artists',
      headers: bearer(owner),
      payload: { name: 'Salt Meridian', genre: 'ambient' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const mine = await station.http.inject({ method: 'GET', url: '/v1/users/me/artist', headers: bearer(owner) });
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json()).toMatchObject({
      id: created.json().id,
      slug: created.json().slug,
      name: 'Salt Meridian',
      verified: false,
      owner_user_id: owner.userId,
    });

    const stranger = await loginAs(station, 'listener');
    expectEnvelope(await station.http.inject({ method: 'GET', url: '/v1/users/me/artist', headers: bearer(stranger) }), 404, 'PLATFORM_NOT_FOUND');
    expectEnvelope(await station.http.inject({ method: 'GET', url: '/v1/users/me/artist' }), 401, 'PLATFORM_AUTH_REQUIRED');
  });
});

describe('GET /v1/developer/usage', () => {
  it("counts the month's key requests per environment against the quotas, without counting itself", async () => {
    const developer = await loginAs(station, 'listener');
    expect((await station.http.inject({ method: 'POST', url: '/v1/developer/account', headers: bearer(developer) })).statusCode).toBe(201);
    const usage = async () => {
      const answer = await station.http.inject({ method: 'GET', url: '/v1/developer/usage', headers: bearer(developer) });
      expect(answer.statusCode, answer.body).toBe(200);
      return answer.json();
    };
    const before = await usage();
    expect(before).toMatchObject({
      month: expect.stringMatching(/^\d{4}-\d{2}$/),
      burst_per_minute: 500,
      live: { used: 0, limit: 1_000_000 },
      test: { used: 0, limit: 100_000 },
    });
    expect(Date.parse(before.resets_at)).toBeGreaterThan(Date.now());

    const key = await createKey(station, developer, { scopes: ['tracks:read'], environment: 'test' });
    for (let i = 0; i < 3; i++) {
      expect((await station.http.inject({ method: 'GET', url: '/sandbox/v1/tracks', headers: { 'x-api-key': key.key } })).statusCode).toBe(200);
    }
    const after = await usage();
    expect(after.test.used).toBe(3);
    expect(after.live.used).toBe(0);
    expect((await usage()).test.used).toBe(3);

    // A key reads no usage (keys are managed from a login session).
    expectEnvelope(await station.http.inject({ method: 'GET', url: '/v1/developer/usage', headers: { 'x-api-key': key.key } }), 403, 'PLATFORM_FORBIDDEN');
  });
});
