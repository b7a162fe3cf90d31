/**
 * PUT /v1/users/me/password: a logged-in user changes the password by proving the current one. A wrong one is
 * 401 and counts toward the login throttle; the new one must meet the sign-up rule; afterwards only the new
 * password logs in, outstanding reset links die, every other session ends and the one that asked goes on.
 * From a login session only (an API key is refused), with the CSRF token like every change.
 */
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../src/infra/db/schema/index.js';
import { clientAddress } from '../auth/support.js';
import { expectEnvelope } from '../foundation/support.js';
import { buildTestStation, signupListener, type TestStation } from '../helpers/station.js';
import { bearer, createKey, loginAs } from './accounts-support.js';

describe('PUT /v1/users/me/password', () => {
  let station: TestStation;
  beforeAll(async () => {
    station = await buildTestStation();
  });
  afterAll(() => station?.destroy());

  const change = (
    login: { token: string; csrf?: string },
    body: Record<string, unknown>,
    headers: Record<string, string> = bearer(login as { token: string; csrf: string }),
  ) => station.http.inject({ method: 'PUT', url: '/v1/users/me/password', remoteAddress: clientAddress(), headers, payload: body });
  const login = (email: string, password: string) =>
    station.http.inject({ method: 'POST', url: '/v1/auth/login', remoteAddress: clientAddress(), payload: { email, password } });
  const me = (token: string) => station.http.inject({ url: '/v1/users/me', headers: { authorization: `Bearer ${token}` } });
  const emailOf = (tag: string) => `${tag}-${Math.random().toString(36).slice(2, 10)}@example.com`;

  it('sets the new password with the current one: only the new one logs in, other sessions end, this one goes on', async () => {
    const email = emailOf('change');
    const first = await signupListener(station, email);
    const other = (await login(email, 'listener-password')).json();
    // A reset link asked for before the change dies with it.
    await station.http.inject({ method: 'POST', url: '/v1/auth/reset-password', remoteAddress: clientAddress(), payload: { email } });
    await station.auth.drain();
    const [resetMail] = await station.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email)).orderBy(desc(mailOutbox.createdAt));
    const resetToken = decodeURIComponent(/reset-password\?token=(\S+)/.exec(resetMail.textBody)![1]);

    const answer = await change(first, { current_password: 'listener-password', new_password: 'a-new-password-2' });
    expect(answer.statusCode, answer.body).toBe(204);

    expect((await login(email, 'listener-password')).statusCode).toBe(401);
    expect((await login(email, 'a-new-password-2')).statusCode).toBe(200);
    expect((await me(first.token)).statusCode).toBe(200);
    expect((await me(other.token)).statusCode).toBe(401);
    const otherRefresh = await station.http.inject({
      method: 'POST',
      url: '/v1/auth/refresh',
      remoteAddress: clientAddress(),
      payload: { refresh_token: other.refresh_token },
    });
    expect(otherRefresh.statusCode).toBe(401);
    const firstRefresh = await station.http.inject({
      method: 'POST',
      url: '/v1/auth/refresh',
      remoteAddress: clientAddress(),
      payload: { refresh_token: first.refreshToken },
    });
    expect(firstRefresh.statusCode).toBe(200);
    const reset = await station.http.inject({
      method: 'POST',
      url: '/v1/auth/reset-password/confirm',
      remoteAddress: clientAddress(),
      payload: { token: resetToken, password: 'a-third-password-3' },
    });
    expect(reset.statusCode).toBe(400);
  });

  it('refuses a wrong current password (401, counted by the login throttle) and a new one the sign-up rule refuses (400)', async () => {
    const email = emailOf('wrong');
    const user = await signupListener(station, email);
    expectEnvelope(await change(user, { current_password: 'not-the-password', new_password: 'a-new-password-2' }), 401, 'PLATFORM_INVALID_CREDENTIALS');
    expectEnvelope(await change(user, { current_password: 'listener-password', new_password: 'short' }), 400, 'PLATFORM_VALIDATION_FAILED');
    expectEnvelope(await change(user, { current_password: 'listener-password' }), 400, 'PLATFORM_VALIDATION_FAILED');
    expectEnvelope(
      await change(user, { current_password: 'listener-password', new_password: 'a-new-password-2', extra: true }),
      400,
      'PLATFORM_VALIDATION_FAILED',
    );
    // Wrong guesses lock the account's logins for a while, and this route with them.
    let last = await change(user, { current_password: 'guess-0', new_password: 'a-new-password-2' });
    for (let i = 1; i < 12 && last.statusCode === 401; i++) last = await change(user, { current_password: `guess-${i}`, new_password: 'a-new-password-2' });
    expect(last.statusCode).toBe(429);
    expect((await login(email, 'listener-password')).statusCode).toBe(429);
  });

  it('needs the CSRF token, and a login session rather than an API key', async () => {
    const user = await signupListener(station, emailOf('csrf'));
    expectEnvelope(
      await change(user, { current_password: 'listener-password', new_password: 'a-new-password-2' }, { authorization: `Bearer ${user.token}` }),
      403,
      'PLATFORM_CSRF_INVALID',
    );
    const owner = await loginAs(station, 'developer');
    const key = await createKey(station, owner, { scopes: ['users:read'], environment: 'live' });
    const csrf = (await station.http.inject({ url: '/api/auth/csrf', headers: { 'x-api-key': key.key } })).json().csrf_token;
    expectEnvelope(
      await change(owner, { current_password: owner.password, new_password: 'a-new-password-2' }, { 'x-api-key': key.key, 'x-csrf-token': csrf }),
      403,
      'PLATFORM_FORBIDDEN',
    );
  });
});
