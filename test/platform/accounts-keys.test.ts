/**
 * Developer keys (contract.md): created with chosen scopes never wider than the owner's, shown once and
 * stored hashed, listed without the secret, revoked at once; exchanged at POST /v1/auth/token for a JWT
 * that carries the key's scopes and dies with the key or with its owner's ban.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { staffLogin, stationForSuite } from '../helpers/station.js';
import { expectEnvelope } from '../foundation/support.js';
import { clientAddress } from '../auth/support.js';
import { bearer, createKey, loginAs, type Login } from './accounts-support.js';

const SERVICE_KEY = 'service-key-for-the-accounts-suite';

describe('developer keys', () => {
  let developer: Login;
  let other: Login;

  const station = stationForSuite({ STATION_SERVICE_API_KEY: SERVICE_KEY });
  beforeAll(async () => {
    developer = await loginAs(station, 'developer');
    other = await loginAs(station, 'developer');
  });

  const exchange = (apiKey: string) =>
    station.http.inject({ method: 'POST', url: '/v1/auth/token', remoteAddress: clientAddress(), payload: { api_key: apiKey } });

  it('creates a key shown once, stores only its hash, and lists it without the secret', async () => {
    const created = await createKey(station, developer, { name: 'ci', scopes: ['tracks:read', 'webhooks:read'], environment: 'live' });
    expect(created.key).toMatch(/^stn_live_/);
    expect(created.scopes).toEqual(['tracks:read', 'webhooks:read']);
    expect(created.key.startsWith(created.prefix)).toBe(true);

    const stored = await station.database.db.execute(sql`SELECT * FROM api_keys WHERE id = ${created.id}`);
    const row = (stored as unknown as { rows: Record<string, unknown>[] }).rows[0];
    expect(JSON.stringify(row)).not.toContain(created.key);

    const list = await station.http.inject({ url: '/v1/developer/keys', headers: bearer(developer) });
    expect(list.statusCode).toBe(200);
    const body = list.json();
    expect(body).toMatchObject({ page: 1, limit: 20 });
    const listed = body.data.find((key: { id: string }) => key.id === created.id);
    expect(listed).toMatchObject({ name: 'ci', environment: 'live', prefix: created.prefix });
    expect(JSON.stringify(body)).not.toContain(created.key);
    expect(listed).not.toHaveProperty('key');

    const othersList = await station.http.inject({ url: '/v1/developer/keys', headers: bearer(other) });
    expect(othersList.json().data.map((key: { id: string }) => key.id)).not.toContain(created.id);
  });

  it('refuses scopes wider than the owner holds (400), and keys from listeners or from keys (403)', async () => {
    // A developer logged in without TOTP does not hold station:train, and no developer holds platform:admin.
    for (const scopes of [['platform:admin'], ['tracks:read', 'station:train'], ['artist']]) {
      const answer = await station.http.inject({
        method: 'POST',
        url: '/v1/developer/keys',
        headers: bearer(developer),
        payload: { name: 'too wide', scopes, environment: 'live' },
      });
      expect(answer.statusCode, JSON.stringify(scopes)).toBe(400);
      expect(answer.json().error.code).toBe('PLATFORM_VALIDATION_FAILED');
    }
    const unknown = await station.http.inject({
      method: 'POST',
      url: '/v1/developer/keys',
      headers: bearer(developer),
      payload: { name: 'x', scopes: ['everything'], environment: 'live' },
    });
    expect(unknown.statusCode).toBe(400);

    const listener = await loginAs(station, 'listener');
    const byListener = await station.http.inject({
      method: 'POST',
      url: '/v1/developer/keys',
      headers: bearer(listener),
      payload: { name: 'x', scopes: ['tracks:read'], environment: 'live' },
    });
    expect(byListener.statusCode).toBe(403);
    expect(byListener.json().error.code).toBe('PLATFORM_FORBIDDEN');
    expect(byListener.json().error.detail).toContain('developer account'); // POST /v1/developer/account opens one (onboarding.test.ts)

    const key = await createKey(station, developer, { scopes: ['tracks:read'], environment: 'test' });
    const token = (await exchange(key.key)).json();
    const byKey = await station.http.inject({
      method: 'POST',
      url: '/v1/developer/keys',
      headers: { authorization: `Bearer ${token.token}`, 'x-api-key': key.key, 'x-csrf-token': token.csrf_token },
      payload: { name: 'x', scopes: ['tracks:read'], environment: 'live' },
    });
    expect(byKey.statusCode).toBe(403);
  });

  it('gives test keys no scope that acts outside the sandbox, and a session through /sandbox/v1 none either', async () => {
    // The bootstrap super_admin's TOTP login (createKey only reads its token and CSRF token).
    const admin: Login = { ...(await staffLogin(station)), refreshToken: '', email: '', password: '' };
    // Staff scopes act on live users and the live radio, whatever the environment: a sandbox credential holds none.
    for (const scopes of [['platform:admin'], ['station:admin'], ['tracks:read', 'station:train'], ['station:generate']]) {
      const answer = await station.http.inject({
        method: 'POST',
        url: '/v1/developer/keys',
        headers: bearer(admin),
        payload: { name: 'sandbox admin', scopes, environment: 'test' },
      });
      expectEnvelope(answer, 400, 'PLATFORM_VALIDATION_FAILED');
    }
    const fine = await createKey(station, admin, { scopes: ['tracks:read', 'station:read', 'webhooks:write'], environment: 'test' });
    expect(fine.key).toMatch(/^stn_test_/);
    const live = await createKey(station, admin, { scopes: ['platform:admin'], environment: 'live' });
    expect(live.key).toMatch(/^stn_live_/);

    const target = await loginAs(station, 'listener');
    const viaSandbox = await station.http.inject({
      method: 'PATCH',
      url: `/sandbox/v1/admin/users/${target.userId}/status`,
      headers: bearer(admin),
      payload: { status: 'banned' },
    });
    expectEnvelope(viaSandbox, 403, 'PLATFORM_INSUFFICIENT_SCOPE');
    expect((await station.http.inject({ url: '/v1/users/me', headers: bearer(target) })).statusCode).toBe(200);

    // A test key stored with such scopes (made before keys were checked for them) does not hold them either.
    const stored = await station.auth.createApiKey({ name: 'old', scopes: ['platform:admin', 'tracks:read'], environment: 'test', ownerUserId: admin.userId });
    expectEnvelope(await station.http.inject({ url: '/v1/admin/users', headers: { 'x-api-key': stored.key } }), 403, 'PLATFORM_INSUFFICIENT_SCOPE');
    expect((await station.http.inject({ url: '/v1/tracks', headers: { 'x-api-key': stored.key } })).statusCode).toBe(200);
  });

  it("answers 404 for another user's key and for any id that names nothing", async () => {
    const key = await createKey(station, developer, { scopes: ['tracks:read'], environment: 'live' });
    for (const id of [key.id, 'not-a-key', '00000000-0000-0000-0000-000000000000']) {
      const answer = await station.http.inject({ method: 'DELETE', url: `/v1/developer/keys/${id}`, headers: bearer(other) });
      expect(answer.statusCode, id).toBe(404);
      expect(answer.json().error.code).toBe('PLATFORM_NOT_FOUND');
    }
    // Still alive for its owner.
    expect((await exchange(key.key)).statusCode).toBe(200);
  });

  it('exchanges a key for a JWT with the key scopes; Bearer and X-API-Key together, or the key alone', async () => {
    const key = await createKey(station, developer, { scopes: ['tracks:read'], environment: 'live' });
    const answer = await exchange(key.key);
    expect(answer.statusCode).toBe(200);
    const token = answer.json();
    expect(token).toEqual({ token: expect.any(String), expires_in: 900, csrf_token: expect.any(String) });
    const claims = JSON.parse(Buffer.from(token.token.split('.')[1], 'base64url').toString());
    expect(claims).toMatchObject({ sub: developer.userId, role: 'developer' });

    const both = { authorization: `Bearer ${token.token}`, 'x-api-key': key.key };
    expect((await station.http.inject({ url: '/v1/tracks', headers: both })).statusCode).toBe(200);
    expect((await station.http.inject({ url: '/v1/tracks', headers: { 'x-api-key': key.key } })).statusCode).toBe(200);
    // The key's scopes, not the owner's: webhooks:read is the developer's but not this key's.
    const outside = await station.http.inject({ url: '/v1/webhooks', headers: both });
    expect(outside.statusCode).toBe(403);
    expect(outside.json().error.code).toBe('PLATFORM_INSUFFICIENT_SCOPE');

    // The token with another key in X-API-Key is refused.
    const second = await createKey(station, developer, { scopes: ['tracks:read'], environment: 'live' });
    const mixed = await station.http.inject({ url: '/v1/tracks', headers: { authorization: `Bearer ${token.token}`, 'x-api-key': second.key } });
    expect(mixed.statusCode).toBe(401);

    // CSRF: the csrf_token of the exchange is the key's, for the JWT and for the key alone.
    const unsafe = (headers: Record<string, string>) => station.http.inject({ method: 'DELETE', url: '/v1/webhooks/unknown', headers });
    const writer = await createKey(station, developer, { scopes: ['webhooks:write'], environment: 'live' });
    const writerToken = (await exchange(writer.key)).json();
    expect((await unsafe({ authorization: `Bearer ${writerToken.token}`, 'x-api-key': writer.key })).json().error.code).toBe('PLATFORM_CSRF_INVALID');
    expect((await unsafe({ authorization: `Bearer ${writerToken.token}`, 'x-api-key': writer.key, 'x-csrf-token': writerToken.csrf_token })).statusCode).toBe(
      404,
    );
    expect((await unsafe({ 'x-api-key': writer.key, 'x-csrf-token': writerToken.csrf_token })).statusCode).toBe(404);
  });

  it('refuses unknown keys and the ownerless bootstrap service key at /v1/auth/token', async () => {
    const unknown = await exchange('stn_live_nothing');
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().error.code).toBe('PLATFORM_INVALID_CREDENTIALS');
    expect((await exchange(SERVICE_KEY)).statusCode).toBe(401);
    // The service key still authenticates as it always did, with X-API-Key, and carries no quota headers.
    const direct = await station.http.inject({ url: '/station/v1/auth/validate', headers: { 'x-api-key': SERVICE_KEY } });
    expect(direct.statusCode).toBe(200);
    expect(direct.headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('a revoked key and its JWT stop at once; the key leaves the list', async () => {
    const key = await createKey(station, developer, { scopes: ['tracks:read'], environment: 'live' });
    const token = (await exchange(key.key)).json().token as string;
    const call = (headers: Record<string, string>) => station.http.inject({ url: '/v1/tracks', headers });
    expect((await call({ authorization: `Bearer ${token}` })).statusCode).toBe(200);

    const revoke = await station.http.inject({ method: 'DELETE', url: `/v1/developer/keys/${key.id}`, headers: bearer(developer) });
    expect(revoke.statusCode).toBe(204);
    expect((await call({ authorization: `Bearer ${token}` })).statusCode).toBe(401);
    expect((await call({ 'x-api-key': key.key })).statusCode).toBe(401);
    expect((await exchange(key.key)).statusCode).toBe(401);
    const list = await station.http.inject({ url: '/v1/developer/keys', headers: bearer(developer) });
    expect(list.json().data.map((k: { id: string }) => k.id)).not.toContain(key.id);
    const again = await station.http.inject({ method: 'DELETE', url: `/v1/developer/keys/${key.id}`, headers: bearer(developer) });
    expect(again.statusCode).toBe(404);
  });

  it('caps an account at 10 unrevoked keys, live and test together: the 11th is 409 until one is revoked', async () => {
    const owner = await loginAs(station, 'developer');
    const create = (environment: 'live' | 'test') =>
      station.http.inject({
        method: 'POST',
        url: '/v1/developer/keys',
        headers: bearer(owner),
        payload: { name: 'many', scopes: ['tracks:read'], environment },
      });
    const made = [];
    for (let i = 0; i < 9; i++) made.push(await createKey(station, owner, { scopes: ['tracks:read'], environment: i % 2 ? 'test' : 'live' }));
    // Two creations racing for the last place: one gets it, the other is refused.
    const racing = await Promise.all([create('live'), create('test')]);
    expect(racing.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
    const refused = await create('test');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({ code: 'PLATFORM_CONFLICT', message: 'An account holds at most 10 API keys' });
    expect(refused.json().error.detail).toMatch(/revoke one/);
    expect((await station.http.inject({ url: '/v1/developer/keys?limit=100', headers: bearer(owner) })).json().total).toBe(10);
    // Another account is not affected; revoking one of the ten frees a place.
    expect((await createKey(station, other, { scopes: ['tracks:read'], environment: 'live' })).key).toMatch(/^stn_live_/);
    const revoked = await station.http.inject({ method: 'DELETE', url: `/v1/developer/keys/${made[0].id}`, headers: bearer(owner) });
    expect(revoked.statusCode).toBe(204);
    expect((await create('live')).statusCode).toBe(201);
    expect((await create('live')).statusCode).toBe(409);
  });

  it("a banned owner's keys and JWTs stop at once and work again on restore; a demoted owner's keys narrow", async () => {
    const owner = await loginAs(station, 'developer');
    const key = await createKey(station, owner, { scopes: ['tracks:read', 'webhooks:read'], environment: 'live' });
    const token = (await exchange(key.key)).json().token as string;
    const call = (url = '/v1/tracks') => station.http.inject({ url, headers: { authorization: `Bearer ${token}`, 'x-api-key': key.key } });
    expect((await call()).statusCode).toBe(200);

    await station.auth.setUserStatus(owner.userId, 'banned');
    expect((await call()).statusCode).toBe(401);
    expect((await station.http.inject({ url: '/v1/tracks', headers: { 'x-api-key': key.key } })).statusCode).toBe(401);
    expect((await exchange(key.key)).statusCode).toBe(401);

    await station.auth.setUserStatus(owner.userId, 'active');
    expect((await call()).statusCode).toBe(200);

    expect((await call('/v1/webhooks')).statusCode).toBe(200);
    await station.auth.setUserRole(owner.userId, 'listener');
    expect((await call('/v1/webhooks')).statusCode).toBe(403);
    expect((await call()).statusCode).toBe(200);
  });
});
