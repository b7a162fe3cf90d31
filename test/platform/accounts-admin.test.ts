/** GET /v1/admin/users and PATCH /v1/admin/users/{id}/status: filters, paging, and a ban that stops everything at once. */
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { ManualClock } from '../../src/infra/clock/clock.js';
import { stationForSuite, staffLogin, type Credentials } from '../helpers/station.js';
import { clientAddress, listen, staffWithTotp } from '../auth/support.js';
import { bearer, createKey, loginAs } from './accounts-support.js';

describe('admin users', () => {
  let base: string;
  let superAdmin: Credentials;
  const clock = new ManualClock(Date.UTC(2026, 7, 3, 10, 0, 0));
  const tag = randomBytes(4).toString('hex');

  const station = stationForSuite({}, { clock });
  beforeAll(async () => {
    base = await listen(station);
    superAdmin = await staffLogin(station, clock);
  });

  const staff = (role: 'admin') => staffWithTotp(station, clock, role, `${role}-${tag}-${randomBytes(3).toString('hex')}@example.com`);

  const setStatus = (caller: { token: string; csrf: string }, id: string, status: string) =>
    station.http.inject({ method: 'PATCH', url: `/v1/admin/users/${id}/status`, headers: bearer(caller), payload: { status } });

  it('lists users by role, status and search, paged, for platform:admin only', async () => {
    const emails = [];
    for (let i = 0; i < 3; i++) {
      const email = `Findme.${tag}.${i}@example.com`;
      emails.push(email.toLowerCase());
      await station.auth.createUser({ email, password: 'listener-password', role: i === 2 ? 'artist' : 'listener', displayName: `Finder ${i}` });
    }
    const list = (query: string, who: { token: string; csrf: string } = superAdmin) =>
      station.http.inject({ url: `/v1/admin/users?${query}`, headers: bearer(who) });

    const found = await list(`search=FINDME.${tag}`);
    expect(found.statusCode).toBe(200);
    expect(found.json().total).toBe(3);
    expect(
      found
        .json()
        .data.map((u: { email: string }) => u.email)
        .sort(),
    ).toEqual(emails.sort());
    expect(found.json().data[0]).toEqual({
      id: expect.any(String),
      email: expect.any(String),
      role: expect.any(String),
      status: 'active',
      display_name: expect.any(String),
      created_at: expect.any(String),
    });
    expect((await list(`search=findme.${tag}&role=artist`)).json()).toMatchObject({ total: 1, data: [{ email: emails[2] }] });
    const paged = (await list(`search=findme.${tag}&limit=2&page=2`)).json();
    expect(paged).toMatchObject({ total: 3, page: 2, limit: 2 });
    expect(paged.data).toHaveLength(1);
    // Pattern characters are searched as themselves.
    expect((await list('search=%25')).json().total).toBe(0);
    expect((await list('role=emperor')).statusCode).toBe(400);

    const listener = await loginAs(station, 'listener');
    const refused = await list('', listener);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('PLATFORM_INSUFFICIENT_SCOPE');
    // An admin role without TOTP does not hold platform:admin.
    const untotp = await loginAs(station, 'admin');
    expect((await list('', untotp)).statusCode).toBe(403);
  });

  it("a ban stops the user's sessions, refresh tokens, keys and sockets at once; a restore lets them back", async () => {
    const user = await loginAs(station, 'developer');
    const key = await createKey(station, user, { scopes: ['tracks:read'], environment: 'live' });
    const keyToken = (
      await station.http.inject({ method: 'POST', url: '/v1/auth/token', remoteAddress: clientAddress(), payload: { api_key: key.key } })
    ).json().token as string;
    const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/station/ws/now-playing?token=${user.token}`);
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    await new Promise((resolve, reject) => (socket.once('open', resolve), socket.once('error', reject)));

    const banned = await setStatus(superAdmin, user.userId, 'banned');
    expect(banned.statusCode, banned.body).toBe(200);
    expect(banned.json()).toMatchObject({ id: user.userId, status: 'banned' });

    expect(await closed).toBe(4401);
    expect((await station.http.inject({ url: '/v1/tracks', headers: { authorization: `Bearer ${user.token}` } })).statusCode).toBe(401);
    expect((await station.http.inject({ url: '/v1/tracks', headers: { 'x-api-key': key.key } })).statusCode).toBe(401);
    expect((await station.http.inject({ url: '/v1/tracks', headers: { authorization: `Bearer ${keyToken}`, 'x-api-key': key.key } })).statusCode).toBe(401);
    const refresh = await station.http.inject({
      method: 'POST',
      url: '/v1/auth/refresh',
      remoteAddress: clientAddress(),
      payload: { refresh_token: user.refreshToken },
    });
    expect(refresh.statusCode).toBe(401);
    const login = () =>
      station.http.inject({ method: 'POST', url: '/v1/auth/login', remoteAddress: clientAddress(), payload: { email: user.email, password: user.password } });
    expect((await login()).statusCode).toBe(401);
    expect(
      (await station.http.inject({ url: '/v1/admin/users?status=banned', headers: bearer(superAdmin) })).json().data.map((u: { id: string }) => u.id),
    ).toContain(user.userId);

    const restored = await setStatus(superAdmin, user.userId, 'active');
    expect(restored.json()).toMatchObject({ status: 'active' });
    expect((await login()).statusCode).toBe(200);
    expect((await station.http.inject({ url: '/v1/tracks', headers: { 'x-api-key': key.key } })).statusCode).toBe(200);
  });

  it('guards the ban: 404 for unknown ids, 409 for oneself, 403 for an admin banning an admin, 400 for unknown statuses', async () => {
    for (const id of ['nobody', '00000000-0000-0000-0000-000000000000']) {
      const answer = await setStatus(superAdmin, id, 'banned');
      expect(answer.statusCode).toBe(404);
      expect(answer.json().error.code).toBe('PLATFORM_NOT_FOUND');
    }
    expect((await setStatus(superAdmin, superAdmin.userId, 'banned')).statusCode).toBe(409);
    const admin = await staff('admin');
    const otherAdmin = await staff('admin');
    const byAdmin = await setStatus(admin, otherAdmin.userId, 'banned');
    expect(byAdmin.statusCode).toBe(403);
    expect(byAdmin.json().error.code).toBe('PLATFORM_FORBIDDEN');
    const listener = await loginAs(station, 'listener');
    expect((await setStatus(admin, listener.userId, 'banned')).statusCode).toBe(200);
    expect((await setStatus(admin, listener.userId, 'deleted')).statusCode).toBe(400);
    const noCsrf = await station.http.inject({
      method: 'PATCH',
      url: `/v1/admin/users/${listener.userId}/status`,
      headers: { authorization: `Bearer ${admin.token}` },
      payload: { status: 'active' },
    });
    expect(noCsrf.json().error.code).toBe('PLATFORM_CSRF_INVALID');
    expect((await setStatus(listener, listener.userId, 'active')).statusCode).toBe(401);
  });
});
