/** Helpers for the authentication suites: real HTTP on an ephemeral port, client addresses, error bodies. */
import { randomBytes } from 'node:crypto';
import type { Station } from '../../src/app.js';
import { newTotpSecret, totpCode } from '../../src/auth/totp.js';
import type { ManualClock } from '../../src/infra/clock/clock.js';
import type { Role } from '../../src/auth/scopes.js';

export interface HttpAnswer {
  status: number;
  headers: Headers;
  body: Record<string, unknown> & { error?: Record<string, unknown> };
}

/** Starts the station's server on 127.0.0.1 and an ephemeral port; returns its base URL. */
export function listen(station: Station): Promise<string> {
  return station.http.listen({ port: 0, host: '127.0.0.1' });
}

/** A POST over a real connection, so the server sees the socket's address and the headers as sent. */
export async function post(base: string, path: string, payload: unknown, headers: Record<string, string> = {}): Promise<HttpAnswer> {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(payload),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : {} };
}

/** A client address from 198.18.0.0/15 (reserved for tests), different on every call. */
export function clientAddress(): string {
  const [a, b] = randomBytes(2);
  return `198.${18 + (a & 1)}.${a >> 1}.${(b % 254) + 1}`;
}

/** Headers of a request a trusted proxy forwards for `address`. */
export const forwardedFor = (address: string) => ({ 'x-forwarded-for': address });

/** The error envelope without its request_id, which differs on every answer by design. */
export function errorWithoutRequestId(body: HttpAnswer['body'] | Record<string, unknown>): Record<string, unknown> {
  const { request_id: _ignored, ...rest } = (body.error ?? {}) as Record<string, unknown>;
  return rest;
}

/**
 * A new staff account with a TOTP secret, logged in on the staff login (the clock moves one TOTP step first,
 * so the code is never a replay of an earlier one).
 */
export async function staffWithTotp(station: Station, clock: ManualClock, role: Role, email = `${role}-${randomBytes(4).toString('hex')}@station.test`) {
  const secret = newTotpSecret();
  const user = await station.auth.createUser({ email, password: 'staff-password-1', role, displayName: role, totpSecret: secret });
  clock.advance(30_000);
  const login = await station.http.inject({
    method: 'POST',
    url: '/api/auth/admin/login',
    remoteAddress: clientAddress(),
    payload: { email, password: 'staff-password-1', totp_code: totpCode(secret, clock.now()) },
  });
  if (login.statusCode !== 200) throw new Error(`staff login of a new ${role} failed: ${login.body}`);
  return { userId: user.id, token: login.json().access_token as string, csrf: login.json().csrf_token as string };
}
