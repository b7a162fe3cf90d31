/**
 * Password reset: always 202, a single-use 1-hour link through the mailer (the database outbox here), only
 * the token's hash stored, and a confirm that ends every session (refresh tokens, sockets).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { desc, eq, sql } from 'drizzle-orm';
import { WebSocket } from 'ws';
import { ManualClock } from '../../src/infra/clock/clock.js';
import { mailOutbox } from '../../src/infra/db/schema/index.js';
import { stationForSuite } from '../helpers/station.js';
import { clientAddress, listen } from '../auth/support.js';
import { loginAs } from './accounts-support.js';

describe('password reset', () => {
  let base: string;
  const clock = new ManualClock(Date.UTC(2026, 5, 10, 8, 0, 0));

  const station = stationForSuite({}, { clock });
  beforeAll(async () => {
    base = await listen(station);
  });

  const requestReset = (email: string, address = clientAddress()) =>
    station.http.inject({ method: 'POST', url: '/v1/auth/reset-password', remoteAddress: address, payload: { email } });
  const confirm = (token: string, password: string) =>
    station.http.inject({ method: 'POST', url: '/v1/auth/reset-password/confirm', remoteAddress: clientAddress(), payload: { token, password } });
  const login = (email: string, password: string) =>
    station.http.inject({ method: 'POST', url: '/v1/auth/login', remoteAddress: clientAddress(), payload: { email, password } });

  async function mailsTo(email: string) {
    await station.auth.drain();
    return station.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email)).orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id));
  }
  function tokenOf(mail: { textBody: string }): string {
    const link = /https?:\/\/\S+\/reset-password\?token=(\S+)/.exec(mail.textBody);
    expect(link, mail.textBody).not.toBeNull();
    expect(mail.textBody).toContain('http://station.test/reset-password?token=');
    return decodeURIComponent(link![1]);
  }

  it('answers the same 202 for an account and for an unknown address; only the account gets a link', async () => {
    const user = await loginAs(station, 'listener');
    const known = await requestReset(user.email);
    const unknown = await requestReset('nobody-here@example.com');
    expect(known.statusCode).toBe(202);
    expect(unknown.statusCode).toBe(202);
    expect(known.body).toBe(unknown.body);
    expect(Object.keys(known.headers).sort()).toEqual(Object.keys(unknown.headers).sort());

    const mails = await mailsTo(user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ subject: 'Reset your password', transport: 'outbox' });
    const token = tokenOf(mails[0]);
    expect(await mailsTo('nobody-here@example.com')).toHaveLength(0);

    const stored = await station.database.db.execute(sql`SELECT * FROM password_reset_tokens`);
    expect(JSON.stringify((stored as unknown as { rows: unknown[] }).rows)).not.toContain(token);
  });

  it('sets the password once, ends every session (access, refresh, sockets) and kills the other links', async () => {
    const user = await loginAs(station, 'listener');
    const second = (await login(user.email, user.password)).json();
    const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/station/ws/now-playing?token=${user.token}`);
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    await new Promise((resolve, reject) => (socket.once('open', resolve), socket.once('error', reject)));

    await requestReset(user.email);
    const older = tokenOf((await mailsTo(user.email))[0]);
    clock.advance(1000);
    await requestReset(user.email);
    const mails = await mailsTo(user.email);
    expect(mails).toHaveLength(2);
    const token = tokenOf(mails[0]);
    expect(token).not.toBe(older);

    const done = await confirm(token, 'a brand new password');
    expect(done.statusCode, done.body).toBe(204);

    expect(await closed).toBe(4401);
    for (const access of [user.token, second.token]) {
      expect((await station.http.inject({ url: '/v1/users/me', headers: { authorization: `Bearer ${access}` } })).statusCode).toBe(401);
    }
    for (const refresh of [user.refreshToken, second.refresh_token]) {
      const answer = await station.http.inject({
        method: 'POST',
        url: '/v1/auth/refresh',
        remoteAddress: clientAddress(),
        payload: { refresh_token: refresh },
      });
      expect(answer.statusCode).toBe(401);
    }
    expect((await login(user.email, user.password)).statusCode).toBe(401);
    expect((await login(user.email, 'a brand new password')).statusCode).toBe(200);

    for (const spent of [token, older]) {
      const again = await confirm(spent, 'yet another password');
      expect(again.statusCode).toBe(400);
      expect(again.json().error.code).toBe('PLATFORM_RESET_TOKEN_INVALID');
    }
    expect((await login(user.email, 'a brand new password')).statusCode).toBe(200);
  });

  it('a link is valid 1 hour', async () => {
    const user = await loginAs(station, 'listener');
    await requestReset(user.email);
    const token = tokenOf((await mailsTo(user.email))[0]);
    clock.advance(3600_000 + 1);
    const late = await confirm(token, 'too late password');
    expect(late.statusCode).toBe(400);
    expect(late.json().error.code).toBe('PLATFORM_RESET_TOKEN_INVALID');
    expect((await login(user.email, user.password)).statusCode).toBe(200);
  });

  it('refuses unknown tokens and weak passwords', async () => {
    expect((await confirm('rst_unknown', 'long enough password')).json().error.code).toBe('PLATFORM_RESET_TOKEN_INVALID');
    expect((await confirm('rst_unknown', 'short')).json().error.code).toBe('PLATFORM_VALIDATION_FAILED');
  });

  it('is rate limited: 3 links an hour per address, and 5 requests a minute per client', async () => {
    const user = await loginAs(station, 'listener');
    for (let i = 0; i < 5; i++) expect((await requestReset(user.email)).statusCode).toBe(202);
    expect(await mailsTo(user.email)).toHaveLength(3);

    const address = clientAddress();
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await requestReset('someone@example.com', address)).statusCode);
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
    const limited = await requestReset('someone@example.com', address);
    expect(limited.json().error.code).toBe('PLATFORM_RATE_LIMITED');
    expect(limited.headers['retry-after']).toBeDefined();
  });
});
