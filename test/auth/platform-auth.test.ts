import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { users } from '../../src/infra/db/schema/index.js';
import { ManualClock } from '../../src/infra/clock/clock.js';
import { totpCode } from '../../src/auth/totp.js';
import { ADMIN, stationForSuite, signupListener } from '../helpers/station.js';

describe('platform authentication', () => {
  const clock = new ManualClock(Date.UTC(2026, 6, 1, 9, 0, 0));

  const station = stationForSuite({}, { clock });

  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    station.http.inject({ method: 'POST', url, payload: payload as object, headers });

  it('signs a listener up and returns the contract body', async () => {
    const response = await post('/v1/auth/signup', { email: 'New.User@Example.com', password: 'long-enough-pw', display_name: 'New User' });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(Object.keys(body)).toEqual(expect.arrayContaining(['token', 'refresh_token', 'csrf_token', 'user']));
    expect(body.user).toMatchObject({ email: 'new.user@example.com', role: 'listener', display_name: 'New User' });
    const me = await station.http.inject({ url: '/station/v1/auth/validate', headers: { authorization: `Bearer ${body.token}` } });
    expect(me.json().scopes).toEqual(['station:read']);
  });

  it('refuses a second account for the same e-mail, whatever its case, and keeps the first', async () => {
    await post('/v1/auth/signup', { email: 'dup@example.com', password: 'long-enough-pw', display_name: 'First' });
    const again = await post('/v1/auth/signup', { email: 'DUP@example.com', password: 'another-password', display_name: 'Second' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('PLATFORM_CONFLICT');
    const login = await post('/v1/auth/login', { email: 'dup@example.com', password: 'long-enough-pw' });
    expect(login.statusCode).toBe(200);
    expect(login.json().user.display_name).toBe('First');
  });

  it('validates sign-up bodies', async () => {
    for (const payload of [
      { email: 'not-an-email', password: 'long-enough-pw', display_name: 'x' },
      { email: 'a@example.com', password: 'short', display_name: 'x' },
      { email: 'a@example.com', password: 'long-enough-pw' },
      { email: 'a@example.com', password: 'long-enough-pw', display_name: 'x', role: 'admin' },
    ]) {
      const response = await post('/v1/auth/signup', payload);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('PLATFORM_VALIDATION_FAILED');
    }
  });

  it('logs in with the contract body and refuses a wrong password without revealing which part was wrong', async () => {
    const listener = await signupListener(station, 'login@example.com');
    const ok = await post('/v1/auth/login', { email: 'login@example.com', password: 'listener-password' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ role: 'listener' });
    expect(ok.json().token).not.toBe(listener.token);
    const wrong = await post('/v1/auth/login', { email: 'login@example.com', password: 'wrong-password' });
    const unknown = await post('/v1/auth/login', { email: 'nobody@example.com', password: 'wrong-password' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json().error.message).toBe(unknown.json().error.message);
  });

  it('sends admin roles through the 2FA step, and the temp token is not an access token', async () => {
    const first = await post('/v1/auth/login', { email: ADMIN.email, password: ADMIN.password });
    expect(first.statusCode).toBe(200);
    const { requires_2fa, temp_token } = first.json();
    expect(requires_2fa).toBe(true);
    const asAccess = await station.http.inject({ url: '/station/v1/auth/validate', headers: { authorization: `Bearer ${temp_token}` } });
    expect(asAccess.statusCode).toBe(401);

    clock.advance(60_000);
    const verified = await post('/v1/auth/2fa/verify', { temp_token, code: totpCode(ADMIN.totpSecret, clock.now()) });
    expect(verified.statusCode).toBe(200);
    expect(verified.json().role).toBe('super_admin');
    const replay = await post('/v1/auth/2fa/verify', { temp_token, code: totpCode(ADMIN.totpSecret, clock.now()) });
    expect(replay.statusCode).toBe(401);

    clock.advance(6 * 60_000);
    const expired = await post('/v1/auth/2fa/verify', { temp_token, code: totpCode(ADMIN.totpSecret, clock.now()) });
    expect(expired.statusCode).toBe(401);
  });

  it('rotates refresh tokens and revokes the login on reuse', async () => {
    const listener = await signupListener(station);
    const first = await post('/v1/auth/refresh', { refresh_token: listener.refreshToken });
    expect(first.statusCode).toBe(200);
    const second = await post('/v1/auth/refresh', { refresh_token: first.json().refresh_token });
    expect(second.statusCode).toBe(200);
    const reuse = await post('/v1/auth/refresh', { refresh_token: listener.refreshToken });
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json().error.code).toBe('PLATFORM_AUTH_REQUIRED');
    const newest = await post('/v1/auth/refresh', { refresh_token: second.json().refresh_token });
    expect(newest.statusCode).toBe(401);
    // A staff refresh cookie endpoint does not accept platform refresh tokens either.
    const crossKind = await station.http.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      headers: { cookie: `refresh_token=${second.json().refresh_token}` },
    });
    expect(crossKind.statusCode).toBe(401);
  });

  it('expires refresh tokens after 7 days', async () => {
    const listener = await signupListener(station);
    clock.advance(7 * 24 * 3600 * 1000 + 1000);
    const response = await post('/v1/auth/refresh', { refresh_token: listener.refreshToken });
    expect(response.statusCode).toBe(401);
  });

  it('revokes the current session with CSRF and leaves other sessions alone', async () => {
    const listener = await signupListener(station, 'revoke@example.com');
    const other = (await post('/v1/auth/login', { email: 'revoke@example.com', password: 'listener-password' })).json();
    const noCsrf = await post('/v1/auth/revoke', {}, { authorization: `Bearer ${listener.token}` });
    expect(noCsrf.statusCode).toBe(403);
    expect(noCsrf.json().error.code).toBe('PLATFORM_CSRF_INVALID');
    const revoked = await post('/v1/auth/revoke', {}, { authorization: `Bearer ${listener.token}`, 'x-csrf-token': listener.csrf });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toEqual({ revoked: true });
    const validate = (token: string) => station.http.inject({ url: '/station/v1/auth/validate', headers: { authorization: `Bearer ${token}` } });
    expect((await validate(listener.token)).statusCode).toBe(401);
    expect((await validate(other.token)).statusCode).toBe(200);
    expect((await post('/v1/auth/refresh', { refresh_token: listener.refreshToken })).statusCode).toBe(401);
  });

  it('stores passwords as argon2id with at least 46 MiB of memory', async () => {
    await signupListener(station, 'hash@example.com');
    // Read the column itself: this checks what is actually stored.
    const [row] = await station.database.db.select({ hash: users.passwordHash }).from(users).where(eq(users.email, 'hash@example.com'));
    const hash = row.hash;
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=(\d+),t=1,p=1\$/);
    expect(Number(/m=(\d+)/.exec(hash)![1])).toBeGreaterThanOrEqual(46 * 1024);
  });
});
