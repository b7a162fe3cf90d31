/**
 * PATCH /v1/admin/users/{id}/role and the staff journey of issue 17: a user made staff by a super_admin holds
 * no station scope until they enrolled and confirmed TOTP and logged in with it, at /api/auth/admin/login or
 * through the 2FA step of /v1/auth/login. Who may give which role; the last super_admin; changes apply at once.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/infra/clock/clock.js';
import { totpCode } from '../../src/auth/totp.js';
import { isDomainError } from '../../src/errors.js';
import { authHeaders, stationForSuite, signupListener, staffLogin, type Credentials } from '../helpers/station.js';
import { clientAddress, staffWithTotp } from '../auth/support.js';

describe('staff roles', () => {
  let superAdmin: Credentials;
  const clock = new ManualClock(Date.UTC(2026, 8, 2, 9, 0, 0));

  const station = stationForSuite({}, { clock });
  beforeAll(async () => {
    superAdmin = await staffLogin(station, clock);
  });

  const setRole = (caller: Credentials, id: string, role: string) =>
    station.http.inject({ method: 'PATCH', url: `/v1/admin/users/${id}/role`, headers: authHeaders(caller), payload: { role } });
  const scopesOf = async (who: Credentials): Promise<string[]> => {
    const answer = await station.http.inject({ url: '/v1/users/me', headers: authHeaders(who) });
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json().credential.scopes;
  };
  const newListener = async () => {
    const email = `staff-${Math.random().toString(36).slice(2)}@example.com`;
    return { email, ...(await signupListener(station, email)) };
  };

  it('never demotes the last active super_admin', async () => {
    // Through HTTP nobody changes their own role, so the only super_admin is refused here, at the service.
    const error = await station.auth.setUserRole(superAdmin.userId, 'admin').catch((e: unknown) => e);
    expect(isDomainError(error, 'CONFLICT')).toBe(true);
    const second = await staffWithTotp(station, clock, 'super_admin');
    const demoted = await setRole(superAdmin, second.userId, 'admin');
    expect(demoted.statusCode, demoted.body).toBe(200);
    expect(demoted.json().role).toBe('admin');
    const self = await setRole(superAdmin, superAdmin.userId, 'admin');
    expect(self.statusCode).toBe(409);
  });

  it('makes a listener staff: station scopes only after TOTP enrolment, confirmation and a login with it', async () => {
    const user = await newListener();
    const promoted = await setRole(superAdmin, user.userId, 'admin');
    expect(promoted.statusCode, promoted.body).toBe(200);
    expect(promoted.json()).toMatchObject({ id: user.userId, role: 'admin' });

    // The role applies at once, but a session without TOTP holds none of the TOTP-only scopes.
    const before = await scopesOf(user);
    expect(before).toContain('station:read');
    expect(before).not.toContain('station:admin');
    expect(before).not.toContain('platform:admin');
    clock.advance(30_000);
    const noTotp = await station.http.inject({
      method: 'POST',
      url: '/api/auth/admin/login',
      remoteAddress: clientAddress(),
      payload: { email: user.email, password: 'listener-password', totp_code: '123456' },
    });
    expect(noTotp.statusCode).toBe(401);

    // Enrolled but not confirmed: still a password-only login.
    const enrolment = await station.http.inject({ method: 'POST', url: '/v1/users/me/totp', headers: authHeaders(user) });
    expect(enrolment.statusCode).toBe(201);
    const secret = enrolment.json().secret as string;
    const pendingLogin = await platformLogin(user.email);
    expect(pendingLogin.json().requires_2fa).toBeUndefined();
    expect(await scopesOf({ token: pendingLogin.json().token, csrf: pendingLogin.json().csrf_token, userId: user.userId })).not.toContain('station:admin');
    const pendingStaff = await station.http.inject({
      method: 'POST',
      url: '/api/auth/admin/login',
      remoteAddress: clientAddress(),
      payload: { email: user.email, password: 'listener-password', totp_code: totpCode(secret, clock.now()) },
    });
    expect(pendingStaff.statusCode).toBe(401);

    const confirmCode = totpCode(secret, clock.now());
    expect(
      (await station.http.inject({ method: 'POST', url: '/v1/users/me/totp/confirm', headers: authHeaders(user), payload: { code: confirmCode } })).statusCode,
    ).toBe(200);
    // The confirming code is spent: it does not open a login.
    const replay = await station.http.inject({
      method: 'POST',
      url: '/api/auth/admin/login',
      remoteAddress: clientAddress(),
      payload: { email: user.email, password: 'listener-password', totp_code: confirmCode },
    });
    expect(replay.statusCode).toBe(401);
    // The session that confirmed did not pass TOTP itself: it still lacks the station scopes.
    expect(await scopesOf(user)).not.toContain('station:admin');

    clock.advance(30_000);
    const staff = await station.http.inject({
      method: 'POST',
      url: '/api/auth/admin/login',
      remoteAddress: clientAddress(),
      payload: { email: user.email, password: 'listener-password', totp_code: totpCode(secret, clock.now()) },
    });
    expect(staff.statusCode, staff.body).toBe(200);
    expect(staff.json().user).toMatchObject({ email: user.email, role: 'admin' });
    const staffScopes = await scopesOf({ token: staff.json().access_token, csrf: staff.json().csrf_token, userId: user.userId });
    expect(staffScopes).toEqual(expect.arrayContaining(['station:admin', 'station:train', 'station:generate', 'platform:admin']));

    // The platform login now asks for the second factor, and its 2FA step gives the same scopes.
    const first = await platformLogin(user.email);
    expect(first.json()).toEqual({ requires_2fa: true, temp_token: expect.any(String) });
    clock.advance(30_000);
    const verified = await station.http.inject({
      method: 'POST',
      url: '/v1/auth/2fa/verify',
      remoteAddress: clientAddress(),
      payload: { temp_token: first.json().temp_token, code: totpCode(secret, clock.now()) },
    });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(await scopesOf({ token: verified.json().token, csrf: verified.json().csrf_token, userId: user.userId })).toContain('platform:admin');

    // Demoting applies at once to the TOTP session too.
    const admin = { token: staff.json().access_token, csrf: staff.json().csrf_token, userId: user.userId };
    expect((await station.http.inject({ url: '/v1/admin/users', headers: authHeaders(admin) })).statusCode).toBe(200);
    expect((await setRole(superAdmin, user.userId, 'listener')).statusCode).toBe(200);
    const after = await station.http.inject({ url: '/v1/admin/users', headers: authHeaders(admin) });
    expect(after.statusCode).toBe(403);
    expect(await scopesOf(admin)).not.toContain('station:admin');
  });

  it('lets only a super_admin give or take admin, super_admin and developer; admins switch listener and artist', async () => {
    const admin = await staffWithTotp(station, clock, 'admin');
    const otherAdmin = await staffWithTotp(station, clock, 'admin');
    const user = await newListener();

    const toArtist = await setRole(admin, user.userId, 'artist');
    expect(toArtist.statusCode, toArtist.body).toBe(200);
    expect(toArtist.json().role).toBe('artist');
    expect((await setRole(admin, user.userId, 'listener')).json().role).toBe('listener');

    for (const role of ['developer', 'admin', 'super_admin']) {
      const refused = await setRole(admin, user.userId, role);
      expect(refused.statusCode, role).toBe(403);
      expect(refused.json().error.code).toBe('PLATFORM_FORBIDDEN');
    }
    // Taking a privileged role away is a super_admin's too.
    expect((await setRole(admin, otherAdmin.userId, 'listener')).statusCode).toBe(403);
    expect((await setRole(superAdmin, user.userId, 'developer')).json().role).toBe('developer');
    expect((await setRole(admin, user.userId, 'listener')).statusCode).toBe(403);
    expect((await setRole(superAdmin, user.userId, 'listener')).json().role).toBe('listener');

    // Listeners and artists hold no platform:admin.
    expect((await setRole(user, otherAdmin.userId, 'listener')).statusCode).toBe(403);
    expect((await setRole(superAdmin, user.userId, 'emperor')).statusCode).toBe(400);
    expect((await setRole(superAdmin, '00000000-0000-4000-8000-000000000000', 'artist')).statusCode).toBe(404);
  });

  async function platformLogin(email: string) {
    return station.http.inject({ method: 'POST', url: '/v1/auth/login', remoteAddress: clientAddress(), payload: { email, password: 'listener-password' } });
  }
});
