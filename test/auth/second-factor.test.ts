/**
 * Scopes beyond station:read need TOTP on either login path: a role that holds one gets the 2FA step on
 * /v1/auth/login, and a session that never passed TOTP never holds such a scope, whatever its role becomes.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/infra/clock/clock.js';
import { newTotpSecret, totpCode } from '../../src/auth/totp.js';
import { ROLES, scopesOfRole, roleNeedsSecondFactor } from '../../src/auth/scopes.js';
import { stationForSuite, signupListener } from '../helpers/station.js';
import { clientAddress } from './support.js';

describe('second factor for station scopes', () => {
  const clock = new ManualClock(Date.UTC(2026, 9, 1, 10, 0, 0));

  const station = stationForSuite({}, { clock });

  const inject = (url: string, payload: object) => station.http.inject({ method: 'POST', url, payload, remoteAddress: clientAddress() });
  const validate = (token: string) => station.http.inject({ url: '/station/v1/auth/validate', headers: { authorization: `Bearer ${token}` } });

  it('derives the rule from the scopes: every role holding a station scope other than station:read', () => {
    const needing = ROLES.filter(roleNeedsSecondFactor);
    expect(needing.sort()).toEqual(['admin', 'developer', 'super_admin']);
    for (const role of ROLES) {
      const holdsMore = scopesOfRole(role).some((scope) => scope.startsWith('station:') && scope !== 'station:read');
      expect(roleNeedsSecondFactor(role), role).toBe(holdsMore);
    }
  });

  it('sends a developer through the 2FA step on /v1/auth/login; station:train only after the code', async () => {
    const secret = newTotpSecret();
    await station.auth.createUser({ email: 'dev-2fa@station.test', password: 'developer-password', role: 'developer', displayName: 'Dev', totpSecret: secret });
    const first = await inject('/v1/auth/login', { email: 'dev-2fa@station.test', password: 'developer-password' });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ requires_2fa: true, temp_token: expect.any(String) });

    clock.advance(30_000);
    const verified = await inject('/v1/auth/2fa/verify', { temp_token: first.json().temp_token, code: totpCode(secret, clock.now()) });
    expect(verified.statusCode).toBe(200);
    expect(verified.json().role).toBe('developer');
    const permissions = (await validate(verified.json().token)).json();
    expect(permissions).toMatchObject({ can_train: true, scopes: ['station:read', 'station:train'] });
  });

  it('gives a developer without TOTP enrolment a session without station:train (platform scopes kept)', async () => {
    await station.auth.createUser({ email: 'dev-plain@station.test', password: 'developer-password', role: 'developer', displayName: 'Dev' });
    const login = await inject('/v1/auth/login', { email: 'dev-plain@station.test', password: 'developer-password' });
    expect(login.statusCode).toBe(200);
    expect(login.json()).toMatchObject({ role: 'developer' });
    const token = login.json().token as string;
    expect((await validate(token)).json()).toMatchObject({ can_train: false, can_generate: false, can_toggle_radio: false, scopes: ['station:read'] });
    const webhooks = await station.http.inject({ url: '/v1/webhooks', headers: { authorization: `Bearer ${token}` } });
    expect(webhooks.statusCode).toBe(200);
    const training = await station.http.inject({ url: '/station/v1/training/jobs', headers: { authorization: `Bearer ${token}` } });
    expect(training.statusCode).toBe(403);
  });

  it('never lends TOTP-only scopes to a session that did not pass TOTP, even after a promotion', async () => {
    const listener = await signupListener(station, 'promoted@station.test');
    await station.auth.setUserRole(listener.userId, 'admin');
    const permissions = (await validate(listener.token)).json();
    expect(permissions).toMatchObject({ role: 'admin', can_toggle_radio: false, can_train: false, scopes: ['station:read'] });
    // A new password-only login of the promoted account gets no more than that either.
    const again = await inject('/v1/auth/login', { email: 'promoted@station.test', password: 'listener-password' });
    expect((await validate(again.json().token)).json().scopes).toEqual(['station:read']);
  });
});
