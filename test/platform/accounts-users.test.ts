/** GET/PATCH /v1/users/me: the caller's own profile, validated by schema, and the credential's environment. */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/infra/clock/clock.js';
import { stationForSuite } from '../helpers/station.js';
import { clientAddress } from '../auth/support.js';
import { bearer, createKey, loginAs } from './accounts-support.js';

describe('/v1/users/me', () => {
  const clock = new ManualClock(Date.UTC(2026, 3, 1, 12, 0, 0));

  const station = stationForSuite({}, { clock });

  const patch = (login: { token: string; csrf: string }, payload: unknown) =>
    station.http.inject({ method: 'PATCH', url: '/v1/users/me', headers: bearer(login), payload: payload as Record<string, unknown> });

  it('answers the caller with profile defaults, and applies a patch field by field', async () => {
    const listener = await loginAs(station, 'listener');
    const me = await station.http.inject({ url: '/v1/users/me', headers: bearer(listener) });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      id: listener.userId,
      email: listener.email,
      role: 'listener',
      status: 'active',
      display_name: 'listener user',
      avatar_url: null,
      country: null,
      birth_year: null,
      history_public: false,
      playlists_public: true,
      credential: { type: 'session', environment: 'live' },
    });

    const changed = await patch(listener, {
      display_name: '  Ada  ',
      avatar_url: 'https://cdn.example.com/ada.png',
      country: 'FR',
      birth_year: 1990,
      history_public: true,
      playlists_public: false,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({
      display_name: 'Ada',
      avatar_url: 'https://cdn.example.com/ada.png',
      country: 'FR',
      birth_year: 1990,
      history_public: true,
      playlists_public: false,
    });
    // A later patch leaves other fields alone; null clears.
    const partial = await patch(listener, { country: null });
    expect(partial.json()).toMatchObject({ display_name: 'Ada', country: null, birth_year: 1990, history_public: true });
    expect((await station.http.inject({ url: '/v1/users/me', headers: bearer(listener) })).json()).toMatchObject({ country: null, birth_year: 1990 });
  });

  it('refuses what does not fit: 400 PLATFORM_VALIDATION_FAILED, nothing changed', async () => {
    const listener = await loginAs(station, 'listener');
    const bad = [
      { country: 'fr' },
      { country: 'XX' },
      { country: 'FRA' },
      { birth_year: 1800 },
      { birth_year: 2027 },
      { birth_year: 1990.5 },
      { avatar_url: 'javascript:alert(1)' },
      { display_name: '' },
      { display_name: '   ' },
      { history_public: 'yes' },
      { role: 'admin' },
      { email: 'other@example.com' },
      {},
    ];
    for (const payload of bad) {
      const answer = await patch(listener, payload);
      expect(answer.statusCode, JSON.stringify(payload)).toBe(400);
      expect(answer.json().error.code).toBe('PLATFORM_VALIDATION_FAILED');
    }
    const me = (await station.http.inject({ url: '/v1/users/me', headers: bearer(listener) })).json();
    expect(me).toMatchObject({ role: 'listener', country: null, birth_year: null, display_name: 'listener user', history_public: false });
  });

  it('needs a credential and CSRF; one user never changes another', async () => {
    expect((await station.http.inject({ url: '/v1/users/me' })).statusCode).toBe(401);
    const a = await loginAs(station, 'listener');
    const b = await loginAs(station, 'listener');
    const noCsrf = await station.http.inject({
      method: 'PATCH',
      url: '/v1/users/me',
      headers: { authorization: `Bearer ${a.token}` },
      payload: { country: 'DE' },
    });
    expect(noCsrf.json().error.code).toBe('PLATFORM_CSRF_INVALID');
    // b's CSRF token with a's bearer: refused.
    const crossed = await station.http.inject({
      method: 'PATCH',
      url: '/v1/users/me',
      headers: { authorization: `Bearer ${a.token}`, 'x-csrf-token': b.csrf },
      payload: { country: 'DE' },
    });
    expect(crossed.statusCode).toBe(403);
    await patch(a, { country: 'DE' });
    expect((await station.http.inject({ url: '/v1/users/me', headers: bearer(b) })).json()).toMatchObject({ id: b.userId, country: null });
  });

  it('a developer key answers for its owner with its environment; keys cannot change the profile', async () => {
    const developer = await loginAs(station, 'developer');
    const live = await createKey(station, developer, { scopes: ['users:read'], environment: 'live' });
    const sandbox = await createKey(station, developer, { scopes: ['users:read'], environment: 'test' });
    const viaLive = await station.http.inject({ url: '/v1/users/me', headers: { 'x-api-key': live.key } });
    expect(viaLive.json()).toMatchObject({ id: developer.userId, credential: { type: 'api_key', environment: 'live', scopes: ['users:read'] } });
    const token = (
      await station.http.inject({ method: 'POST', url: '/v1/auth/token', remoteAddress: clientAddress(), payload: { api_key: sandbox.key } })
    ).json();
    const viaSandbox = await station.http.inject({ url: '/v1/users/me', headers: { authorization: `Bearer ${token.token}`, 'x-api-key': sandbox.key } });
    expect(viaSandbox.json()).toMatchObject({ id: developer.userId, credential: { type: 'api_key', environment: 'test' } });

    const byKey = await station.http.inject({
      method: 'PATCH',
      url: '/v1/users/me',
      headers: { authorization: `Bearer ${token.token}`, 'x-api-key': sandbox.key, 'x-csrf-token': token.csrf_token },
      payload: { country: 'DE' },
    });
    expect(byKey.statusCode).toBe(403);
    const noScope = await createKey(station, developer, { scopes: ['tracks:read'], environment: 'live' });
    expect((await station.http.inject({ url: '/v1/users/me', headers: { 'x-api-key': noScope.key } })).statusCode).toBe(403);
  });
});
