/**
 * E-mail verification (contract.md, "Accounts and onboarding"): sign-up mails a single-use 24-hour link through
 * the mailer (the database outbox here), POST /v1/auth/verify-email marks the address verified, resend is
 * logged in and limited, an address change starts over, and assertEmailVerified is the check other modules use.
 */
import { describe, expect, it } from 'vitest';
import { desc, eq, sql } from 'drizzle-orm';
import { ManualClock } from '../../src/infra/clock/clock.js';
import { mailOutbox } from '../../src/infra/db/schema/index.js';
import { isDomainError } from '../../src/errors.js';
import { toErrorResponse } from '../../src/http/error-handler.js';
import { stationForSuite, signupListener, staffLogin } from '../helpers/station.js';
import { clientAddress } from '../auth/support.js';
import { bearer, createKey, loginAs } from './accounts-support.js';

describe('e-mail verification', () => {
  const clock = new ManualClock(Date.UTC(2026, 6, 1, 9, 0, 0));

  const station = stationForSuite({}, { clock });

  const verify = (token: string) => station.http.inject({ method: 'POST', url: '/v1/auth/verify-email', remoteAddress: clientAddress(), payload: { token } });
  const resend = (login: { token: string; csrf: string }) =>
    station.http.inject({ method: 'POST', url: '/v1/auth/verify-email/resend', remoteAddress: clientAddress(), headers: bearer(login) });
  const me = async (login: { token: string }) => {
    const answer = await station.http.inject({ url: '/v1/users/me', headers: { authorization: `Bearer ${login.token}` } });
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json();
  };
  const changeEmail = (login: { token: string; csrf: string }, email: string, password: string) =>
    station.http.inject({ method: 'PUT', url: '/v1/users/me/email', remoteAddress: clientAddress(), headers: bearer(login), payload: { email, password } });

  async function mailsTo(email: string, subject = 'Confirm your e-mail address') {
    await station.auth.drain();
    return station.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.toAddress, email))
      .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
      .then((rows) => rows.filter((row) => row.subject === subject));
  }
  function tokenOf(mail: { textBody: string }): string {
    const link = /https?:\/\/\S+\/verify-email\?token=(\S+)/.exec(mail.textBody);
    expect(link, mail.textBody).not.toBeNull();
    expect(mail.textBody).toContain('http://station.test/verify-email?token=');
    return decodeURIComponent(link![1]);
  }
  /** A fresh access token after the clock moved past the last one's 15 minutes. */
  const relogin = async (email: string) => {
    const answer = await station.http.inject({
      method: 'POST',
      url: '/v1/auth/login',
      remoteAddress: clientAddress(),
      payload: { email, password: 'listener-password' },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    return { token: answer.json().token as string, csrf: answer.json().csrf_token as string };
  };
  const emailOf = (tag: string) => `${tag}-${Math.random().toString(36).slice(2, 10)}@example.com`;

  it('mails a link at sign-up; the link verifies the address once, and only its hash is stored', async () => {
    const email = emailOf('signup');
    const listener = await signupListener(station, email);
    expect(await me(listener)).toMatchObject({ email, email_verified: false });
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0].transport).toBe('outbox');
    const token = tokenOf(mails[0]);
    const stored = await station.database.db.execute(sql`SELECT * FROM email_verification_tokens`);
    expect(JSON.stringify((stored as unknown as { rows: unknown[] }).rows)).not.toContain(token);

    const done = await verify(token);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toEqual({ email_verified: true });
    expect(await me(listener)).toMatchObject({ email_verified: true });
    await expect(station.auth.assertEmailVerified(listener.userId)).resolves.toBeUndefined();

    const again = await verify(token);
    expect(again.statusCode).toBe(400);
    expect(again.json().error.code).toBe('PLATFORM_VERIFICATION_TOKEN_INVALID');
  });

  it('a link is valid 24 hours', async () => {
    const email = emailOf('late');
    await signupListener(station, email);
    const token = tokenOf((await mailsTo(email))[0]);
    clock.advance(24 * 3600_000 + 1);
    const late = await verify(token);
    expect(late.statusCode).toBe(400);
    expect(late.json().error.code).toBe('PLATFORM_VERIFICATION_TOKEN_INVALID');
    expect(await me(await relogin(email))).toMatchObject({ email_verified: false });
    expect((await verify('evt_unknown')).json().error.code).toBe('PLATFORM_VERIFICATION_TOKEN_INVALID');
  });

  it('resends a link to a logged-in, unverified account, at most 3 an hour; a used link kills the others', async () => {
    // Start of a clock hour, so the three requests share one window.
    clock.set(Math.ceil(clock.now() / 3600_000) * 3600_000 + 60_000);
    const email = emailOf('resend');
    let listener: { token: string; csrf: string } = await signupListener(station, email);
    expect((await station.http.inject({ method: 'POST', url: '/v1/auth/verify-email/resend', remoteAddress: clientAddress() })).statusCode).toBe(401);
    for (let i = 0; i < 3; i++) {
      const accepted = await resend(listener);
      expect(accepted.statusCode, accepted.body).toBe(202);
    }
    const limited = await resend(listener);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe('PLATFORM_RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBe(3540);
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(4); // the sign-up's and three resends

    clock.advance(3540_000);
    listener = await relogin(email);
    expect((await resend(listener)).statusCode).toBe(202);

    const tokens = (await mailsTo(email)).map(tokenOf);
    expect((await verify(tokens[2])).statusCode).toBe(200);
    for (const other of [tokens[0], tokens[4]]) expect((await verify(other)).statusCode).toBe(400);
    const verified = await resend(listener);
    expect(verified.statusCode).toBe(409);
    expect(verified.json().error.code).toBe('PLATFORM_CONFLICT');
  });

  it('an address change needs the password, resets verification, mails both addresses and kills older links', async () => {
    const email = emailOf('mover');
    const listener = await signupListener(station, email);
    const first = tokenOf((await mailsTo(email))[0]);
    expect((await verify(first)).statusCode).toBe(200);
    await resend(listener).then((answer) => expect(answer.statusCode).toBe(409));

    const wrong = await changeEmail(listener, emailOf('elsewhere'), 'not-the-password');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error.code).toBe('PLATFORM_INVALID_CREDENTIALS');
    const taken = await changeEmail(listener, (await loginAs(station, 'listener')).email, 'listener-password');
    expect(taken.statusCode).toBe(409);

    const next = emailOf('moved');
    const changed = await changeEmail(listener, next.toUpperCase(), 'listener-password');
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ id: listener.userId, email: next, email_verified: false });
    expect(await me(listener)).toMatchObject({ email: next, email_verified: false });
    await expect(station.auth.assertEmailVerified(listener.userId)).rejects.toSatisfy((error) => isDomainError(error, 'EMAIL_UNVERIFIED'));
    expect(await mailsTo(email, 'Your e-mail address was changed')).toHaveLength(1);

    // A link mailed to the old address proves nothing about the new one. (The clock moves between the changes,
    // so "the newest mail" is one mail: the outbox orders by the station's time.)
    clock.advance(1000);
    await station.http.inject({
      method: 'PUT',
      url: '/v1/users/me/email',
      remoteAddress: clientAddress(),
      headers: bearer(listener),
      payload: { email, password: 'listener-password' },
    });
    const toOld = tokenOf((await mailsTo(email))[0]);
    clock.advance(1000);
    await changeEmail(listener, next, 'listener-password');
    expect((await verify(toOld)).statusCode).toBe(400);
    expect(await me(listener)).toMatchObject({ email: next, email_verified: false });

    const toNew = tokenOf((await mailsTo(next))[0]);
    expect((await verify(toNew)).statusCode).toBe(200);
    expect(await me(listener)).toMatchObject({ email: next, email_verified: true });
    expect(
      (
        await station.http.inject({
          method: 'POST',
          url: '/v1/auth/login',
          remoteAddress: clientAddress(),
          payload: { email: next, password: 'listener-password' },
        })
      ).statusCode,
    ).toBe(200);
  });

  it('an address is changed from a login session, not with an API key', async () => {
    const owner = await loginAs(station, 'developer');
    const key = await createKey(station, owner, { scopes: ['users:read'], environment: 'live' });
    const csrf = (await station.http.inject({ url: '/api/auth/csrf', headers: { 'x-api-key': key.key } })).json().csrf_token;
    const answer = await station.http.inject({
      method: 'PUT',
      url: '/v1/users/me/email',
      remoteAddress: clientAddress(),
      headers: { 'x-api-key': key.key, 'x-csrf-token': csrf },
      payload: { email: emailOf('keyed'), password: owner.password },
    });
    expect(answer.statusCode).toBe(403);
    expect(answer.json().error.code).toBe('PLATFORM_FORBIDDEN');
  });

  it('documents email_verified in the /v1/users/me answer of /openapi.json, and the two verification routes', async () => {
    const spec = (await station.http.inject({ url: '/openapi.json' })).json();
    const resolve = (schema: { $ref?: string }): Record<string, unknown> =>
      schema.$ref ? resolve(spec.components.schemas[schema.$ref.replace(/^#\/components\/schemas\//, '')]) : (schema as Record<string, unknown>);
    const answer = resolve(spec.paths['/v1/users/me'].get.responses['200'].content['application/json'].schema);
    expect(answer.properties).toHaveProperty('email_verified', expect.objectContaining({ type: 'boolean' }));
    expect(answer.required).toContain('email_verified');
    expect(spec.paths['/v1/auth/verify-email'].post.responses).toHaveProperty('200');
    expect(spec.paths['/v1/auth/verify-email/resend'].post.responses).toHaveProperty('202');
  });

  it('accounts made by the operator (STATION_ADMIN_*, seeding) count as verified; the check refuses the others with 403 EMAIL_UNVERIFIED', async () => {
    const admin = await staffLogin(station);
    expect(await me(admin)).toMatchObject({ email_verified: true });
    const seeded = await loginAs(station, 'artist');
    expect(await me(seeded)).toMatchObject({ email_verified: true });
    const unchecked = await station.auth.createUser({
      email: emailOf('unchecked'),
      password: 'account-password-1',
      role: 'listener',
      displayName: 'x',
      emailVerified: false,
    });

    const error = await station.auth.assertEmailVerified(unchecked.id).catch((e: unknown) => e);
    expect(isDomainError(error, 'EMAIL_UNVERIFIED')).toBe(true);
    // 403, and PLATFORM_EMAIL_UNVERIFIED once the handler prefixes the code on a platform path.
    expect(toErrorResponse(error as Error)).toMatchObject({ status: 403, code: 'EMAIL_UNVERIFIED' });
  });
});
