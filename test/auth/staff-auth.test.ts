import { describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { ManualClock } from '../../src/infra/clock/clock.js';
import { totpCode } from '../../src/auth/totp.js';
import { ADMIN, authHeaders, stationForSuite, signupListener, staffLogin } from '../helpers/station.js';

const SERVICE_KEY = 'svc_test_0123456789abcdefghijklmnop';

describe('staff authentication', () => {
  const clock = new ManualClock(Date.UTC(2026, 5, 1, 12, 0, 0));

  const station = stationForSuite({ STATION_SERVICE_API_KEY: SERVICE_KEY }, { clock });

  function login(payload: Record<string, unknown>, ip = '10.0.0.1') {
    return station.http.inject({ method: 'POST', url: '/api/auth/admin/login', payload, remoteAddress: ip });
  }

  it('logs the bootstrap super_admin in and sets the refresh cookie as the contract says', async () => {
    clock.advance(60_000);
    const response = await login({ email: ADMIN.email, password: ADMIN.password, totp_code: totpCode(ADMIN.totpSecret, clock.now()) }, '10.0.1.1');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 900, user: { email: ADMIN.email, role: 'super_admin' } });
    expect(body.access_token.split('.')).toHaveLength(3);
    expect(body.csrf_token).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const cookie = String(response.headers['set-cookie']);
    expect(cookie).toMatch(/^refresh_token=rt_/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).toContain('Path=/api/auth');
    expect(cookie).toContain(`Max-Age=${7 * 24 * 3600}`);
  });

  it('refuses a wrong password, a wrong TOTP code and a replayed TOTP code', async () => {
    clock.advance(60_000);
    const code = totpCode(ADMIN.totpSecret, clock.now());
    const wrongPassword = await login({ email: ADMIN.email, password: 'not the password', totp_code: code }, '10.0.2.1');
    expect(wrongPassword.statusCode).toBe(401);
    expect(wrongPassword.json().error.code).toBe('STATION_INVALID_CREDENTIALS');
    const wrongCode = await login({ email: ADMIN.email, password: ADMIN.password, totp_code: code === '000000' ? '111111' : '000000' }, '10.0.2.2');
    expect(wrongCode.statusCode).toBe(401);
    const first = await login({ email: ADMIN.email, password: ADMIN.password, totp_code: code }, '10.0.2.3');
    expect(first.statusCode).toBe(200);
    const replay = await login({ email: ADMIN.email, password: ADMIN.password, totp_code: code }, '10.0.2.4');
    expect(replay.statusCode).toBe(401);
    // The same answer whichever part was wrong (test/auth/uniform-failure.test.ts covers every case).
    const { request_id: _a, ...replayError } = replay.json().error;
    const { request_id: _b, ...wrongPasswordError } = wrongPassword.json().error;
    expect(replayError).toEqual(wrongPasswordError);
  });

  it('accepts a code from one step of clock drift but not two', async () => {
    clock.advance(120_000);
    const previous = totpCode(ADMIN.totpSecret, clock.now() - 30_000);
    expect((await login({ email: ADMIN.email, password: ADMIN.password, totp_code: previous }, '10.0.3.1')).statusCode).toBe(200);
    clock.advance(120_000);
    const stale = totpCode(ADMIN.totpSecret, clock.now() - 90_000);
    expect((await login({ email: ADMIN.email, password: ADMIN.password, totp_code: stale }, '10.0.3.2')).statusCode).toBe(401);
  });

  it('refuses listeners at the staff login', async () => {
    await signupListener(station, 'staff-try@example.com');
    clock.advance(60_000);
    const response = await login({ email: 'staff-try@example.com', password: 'listener-password', totp_code: '123456' }, '10.0.4.1');
    expect(response.statusCode).toBe(401);
  });

  it('validates the body by schema', async () => {
    const response = await login({ email: ADMIN.email, password: ADMIN.password, totp_code: '12ab56' }, '10.0.5.1');
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('STATION_VALIDATION_FAILED');
  });

  it('limits staff login to 5 attempts per 15 minutes', async () => {
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 6; i++) {
      // A different e-mail each time: this is the per-address limit, not the per-account throttle.
      last = await login({ email: `guess-${i}@station.test`, password: 'wrong password', totp_code: '123456' }, '10.0.6.1');
      statuses.push(last.statusCode);
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses[5]).toBe(429);
    const body = last!.json();
    expect(body.error.code).toBe('STATION_RATE_LIMITED');
    expect(body.error.retry_after).toBeGreaterThan(0);
    expect(Number(last!.headers['retry-after'])).toBe(body.error.retry_after);
  });

  it('rotates the refresh cookie and revokes the whole login when a rotated token is reused', async () => {
    clock.advance(60_000);
    const first = await staffLogin(station, clock);
    const refreshed = await station.http.inject({ method: 'POST', url: '/api/auth/refresh', headers: { cookie: first.cookie } });
    expect(refreshed.statusCode).toBe(200);
    const next = refreshed.json();
    expect(next).toMatchObject({ token_type: 'Bearer', expires_in: 900 });
    const rotatedCookie = String(refreshed.headers['set-cookie']).split(';')[0];
    expect(rotatedCookie).not.toBe(first.cookie);

    const stillValid = await station.http.inject({ url: '/station/v1/auth/validate', headers: { authorization: `Bearer ${next.access_token}` } });
    expect(stillValid.statusCode).toBe(200);

    const reuse = await station.http.inject({ method: 'POST', url: '/api/auth/refresh', headers: { cookie: first.cookie } });
    expect(reuse.statusCode).toBe(401);
    // The whole login is gone: the newest refresh token and the access tokens of that login stop working.
    const afterReuse = await station.http.inject({ method: 'POST', url: '/api/auth/refresh', headers: { cookie: rotatedCookie } });
    expect(afterReuse.statusCode).toBe(401);
    const revoked = await station.http.inject({ url: '/station/v1/auth/validate', headers: { authorization: `Bearer ${next.access_token}` } });
    expect(revoked.statusCode).toBe(401);
  });

  it('refuses a refresh without cookie and an unknown cookie', async () => {
    expect((await station.http.inject({ method: 'POST', url: '/api/auth/refresh' })).statusCode).toBe(401);
    const unknown = await station.http.inject({ method: 'POST', url: '/api/auth/refresh', headers: { cookie: 'refresh_token=rt_nope' } });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().error.code).toBe('STATION_AUTH_REQUIRED');
  });

  it('expires access tokens after 15 minutes', async () => {
    clock.advance(60_000);
    const staff = await staffLogin(station, clock);
    const validate = () => station.http.inject({ url: '/station/v1/auth/validate', headers: { authorization: `Bearer ${staff.token}` } });
    expect((await validate()).statusCode).toBe(200);
    clock.advance(15 * 60_000 + 1_000);
    const expired = await validate();
    expect(expired.statusCode).toBe(401);
    expect(expired.json().error).toMatchObject({ code: 'STATION_AUTH_REQUIRED', detail: 'token expired' });
  });

  it('refuses forged tokens: wrong key, alg none, wrong type', async () => {
    clock.advance(60_000);
    const staff = await staffLogin(station, clock);
    const [header, payload] = staff.token.split('.');
    const noneHeader = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const forgedKey = await new SignJWT({ role: 'super_admin', sid: 'x', typ: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(staff.userId)
      .setIssuer('station')
      .setAudience('station-api')
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode('a-completely-different-secret-key-of-32b'));
    for (const token of [`${noneHeader}.${payload}.`, forgedKey, `${header}.${payload}.AAAA`, 'garbage']) {
      const response = await station.http.inject({ url: '/station/v1/auth/validate', headers: { authorization: `Bearer ${token}` } });
      expect(response.statusCode).toBe(401);
    }
  });

  it('answers the permission set per role and per service key', async () => {
    clock.advance(60_000);
    const staff = await staffLogin(station, clock);
    const admin = await station.http.inject({ url: '/station/v1/auth/validate', headers: { authorization: `Bearer ${staff.token}` } });
    expect(admin.json()).toMatchObject({ can_train: true, can_generate: true, can_toggle_radio: true, role: 'super_admin' });

    const listener = await signupListener(station);
    const asListener = await station.http.inject({ url: '/station/v1/auth/validate', headers: { authorization: `Bearer ${listener.token}` } });
    expect(asListener.json()).toMatchObject({ can_train: false, can_generate: false, can_toggle_radio: false, scopes: ['station:read'] });

    const service = await station.http.inject({ url: '/station/v1/auth/validate', headers: { 'x-api-key': SERVICE_KEY } });
    expect(service.json()).toMatchObject({ can_train: false, can_generate: true, can_toggle_radio: false, scopes: ['station:generate', 'station:read'] });

    const badKey = await station.http.inject({ url: '/station/v1/auth/validate', headers: { 'x-api-key': 'svc_unknown_key_000000000000' } });
    expect(badKey.statusCode).toBe(401);
  });

  it('gives developers station:train and station:read only', async () => {
    await station.auth.createUser({
      email: 'dev@station.test',
      password: 'developer-password',
      role: 'developer',
      displayName: 'Dev',
      totpSecret: ADMIN.totpSecret,
    });
    clock.advance(60_000);
    const response = await login({ email: 'dev@station.test', password: 'developer-password', totp_code: totpCode(ADMIN.totpSecret, clock.now()) }, '10.0.7.1');
    expect(response.statusCode).toBe(200);
    const validate = await station.http.inject({ url: '/station/v1/auth/validate', headers: { authorization: `Bearer ${response.json().access_token}` } });
    expect(validate.json()).toMatchObject({ can_train: true, can_generate: false, can_toggle_radio: false, scopes: ['station:read', 'station:train'] });
  });

  it('requires the CSRF token of the credential on unsafe methods', async () => {
    clock.advance(60_000);
    const staff = await staffLogin(station, clock);
    const logout = (headers: Record<string, string>) => station.http.inject({ method: 'POST', url: '/api/auth/logout', headers });
    const missing = await logout({ authorization: `Bearer ${staff.token}` });
    expect(missing.statusCode).toBe(403);
    expect(missing.json().error.code).toBe('STATION_CSRF_INVALID');

    const other = await signupListener(station);
    const wrong = await logout({ authorization: `Bearer ${staff.token}`, 'x-csrf-token': other.csrf });
    expect(wrong.statusCode).toBe(403);

    const csrf = await station.http.inject({ url: '/api/auth/csrf', headers: { authorization: `Bearer ${staff.token}` } });
    expect(csrf.json().csrf_token).toBe(staff.csrf);
    const keyCsrf = await station.http.inject({ url: '/api/auth/csrf', headers: { 'x-api-key': SERVICE_KEY } });
    expect(keyCsrf.json().csrf_token).not.toBe(staff.csrf);

    const ok = await logout(authHeaders(staff));
    expect(ok.statusCode).toBe(204);
    const after = await station.http.inject({ url: '/station/v1/auth/validate', headers: { authorization: `Bearer ${staff.token}` } });
    expect(after.statusCode).toBe(401);
  });
});
