/**
 * TOTP secrets at rest: sealed with the DATA_DIR key, bound to their user, so a database dump alone does
 * not give anyone the second factor. A clear secret left by an older version is sealed at the next start.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { users } from '../../src/infra/db/schema/index.js';
import { ManualClock } from '../../src/infra/clock/clock.js';
import { newTotpSecret, totpCode } from '../../src/auth/totp.js';
import { ADMIN, buildTestStation, createTestDatabase, staffLogin, stationForSuite, type TestStation } from '../helpers/station.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function secretOf(station: TestStation, email: string): Promise<string | null> {
  const [row] = await station.database.db.select({ secret: users.totpSecret }).from(users).where(eq(users.email, email));
  return row.secret;
}

describe('TOTP secrets at rest', () => {
  // One station for both: each test creates a user of its own, and the clock only moves forward.
  const clock = new ManualClock(Date.UTC(2026, 10, 1, 9, 0, 0));
  const station = stationForSuite({}, { clock, fakeEngine: true });

  it('stores the bootstrap admin secret and created users secrets sealed, never in clear', async () => {
    const secret = newTotpSecret();
    await station.auth.createUser({
      email: 'dev-sealed@station.test',
      password: 'developer-password',
      role: 'developer',
      displayName: 'Dev',
      totpSecret: secret,
    });

    for (const [email, clear] of [
      [ADMIN.email, ADMIN.totpSecret],
      ['dev-sealed@station.test', secret],
    ]) {
      const stored = await secretOf(station, email);
      expect(stored).not.toBeNull();
      expect(stored).not.toContain(clear);
      expect(stored).toMatch(/^v1\./);
    }
    clock.advance(60_000);
    await staffLogin(station, clock);
  });

  it('does not accept a sealed secret copied onto another user', async () => {
    await station.auth.createUser({
      email: 'dev-copy@station.test',
      password: 'developer-password',
      role: 'developer',
      displayName: 'Dev',
      totpSecret: newTotpSecret(),
    });
    const adminSealed = await secretOf(station, ADMIN.email);
    await station.database.db.update(users).set({ totpSecret: adminSealed }).where(eq(users.email, 'dev-copy@station.test'));
    clock.advance(60_000);
    const login = await station.http.inject({
      method: 'POST',
      url: '/api/auth/admin/login',
      payload: { email: 'dev-copy@station.test', password: 'developer-password', totp_code: totpCode(ADMIN.totpSecret, clock.now()) },
    });
    expect(login.statusCode).toBe(401);
  });
});

describe('TOTP secrets at rest across restarts', () => {
  it('seals clear secrets of an older version at start, and logins keep working', async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 3, 9, 0, 0));
    const testDb = await createTestDatabase({ persistent: true });
    cleanups.push(() => testDb.drop());
    const dataDir = mkdtempSync(join(tmpdir(), 'station-totp-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));

    const first = await buildTestStation({ DATA_DIR: dataDir }, { clock, database: testDb, fakeEngine: true });
    const developerSecret = newTotpSecret();
    await first.auth.createUser({ email: 'dev-old@station.test', password: 'developer-password', role: 'developer', displayName: 'Dev' });
    // What an older version left: secrets in clear.
    await first.database.db.update(users).set({ totpSecret: ADMIN.totpSecret }).where(eq(users.email, ADMIN.email));
    await first.database.db.update(users).set({ totpSecret: developerSecret }).where(eq(users.email, 'dev-old@station.test'));
    await first.destroy();

    const second = await buildTestStation({ DATA_DIR: dataDir }, { clock, database: testDb, fakeEngine: true });
    cleanups.push(() => second.destroy());
    for (const [email, clear] of [
      [ADMIN.email, ADMIN.totpSecret],
      ['dev-old@station.test', developerSecret],
    ]) {
      const stored = await secretOf(second, email);
      expect(stored).not.toContain(clear);
      expect(stored).toMatch(/^v1\./);
    }
    clock.advance(60_000);
    await staffLogin(second, clock);
    const developer = await second.http.inject({
      method: 'POST',
      url: '/api/auth/admin/login',
      payload: { email: 'dev-old@station.test', password: 'developer-password', totp_code: totpCode(developerSecret, clock.now()) },
    });
    expect(developer.statusCode).toBe(200);
  });

  it('re-seals the bootstrap admin secret from STATION_ADMIN_TOTP_SECRET when the key was replaced', async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 4, 9, 0, 0));
    const testDb = await createTestDatabase({ persistent: true });
    cleanups.push(() => testDb.drop());

    // Each start gets its own DATA_DIR here: the second start has a new totp-secrets key.
    const first = await buildTestStation({}, { clock, database: testDb, fakeEngine: true });
    const developerSecret = newTotpSecret();
    await first.auth.createUser({
      email: 'dev-lost@station.test',
      password: 'developer-password',
      role: 'developer',
      displayName: 'Dev',
      totpSecret: developerSecret,
    });
    const sealedBefore = await secretOf(first, ADMIN.email);
    await first.destroy();

    const second = await buildTestStation({}, { clock, database: testDb, fakeEngine: true });
    cleanups.push(() => second.destroy());
    expect(await secretOf(second, ADMIN.email)).not.toBe(sealedBefore);
    clock.advance(60_000);
    await staffLogin(second, clock);
    // Secrets sealed under the lost key cannot be recovered: that account fails like any wrong code.
    const developer = await second.http.inject({
      method: 'POST',
      url: '/api/auth/admin/login',
      payload: { email: 'dev-lost@station.test', password: 'developer-password', totp_code: totpCode(developerSecret, clock.now()) },
    });
    expect(developer.statusCode).toBe(401);
  });
});
