/**
 * Helpers for the foundation and catalog suites. Sign-ups come from a random client address: with REDIS_URL
 * the rate-limit counters are shared by every station on the same Redis, so a fixed 127.0.0.1 would make
 * suites running side by side spend one another's budget.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { expect } from 'vitest';
import type { Station } from '../../src/app.js';

export function randomClientIp(): string {
  return `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
}

export interface Listener {
  token: string;
  csrf: string;
  userId: string;
  email: string;
  password: string;
}

export async function signUp(station: Station, email = `listener-${randomBytes(5).toString('hex')}@example.com`): Promise<Listener> {
  const password = 'listener-password';
  const response = await station.http.inject({
    method: 'POST',
    url: '/v1/auth/signup',
    remoteAddress: randomClientIp(),
    payload: { email, password, display_name: 'Test Listener' },
  });
  if (response.statusCode !== 201) throw new Error(`signup failed: ${response.statusCode} ${response.body}`);
  const body = response.json();
  return { token: body.token, csrf: body.csrf_token, userId: body.user.id, email, password };
}

export const bearer = (listener: { token: string }) => ({ authorization: `Bearer ${listener.token}` });

/** Asserts the contract's error envelope: exactly six fields, the code, and request_id equal to X-Request-Id. */
export function expectEnvelope(response: { statusCode: number; headers: Record<string, unknown>; json: () => any }, status: number, code: string) {
  expect(response.statusCode).toBe(status);
  const body = response.json();
  expect(Object.keys(body)).toEqual(['error']);
  expect(Object.keys(body.error).sort()).toEqual(['code', 'detail', 'http_status', 'message', 'request_id', 'retry_after']);
  expect(body.error.code).toBe(code);
  expect(body.error.http_status).toBe(status);
  expect(typeof body.error.message).toBe('string');
  expect(typeof body.error.detail).toBe('string');
  expect(body.error.request_id).toBe(response.headers['x-request-id']);
  expect(body.error.request_id).not.toBe('');
  return body.error as { code: string; http_status: number; message: string; detail: string; retry_after: number | null; request_id: string };
}
