/**
 * api_keys.last_used_at: set when a key (or a JWT exchanged for it) is used, written at most once a minute
 * per key rather than on every request, and shown in GET /v1/developer/keys.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/infra/clock/clock.js';
import { stationForSuite } from '../helpers/station.js';
import { clientAddress } from '../auth/support.js';
import { bearer, createKey, loginAs, type Login } from './accounts-support.js';

const clock = new ManualClock(Date.UTC(2026, 3, 10, 9, 0, 0));
let developer: Login;

const station = stationForSuite({}, { clock });
beforeAll(async () => {
  developer = await loginAs(station, 'developer');
});

async function lastUsed(keyId: string): Promise<string | null> {
  const list = await station.http.inject({ url: '/v1/developer/keys', headers: bearer(developer) });
  return list.json().data.find((key: { id: string }) => key.id === keyId).last_used_at;
}

describe('last_used_at of developer keys', () => {
  it('is null until used, then follows use to the minute without a write per request', async () => {
    const key = await createKey(station, developer, { scopes: ['tracks:read'], environment: 'live' });
    expect(await lastUsed(key.id)).toBeNull();

    const use = () => station.http.inject({ url: '/v1/store/products', headers: { 'x-api-key': key.key } });
    expect((await use()).statusCode).toBe(200);
    const first = new Date(clock.now()).toISOString();
    expect(await lastUsed(key.id)).toBe(first);

    // Within the minute: more requests, no new write.
    clock.advance(30_000);
    for (let i = 0; i < 5; i++) await use();
    expect(await lastUsed(key.id)).toBe(first);

    clock.advance(31_000);
    await use();
    expect(await lastUsed(key.id)).toBe(new Date(clock.now()).toISOString());
  });

  it('counts the use of a JWT exchanged for the key', async () => {
    const key = await createKey(station, developer, { scopes: ['tracks:read'], environment: 'test' });
    const exchanged = await station.http.inject({ method: 'POST', url: '/v1/auth/token', remoteAddress: clientAddress(), payload: { api_key: key.key } });
    expect(await lastUsed(key.id)).toBeNull();
    clock.advance(90_000);
    const answer = await station.http.inject({ url: '/v1/store/products', headers: { authorization: `Bearer ${exchanged.json().token}` } });
    expect(answer.statusCode).toBe(200);
    expect(await lastUsed(key.id)).toBe(new Date(clock.now()).toISOString());
  });
});
