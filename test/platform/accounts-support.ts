/** Helpers of the accounts suites (developer keys, quotas, users, admin). */
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { Station } from '../../src/app.js';
import type { Role } from '../../src/auth/scopes.js';
import { clientAddress } from '../auth/support.js';

export interface Login {
  token: string;
  csrf: string;
  userId: string;
  refreshToken: string;
  email: string;
  password: string;
}

/** A user of `role` (no TOTP secret) logged in through POST /v1/auth/login. */
export async function loginAs(station: Station, role: Role, password = 'account-password-1'): Promise<Login> {
  const email = `${role}-${randomBytes(5).toString('hex')}@example.com`;
  const user = await station.auth.createUser({ email, password, role, displayName: `${role} user` });
  const answer = await station.http.inject({ method: 'POST', url: '/v1/auth/login', remoteAddress: clientAddress(), payload: { email, password } });
  expect(answer.statusCode, answer.body).toBe(200);
  const body = answer.json();
  return { token: body.token, csrf: body.csrf_token, userId: user.id, refreshToken: body.refresh_token, email, password };
}

export const bearer = (login: { token: string; csrf: string }) => ({ authorization: `Bearer ${login.token}`, 'x-csrf-token': login.csrf });

/** Creates a developer key through the API and returns the answer's body. */
export async function createKey(
  station: Station,
  owner: Login,
  body: { name?: string; scopes: string[]; environment: 'live' | 'test' },
): Promise<{ id: string; key: string; scopes: string[]; environment: string; prefix: string }> {
  const answer = await station.http.inject({
    method: 'POST',
    url: '/v1/developer/keys',
    headers: bearer(owner),
    payload: { name: body.name ?? 'my key', scopes: body.scopes, environment: body.environment },
  });
  expect(answer.statusCode, answer.body).toBe(201);
  return answer.json();
}
