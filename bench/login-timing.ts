/**
 * Login timing: how long each kind of failed login takes, so that timing does not tell them apart
 * (test/auth/uniform-failure.test.ts checks that the answers are identical; timing is measured here, not
 * asserted in tests). Target: every failure case's p10 within 10% of the slowest case's p10 (the low
 * quantile is the work itself; the median also carries whatever else a shared machine is doing).
 *
 *   npx tsx bench/login-timing.ts [--rounds 100]
 *
 * The station runs in this process on PGlite with logging off; requests go through inject (no sockets, so
 * no network noise). The cases are interleaved round by round so drift on a shared machine hits them all.
 * A manual clock moves 25 hours between rounds, so the per-account throttle has forgotten every failure.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { eq } from 'drizzle-orm';
import { createStation } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { ManualClock } from '../src/infra/clock/clock.js';
import { users } from '../src/infra/db/schema/index.js';
import { newTotpSecret, totpCode } from '../src/auth/totp.js';

const TARGET_SPREAD = 0.1;
const { values: args } = parseArgs({ options: { rounds: { type: 'string', default: '100' } } });
const rounds = Number(args.rounds);

const ADMIN = { email: 'admin@bench.test', password: 'correct horse battery staple', totpSecret: newTotpSecret() };
const dataDir = mkdtempSync(join(tmpdir(), 'station-bench-login-'));
const clock = new ManualClock(Date.UTC(2026, 0, 1, 0, 0, 0));
const station = await createStation(
  loadConfig({
    DATA_DIR: dataDir,
    STATION_DEMO: 'false',
    LOG_LEVEL: 'silent',
    STATION_ADMIN_EMAIL: ADMIN.email,
    STATION_ADMIN_PASSWORD: ADMIN.password,
    STATION_ADMIN_TOTP_SECRET: ADMIN.totpSecret,
  }),
  { clock, logger: false },
);

try {
  await station.auth.createUser({ email: 'no-totp@bench.test', password: 'developer-password', role: 'developer', displayName: 'No TOTP' });
  const bannedSecret = newTotpSecret();
  await station.auth.createUser({
    email: 'banned@bench.test',
    password: 'developer-password',
    role: 'developer',
    displayName: 'Banned',
    totpSecret: bannedSecret,
  });
  await station.database.db.update(users).set({ status: 'banned' }).where(eq(users.email, 'banned@bench.test'));

  const code = (secret: string) => totpCode(secret, clock.now());
  const wrong = (secret: string) => (code(secret) === '000000' ? '111111' : '000000');
  const cases: Record<string, () => Record<string, string>> = {
    'unknown e-mail': () => ({ email: `nobody-${Math.random()}@bench.test`, password: ADMIN.password, totp_code: code(ADMIN.totpSecret) }),
    'wrong password': () => ({ email: ADMIN.email, password: 'not the password', totp_code: code(ADMIN.totpSecret) }),
    'wrong TOTP': () => ({ email: ADMIN.email, password: ADMIN.password, totp_code: wrong(ADMIN.totpSecret) }),
    'no TOTP enrolment': () => ({ email: 'no-totp@bench.test', password: 'developer-password', totp_code: code(ADMIN.totpSecret) }),
    banned: () => ({ email: 'banned@bench.test', password: 'developer-password', totp_code: code(bannedSecret) }),
  };
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));

  let address = 0;
  for (let round = -2; round < rounds; round++) {
    clock.advance(25 * 3600_000);
    for (const [name, payload] of Object.entries(cases)) {
      const started = process.hrtime.bigint();
      const response = await station.http.inject({
        method: 'POST',
        url: '/api/auth/admin/login',
        payload: payload(),
        remoteAddress: `198.18.${(address >> 8) & 255}.${address++ & 255}`,
      });
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (response.statusCode !== 401) throw new Error(`${name}: expected 401, got ${response.statusCode} ${response.body}`);
      if (round >= 0) samples[name].push(ms); // the first two rounds warm up
    }
  }

  const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))];
  const p10s = Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, quantile(values, 0.1)]));
  const slowest = Math.max(...Object.values(p10s));
  console.log(`staff login failures, ${rounds} rounds (ms)`);
  console.log('case                    p10 median    p90   p10 vs slowest');
  for (const [name, values] of Object.entries(samples)) {
    const cells = [0.1, 0.5, 0.9].map((q) => quantile(values, q).toFixed(1).padStart(6)).join(' ');
    console.log(`${name.padEnd(20)} ${cells}   ${((p10s[name] / slowest - 1) * 100).toFixed(1).padStart(6)}%`);
  }
  const spread = 1 - Math.min(...Object.values(p10s)) / slowest;
  console.log(`spread of p10s: ${(spread * 100).toFixed(1)}% (target <= ${TARGET_SPREAD * 100}%)`);
  process.exitCode = spread <= TARGET_SPREAD ? 0 : 1;
} finally {
  await station.close();
  rmSync(dataDir, { recursive: true, force: true });
}
