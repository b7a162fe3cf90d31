/**
 * The client address the per-IP limits are keyed on, over real sockets with real X-Forwarded-For headers.
 * Unset TRUST_PROXY believes no header; a list of proxies or a hop count believes exactly that much.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { stationForSuite } from '../helpers/station.js';
import { forwardedFor, listen, post } from './support.js';

/** Every auth route limited per address, with its budget. Empty bodies: the limit runs before validation. */
const LIMITED_ROUTES = [
  { path: '/api/auth/admin/login', max: 5 },
  { path: '/v1/auth/login', max: 10 },
  { path: '/v1/auth/signup', max: 20 },
  { path: '/v1/auth/2fa/verify', max: 5 },
  { path: '/api/auth/refresh', max: 60 },
  { path: '/v1/auth/refresh', max: 60 },
];

async function statuses(base: string, path: string, count: number, headersOf: (i: number) => Record<string, string>) {
  const seen: number[] = [];
  for (let i = 0; i < count; i++) seen.push((await post(base, path, {}, headersOf(i))).status);
  return seen;
}

describe('TRUST_PROXY unset', () => {
  let base: string;

  const station = stationForSuite();
  beforeAll(async () => {
    base = await listen(station);
  });

  it.each(LIMITED_ROUTES)('ignores X-Forwarded-For: a new header per request does not escape the limit of $path', async ({ path, max }) => {
    const seen = await statuses(base, path, max + 1, (i) => forwardedFor(`203.0.113.${i + 1}`));
    expect(seen.slice(0, max)).not.toContain(429);
    expect(seen[max]).toBe(429);
  });
});

describe('TRUST_PROXY as a list of proxies', () => {
  let base: string;

  const station = stationForSuite({ TRUST_PROXY: '10.9.8.7, 127.0.0.1/32' });
  beforeAll(async () => {
    base = await listen(station);
  });

  it('believes the trusted proxy: each client behind it has its own budget', async () => {
    const first = await statuses(base, '/api/auth/admin/login', 6, () => forwardedFor('203.0.113.10'));
    expect(first).toEqual([400, 400, 400, 400, 400, 429]);
    const other = await post(base, '/api/auth/admin/login', {}, forwardedFor('203.0.113.11'));
    expect(other.status).toBe(400);
  });

  it('counts an IPv6 client by its /64: a new address in the same prefix is the same client', async () => {
    const seen = await statuses(base, '/api/auth/admin/login', 6, (i) => forwardedFor(`2001:db8:5:6::${i + 1}`));
    expect(seen).toEqual([400, 400, 400, 400, 400, 429]);
    const otherPrefix = await post(base, '/api/auth/admin/login', {}, forwardedFor('2001:db8:5:7::1'));
    expect(otherPrefix.status).toBe(400);
  });

  it('keys on the address the proxy saw, whatever the client prepended', async () => {
    const spoofed = (i: number) => forwardedFor(`192.0.2.${i + 1}, 203.0.113.20`);
    const seen = await statuses(base, '/api/auth/admin/login', 6, spoofed);
    expect(seen).toEqual([400, 400, 400, 400, 400, 429]);
  });
});

describe('TRUST_PROXY as a hop count', () => {
  let base: string;

  const station = stationForSuite({ TRUST_PROXY: '1' });
  beforeAll(async () => {
    base = await listen(station);
  });

  it('believes one hop: the last address in X-Forwarded-For is the client', async () => {
    const seen = await statuses(base, '/api/auth/admin/login', 6, (i) => forwardedFor(`192.0.2.${i + 1}, 203.0.113.30`));
    expect(seen).toEqual([400, 400, 400, 400, 400, 429]);
    const other = await post(base, '/api/auth/admin/login', {}, forwardedFor('192.0.2.1, 203.0.113.31'));
    expect(other.status).toBe(400);
  });
});
