/**
 * No login oracle: every way a login can fail answers the same status, code, message and detail, so an
 * answer never tells which part was wrong (or whether the account exists, is banned, or has TOTP).
 * Timing is measured by bench/login-timing.ts, not asserted here.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { users } from '../../src/infra/db/schema/index.js';
import { ManualClock } from '../../src/infra/clock/clock.js';
import { newTotpSecret, totpCode } from '../../src/auth/totp.js';
import { ADMIN, stationForSuite, signupListener } from '../helpers/station.js';
import { clientAddress, errorWithoutRequestId } from './support.js';

describe('uniform login failures', () => {
  const clock = new ManualClock(Date.UTC(2026, 8, 1, 10, 0, 0));
  const developerSecret = newTotpSecret();

  const station = stationForSuite({}, { clock });
  beforeAll(async () => {
    await station.auth.createUser({ email: 'dev-no-totp@station.test', password: 'developer-password', role: 'developer', displayName: 'No TOTP' });
    await station.auth.createUser({
      email: 'dev-banned@station.test',
      password: 'developer-password',
      role: 'developer',
      displayName: 'Banned',
      totpSecret: developerSecret,
    });
    await station.database.db.update(users).set({ status: 'banned' }).where(eq(users.email, 'dev-banned@station.test'));
    await signupListener(station, 'listener@station.test');
    await signupListener(station, 'banned-listener@station.test');
    await station.database.db.update(users).set({ status: 'banned' }).where(eq(users.email, 'banned-listener@station.test'));
  });

  const inject = (url: string, payload: object) => station.http.inject({ method: 'POST', url, payload, remoteAddress: clientAddress() });
  const code = (secret = ADMIN.totpSecret) => totpCode(secret, clock.now());
  const wrong = (secret = ADMIN.totpSecret) => (code(secret) === '000000' ? '111111' : '000000');

  function expectAllEqual(answers: Record<string, LightMyRequestResponse>, code: string) {
    const bodies = Object.entries(answers).map(([name, answer]) => {
      expect(answer.statusCode, name).toBe(401);
      return [name, errorWithoutRequestId(answer.json())] as const;
    });
    expect(bodies[0][1]).toMatchObject({ code, http_status: 401 });
    for (const [name, body] of bodies) expect(body, name).toEqual(bodies[0][1]);
  }

  it('staff login: unknown e-mail, wrong password, banned, wrong TOTP, replayed TOTP, no TOTP enrolment, no staff role', async () => {
    clock.advance(60_000);
    const used = code();
    expect((await inject('/api/auth/admin/login', { email: ADMIN.email, password: ADMIN.password, totp_code: used })).statusCode).toBe(200);
    const answers = {
      unknownEmail: await inject('/api/auth/admin/login', { email: 'nobody@station.test', password: ADMIN.password, totp_code: used }),
      wrongPassword: await inject('/api/auth/admin/login', { email: ADMIN.email, password: 'not the password', totp_code: code() }),
      wrongTotp: await inject('/api/auth/admin/login', { email: ADMIN.email, password: ADMIN.password, totp_code: wrong() }),
      replayedTotp: await inject('/api/auth/admin/login', { email: ADMIN.email, password: ADMIN.password, totp_code: used }),
      banned: await inject('/api/auth/admin/login', { email: 'dev-banned@station.test', password: 'developer-password', totp_code: code(developerSecret) }),
      noTotpEnrolment: await inject('/api/auth/admin/login', { email: 'dev-no-totp@station.test', password: 'developer-password', totp_code: code() }),
      listener: await inject('/api/auth/admin/login', { email: 'listener@station.test', password: 'listener-password', totp_code: code() }),
    };
    expectAllEqual(answers, 'STATION_INVALID_CREDENTIALS');
  });

  it('platform login: unknown e-mail, wrong password, banned', async () => {
    const answers = {
      unknownEmail: await inject('/v1/auth/login', { email: 'nobody@station.test', password: 'listener-password' }),
      wrongPassword: await inject('/v1/auth/login', { email: 'listener@station.test', password: 'not the password' }),
      banned: await inject('/v1/auth/login', { email: 'banned-listener@station.test', password: 'listener-password' }),
    };
    expectAllEqual(answers, 'PLATFORM_INVALID_CREDENTIALS');
  });

  it('2FA step: forged token, wrong code, replayed code, spent token, expired token', async () => {
    clock.advance(60_000);
    const tempToken = async () => (await inject('/v1/auth/login', { email: ADMIN.email, password: ADMIN.password })).json().temp_token as string;
    const spent = await tempToken();
    const used = code();
    expect((await inject('/v1/auth/2fa/verify', { temp_token: spent, code: used })).statusCode).toBe(200);
    const expiring = await tempToken();
    const answers = {
      forged: await inject('/v1/auth/2fa/verify', { temp_token: `${spent.slice(0, -4)}AAAA`, code: used }),
      wrongCode: await inject('/v1/auth/2fa/verify', { temp_token: await tempToken(), code: wrong() }),
      replayedCode: await inject('/v1/auth/2fa/verify', { temp_token: await tempToken(), code: used }),
      spentToken: await inject('/v1/auth/2fa/verify', { temp_token: spent, code: used }),
      expired: await (async () => {
        clock.advance(6 * 60_000);
        return inject('/v1/auth/2fa/verify', { temp_token: expiring, code: code() });
      })(),
    };
    expectAllEqual(answers, 'PLATFORM_INVALID_CREDENTIALS');
  });
});
