/**
 * The listener's refresh token as an HttpOnly, SameSite=Strict cookie scoped to POST /v1/auth/refresh (security
 * issue #16, item 13): every platform session answer sets it, a refresh with no body token takes it, rotates it
 * and answers without the token in the body; revoke clears it. The body flow of API clients is unchanged.
 */
import { describe, expect, it } from 'vitest';
import { stationForSuite } from '../helpers/station.js';
import { clientAddress } from './support.js';

interface SetCookie {
  value: string;
  attributes: string[];
}

/** The platform refresh cookie an answer sets, with its attributes (lower-cased). */
function refreshCookieOf(headers: Record<string, unknown>): SetCookie | null {
  const all = ([] as string[]).concat((headers['set-cookie'] as string | string[] | undefined) ?? []);
  const line = all.find((cookie) => cookie.startsWith('platform_refresh_token='));
  if (!line) return null;
  const [pair, ...attributes] = line.split(';').map((part) => part.trim());
  return { value: decodeURIComponent(pair.slice(pair.indexOf('=') + 1)), attributes: attributes.map((a) => a.toLowerCase()) };
}

describe('the platform refresh cookie', () => {
  const station = stationForSuite();

  const post = (url: string, payload?: object, headers: Record<string, string> = {}) =>
    station.http.inject({ method: 'POST', url, remoteAddress: clientAddress(), headers, ...(payload === undefined ? {} : { payload }) });
  const refreshWithCookie = (value: string, payload?: object) =>
    post('/v1/auth/refresh', payload, { cookie: `platform_refresh_token=${encodeURIComponent(value)}` });
  const validate = (token: string) => station.http.inject({ url: '/station/v1/auth/validate', headers: { authorization: `Bearer ${token}` } });
  const email = () => `cookie-${Math.random().toString(36).slice(2, 10)}@example.com`;

  it('is set HttpOnly, SameSite=Strict, Path=/v1/auth/refresh, 7 days by sign-up and login, beside the body token', async () => {
    const address = email();
    const signup = await post('/v1/auth/signup', { email: address, password: 'listener-password', display_name: 'Cookie' });
    expect(signup.statusCode).toBe(201);
    const cookie = refreshCookieOf(signup.headers);
    expect(cookie).not.toBeNull();
    expect(cookie!.value).toBe(signup.json().refresh_token);
    expect(cookie!.attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=strict', 'path=/v1/auth/refresh', `max-age=${7 * 24 * 3600}`]));
    expect(cookie!.attributes).not.toContain('secure'); // PUBLIC_BASE_URL is http:// here; https:// adds Secure

    const login = await post('/v1/auth/login', { email: address, password: 'listener-password' });
    expect(refreshCookieOf(login.headers)?.value).toBe(login.json().refresh_token);
  });

  it('refreshes with the cookie alone, rotates it, keeps the token out of the body, and a replayed cookie revokes the login', async () => {
    const signup = await post('/v1/auth/signup', { email: email(), password: 'listener-password', display_name: 'Cookie' });
    const first = refreshCookieOf(signup.headers)!.value;

    const renewed = await refreshWithCookie(first);
    expect(renewed.statusCode, renewed.body).toBe(200);
    const body = renewed.json();
    expect(body).toMatchObject({
      token: expect.any(String),
      csrf_token: expect.any(String),
      expires_in: 900,
      role: 'listener',
      user: { id: signup.json().user.id },
    });
    expect(body).not.toHaveProperty('refresh_token');
    const rotated = refreshCookieOf(renewed.headers);
    expect(rotated?.value).toEqual(expect.any(String));
    expect(rotated!.value).not.toBe(first);
    expect((await validate(body.token)).statusCode).toBe(200);

    // An empty JSON body is the same as none.
    const again = await refreshWithCookie(rotated!.value, {});
    expect(again.statusCode).toBe(200);
    const latest = refreshCookieOf(again.headers)!.value;

    const replay = await refreshWithCookie(first);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().error.code).toBe('PLATFORM_AUTH_REQUIRED');
    expect((await refreshWithCookie(latest)).statusCode).toBe(401);
    expect((await validate(again.json().token)).statusCode).toBe(401);
  });

  it('keeps the body flow of API clients (the body token wins over a cookie) and answers 401 with neither', async () => {
    const signup = (await post('/v1/auth/signup', { email: email(), password: 'listener-password', display_name: 'Api' })).json();
    const renewed = await post('/v1/auth/refresh', { refresh_token: signup.refresh_token });
    expect(renewed.statusCode).toBe(200);
    expect(renewed.json().refresh_token).toEqual(expect.any(String));
    expect(refreshCookieOf(renewed.headers)?.value).toBe(renewed.json().refresh_token);

    const none = await post('/v1/auth/refresh');
    expect(none.statusCode).toBe(401);
    expect(none.json().error.code).toBe('PLATFORM_AUTH_REQUIRED');
    expect((await refreshWithCookie('rt_not-a-token', { refresh_token: renewed.json().refresh_token })).statusCode).toBe(200);
  });

  it('is cleared by revoke, and the staff refresh path does not take it', async () => {
    const signup = await post('/v1/auth/signup', { email: email(), password: 'listener-password', display_name: 'Leaving' });
    const body = signup.json();
    const crossKind = await station.http.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      headers: { cookie: `refresh_token=${refreshCookieOf(signup.headers)!.value}` },
    });
    expect(crossKind.statusCode).toBe(401);

    const revoked = await post('/v1/auth/revoke', {}, { authorization: `Bearer ${body.token}`, 'x-csrf-token': body.csrf_token });
    expect(revoked.statusCode).toBe(200);
    const cleared = refreshCookieOf(revoked.headers);
    expect(cleared?.value).toBe('');
    expect(cleared!.attributes).toEqual(expect.arrayContaining(['path=/v1/auth/refresh']));
    expect((await refreshWithCookie(refreshCookieOf(signup.headers)!.value)).statusCode).toBe(401);
  });
});
