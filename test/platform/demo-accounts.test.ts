/**
 * The demo's accounts (src/demo/seed-accounts.ts): a listener, an artist owning an unverified demo artist, and an
 * integrator with a developer account and a test key; seeded idempotently, credentials logged once, and shown by
 * GET /v1/demo/accounts only on a demo station (the route on a demo station: test/demo/seeder.test.ts; this file sits in test/platform so it runs on PostgreSQL too).
 */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { DEMO_OWN_ARTIST, DemoAccounts } from '../../src/demo/seed-accounts.js';
import { apiKeys, artists } from '../../src/infra/db/schema/index.js';
import { clientAddress } from '../auth/support.js';
import { stationForSuite } from '../helpers/station.js';

const station = stationForSuite();

/** A logger that keeps what was logged at info. */
function capturing(): { log: FastifyBaseLogger; lines: { obj: unknown; msg?: string }[] } {
  const lines: { obj: unknown; msg?: string }[] = [];
  const log = { info: (obj: unknown, msg?: string) => lines.push({ obj, msg }) } as unknown as FastifyBaseLogger; // only info is called
  return { log, lines };
}

describe('demo accounts', () => {
  it('seeds a listener, an artist and an integrator once, logs their credentials once, and they sign in', async () => {
    const accounts = new DemoAccounts(station.database.db, station.auth, randomBytes(32));
    const first = capturing();
    await accounts.seed(first.log);
    const listed = accounts.list();
    expect(listed.map((a) => a.role)).toEqual(['listener', 'artist', 'integrator']);
    for (const account of listed) {
      expect(first.lines).toContainEqual({ obj: account, msg: `try the demo as ${account.role}` });
    }
    expect(first.lines.some((line) => JSON.stringify(line.obj).includes('stn_test_'))).toBe(true);
    const again = capturing();
    await accounts.seed(again.log);
    expect(again.lines).toEqual([]); // nothing new, nothing logged

    const sessions: Record<string, { token: string; csrf_token: string }> = {};
    for (const { role, email, password } of listed) {
      const login = await station.http.inject({ method: 'POST', url: '/v1/auth/login', remoteAddress: clientAddress(), payload: { email, password } });
      expect(login.statusCode, login.body).toBe(200);
      sessions[role] = login.json();
    }
    const me = async (role: string) =>
      (await station.http.inject({ url: '/v1/users/me', headers: { authorization: `Bearer ${sessions[role].token}` } })).json();
    expect(await me('listener')).toMatchObject({ role: 'listener', developer_account: false, email_verified: true });
    expect(await me('artist')).toMatchObject({ role: 'artist', developer_account: false });
    const integrator = await me('integrator');
    expect(integrator).toMatchObject({ role: 'listener', developer_account: true });
    const keys = await station.database.db.select().from(apiKeys).where(eq(apiKeys.ownerUserId, integrator.id));
    expect(keys.map((key) => key.environment)).toEqual(['test']);

    const artist = await me('artist');
    const [own] = await station.database.db.select().from(artists).where(eq(artists.slug, DEMO_OWN_ARTIST.slug));
    expect([own.ownerUserId, own.verified, own.platformOwned]).toEqual([artist.id, false, false]);
  });

  it('has no GET /v1/demo/accounts on a station that is not a demo', async () => {
    expect((await station.http.inject({ url: '/v1/demo/accounts' })).statusCode).toBe(404);
  });
});
