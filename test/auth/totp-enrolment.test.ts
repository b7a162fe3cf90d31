/**
 * POST /v1/users/me/totp and /confirm: a secret shown once, counting for nothing until confirmed; re-enrolment
 * replaces an unconfirmed secret freely and a confirmed one only with a current code from it; wrong codes are
 * refused and counted; a super_admin's reset removes the second factor and ends the user's sessions.
 */
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ManualClock } from '../../src/infra/clock/clock.js';
import { users } from '../../src/infra/db/schema/index.js';
import { totpCode } from '../../src/auth/totp.js';
import { TOTP_FAILURES_PER_WINDOW } from '../../src/auth/totp-enrolment.js';
import { authHeaders, stationForSuite, signupListener, staffLogin, type Credentials } from '../helpers/station.js';
import { clientAddress } from './support.js';

describe('two-factor enrolment', () => {
  const clock = new ManualClock(Date.UTC(2026, 8, 1, 9, 0, 0));

  const station = stationForSuite({}, { clock });

  const enrol = (who: Credentials, payload?: Record<string, unknown>) =>
    station.http.inject({ method: 'POST', url: '/v1/users/me/totp', headers: authHeaders(who), ...(payload ? { payload } : {}) });
  const confirm = (who: Credentials, code: string) =>
    station.http.inject({ method: 'POST', url: '/v1/users/me/totp/confirm', headers: authHeaders(who), payload: { code } });
  const wrong = (secret: string) => (totpCode(secret, clock.now()) === '000000' ? '111111' : '000000');

  it('shows a secret with its otpauth URL, and confirms only a current code of the newest secret', async () => {
    const email = `enrol-${Date.now()}@example.com`;
    const user = await signupListener(station, email);
    const nothing = await confirm(user, '123456');
    expect(nothing.statusCode).toBe(409);
    expect(nothing.json().error.code).toBe('PLATFORM_CONFLICT');

    const first = await enrol(user);
    expect(first.statusCode, first.body).toBe(201);
    const { secret, otpauth_url } = first.json();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(otpauth_url);
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(decodeURIComponent(url.pathname)).toBe(`/Station:${email}`);
    expect(url.searchParams.get('secret')).toBe(secret);
    expect(url.searchParams.get('issuer')).toBe('Station');
    // The secret is sealed at rest, never stored as shown.
    const stored = await storedSecrets(user.userId);
    expect(stored.pending).toMatch(/^v1\./);
    expect(stored.pending).not.toContain(secret);
    expect(stored.confirmed).toBeNull();

    const wrongCode = await confirm(user, wrong(secret));
    expect(wrongCode.statusCode).toBe(400);
    expect(wrongCode.json().error.code).toBe('PLATFORM_VALIDATION_FAILED');

    // Re-enrolling replaces the unconfirmed secret: a code of the first one no longer confirms.
    const second = await enrol(user);
    expect(second.statusCode).toBe(201);
    expect(second.json().secret).not.toBe(secret);
    expect((await confirm(user, totpCode(secret, clock.now()))).statusCode).toBe(400);
    const ok = await confirm(user, totpCode(second.json().secret, clock.now()));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ totp_enabled: true });
    expect((await confirm(user, totpCode(second.json().secret, clock.now()))).statusCode).toBe(409);
  });

  it('replaces a confirmed secret only with a current code from it, and ends the other sessions then', async () => {
    const user = await signupListener(station);
    const other = await station.http.inject({
      method: 'POST',
      url: '/v1/auth/refresh',
      payload: { refresh_token: user.refreshToken },
      remoteAddress: clientAddress(),
    });
    const secret = (await enrol(user)).json().secret as string;
    expect((await confirm(user, totpCode(secret, clock.now()))).statusCode).toBe(200);

    const bare = await enrol(user);
    expect(bare.statusCode).toBe(403);
    expect(bare.json().error.code).toBe('PLATFORM_FORBIDDEN');
    clock.advance(30_000);
    expect((await enrol(user, { current_code: wrong(secret) })).statusCode).toBe(400);
    const replacement = await enrol(user, { current_code: totpCode(secret, clock.now()) });
    expect(replacement.statusCode, replacement.body).toBe(201);
    // Until confirmed, the old secret stays the second factor: the replacement is only pending.
    const rows = await storedSecrets(user.userId);
    expect(rows.confirmed).toMatch(/^v1\./);
    expect(rows.pending).toMatch(/^v1\./);

    // A session refreshed from the same login is the caller's own; a second login is "another session".
    const secondLogin = await station.http.inject({
      method: 'POST',
      url: '/v1/auth/login',
      remoteAddress: clientAddress(),
      payload: { email: (await me(user)).email, password: 'listener-password' },
    });
    expect(secondLogin.statusCode).toBe(200);
    const otherSession = { token: secondLogin.json().token, csrf: secondLogin.json().csrf_token, userId: user.userId };
    expect(other.statusCode).toBe(200);
    expect((await confirm(user, totpCode(replacement.json().secret, clock.now()))).statusCode).toBe(200);
    expect((await station.http.inject({ url: '/v1/users/me', headers: authHeaders(otherSession) })).statusCode).toBe(401);
    expect((await station.http.inject({ url: '/v1/users/me', headers: authHeaders(user) })).statusCode).toBe(200);
  });

  it(`answers 429 after ${TOTP_FAILURES_PER_WINDOW} wrong codes`, async () => {
    const user = await signupListener(station);
    const secret = (await enrol(user)).json().secret as string;
    for (let i = 0; i < TOTP_FAILURES_PER_WINDOW; i++) expect((await confirm(user, wrong(secret))).statusCode).toBe(400);
    const locked = await confirm(user, totpCode(secret, clock.now()));
    expect(locked.statusCode).toBe(429);
    expect(locked.headers['retry-after']).toBeDefined();
  });

  it('validates codes by schema and needs a login', async () => {
    const user = await signupListener(station);
    expect((await confirm(user, '12ab56')).statusCode).toBe(400);
    expect((await enrol(user, { current_code: 'abc' })).statusCode).toBe(400);
    expect((await station.http.inject({ method: 'POST', url: '/v1/users/me/totp' })).statusCode).toBe(401);
  });

  it("lets a super_admin reset a second factor, which ends the holder's sessions; admins may not", async () => {
    const user = await signupListener(station);
    const secret = (await enrol(user)).json().secret as string;
    expect((await confirm(user, totpCode(secret, clock.now()))).statusCode).toBe(200);
    clock.advance(30_000);
    const superAdmin = await staffLogin(station, clock);

    const admin = await station.auth.createUser({
      email: `reset-admin-${Date.now()}@example.com`,
      password: 'staff-password-1',
      role: 'admin',
      displayName: 'a',
      totpSecret: secret,
    });
    clock.advance(30_000);
    const adminLogin = await station.http.inject({
      method: 'POST',
      url: '/api/auth/admin/login',
      remoteAddress: clientAddress(),
      payload: { email: admin.email, password: 'staff-password-1', totp_code: totpCode(secret, clock.now()) },
    });
    expect(adminLogin.statusCode).toBe(200);
    const adminCreds = { token: adminLogin.json().access_token, csrf: adminLogin.json().csrf_token, userId: admin.id };
    const byAdmin = await station.http.inject({ method: 'DELETE', url: `/v1/admin/users/${user.userId}/totp`, headers: authHeaders(adminCreds) });
    expect(byAdmin.statusCode).toBe(403);

    const reset = await station.http.inject({ method: 'DELETE', url: `/v1/admin/users/${user.userId}/totp`, headers: authHeaders(superAdmin) });
    expect(reset.statusCode).toBe(204);
    expect((await station.http.inject({ url: '/v1/users/me', headers: authHeaders(user) })).statusCode).toBe(401);
    expect(await storedSecrets(user.userId)).toEqual({ confirmed: null, pending: null });
    const unknown = await station.http.inject({
      method: 'DELETE',
      url: '/v1/admin/users/00000000-0000-4000-8000-000000000000/totp',
      headers: authHeaders(superAdmin),
    });
    expect(unknown.statusCode).toBe(404);
  });

  it("takes the TOTP-only scopes from the holder's API keys when a super_admin resets the second factor", async () => {
    const secret = 'KRSXG5CTMVRXEZLUKRSXG5CTMVRXEZLU';
    const staff = await station.auth.createUser({
      email: `keys-${Date.now()}@example.com`,
      password: 'staff-password-1',
      role: 'admin',
      displayName: 's',
      totpSecret: secret,
    });
    // Keys made from the holder's TOTP login: one with station and admin scopes, one with a plain platform scope.
    const strong = await station.auth.createApiKey({ name: 'ops', scopes: ['station:admin', 'platform:admin'], environment: 'live', ownerUserId: staff.id });
    const plain = await station.auth.createApiKey({ name: 'reader', scopes: ['tracks:read'], environment: 'live', ownerUserId: staff.id });
    const status = (key: string) => station.http.inject({ url: '/station/v1/admin/status', headers: { 'x-api-key': key } });
    expect((await status(strong.key)).statusCode).toBe(200);

    const superAdmin = await staffLogin(station, clock);
    const reset = await station.http.inject({ method: 'DELETE', url: `/v1/admin/users/${staff.id}/totp`, headers: authHeaders(superAdmin) });
    expect(reset.statusCode).toBe(204);
    // No confirmed second factor now: the role's station scopes and platform:admin are gone from every credential.
    expect([401, 403]).toContain((await status(strong.key)).statusCode);
    expect([401, 403]).toContain((await station.http.inject({ url: '/v1/admin/users', headers: { 'x-api-key': strong.key } })).statusCode);
    expect((await station.http.inject({ url: '/v1/tracks', headers: { 'x-api-key': plain.key } })).statusCode).toBe(200);
  });

  async function storedSecrets(id: string) {
    const [row] = await station.database.db.select({ confirmed: users.totpSecret, pending: users.totpPendingSecret }).from(users).where(eq(users.id, id));
    return row!;
  }

  async function me(who: Credentials): Promise<{ email: string }> {
    return (await station.http.inject({ url: '/v1/users/me', headers: authHeaders(who) })).json();
  }
});
