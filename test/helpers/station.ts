/**
 * Builds the whole product for a test, on PGlite by default or on a fresh PostgreSQL database when
 * DATABASE_URL is set (CI runs the suite both ways), and tears it down afterwards.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, onTestFinished } from 'vitest';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { desc, eq } from 'drizzle-orm';
import { mailOutbox } from '../../src/infra/db/schema/index.js';
import { loadConfig, type Config } from '../../src/config.js';
import { createStation, type Station, type StationOptions } from '../../src/app.js';
import { openDatabase, type Database } from '../../src/infra/db/client.js';
import { totpCode } from '../../src/auth/totp.js';
import type { Clock } from '../../src/infra/clock/clock.js';
import { TEST_PGLITE_SETTINGS, migratedPgliteTemplate } from './pglite-template.js';
import { migratedPostgresTemplate } from './postgres-template.js';
import { clientAddress } from '../auth/support.js';
import { FakeEngine, type FakeEngineOptions } from './fake-engine.js';
import { SchemaCompileCache } from '../../src/http/compile-cache.js';

export const ADMIN = {
  email: 'admin@station.test',
  password: 'correct horse battery staple',
  totpSecret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
};

/**
 * The engine's threads at the test process's own priority. In production they run at nice 10 so the API thread
 * of their process goes first; here two suites' four worker processes share two cores, and a station's renders
 * at nice 10 got a few per cent of a core behind the other processes' tests, so suites waited minutes on a
 * render that takes seconds. test/engine/thread-priority.test.ts covers the production default.
 */
export const ENGINE_AT_TEST_PRIORITY = '0';

export interface TestDatabase {
  /** Opens a new handle on the same data (a "restart"). */
  open(): Promise<Database>;
  drop(): Promise<void>;
  url: string | null;
  dataDir: string | null;
}

/** A suite's own fresh database, opened and migrated; `close()` closes the handle and drops the database. */
export interface SuiteDatabase {
  database: Database;
  close(): Promise<void>;
}

/** For a port or repository suite that needs a database and no station (beforeAll / afterAll). */
export async function openSuiteDatabase(): Promise<SuiteDatabase> {
  const testDb = await createTestDatabase();
  const database = await testDb.open();
  await database.migrate();
  return {
    database,
    close: async () => {
      await database.close();
      await testDb.drop();
    },
  };
}

/**
 * A fresh database with the schema migrated and no rows: a new PostgreSQL database on the CI server (a clone of
 * the migrated template), or a PGlite directory.
 */
export async function createTestDatabase(options: { persistent?: boolean } = {}): Promise<TestDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    const name = `station_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${await migratedPostgresTemplate(serverUrl)}`);
    } finally {
      await admin.end();
    }
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      dataDir: null,
      open: () => openDatabase({ url: url.toString(), dataDir: null, poolSize: 4 }),
      drop: async () => {
        const client = new pg.Client({ connectionString: serverUrl });
        await client.connect();
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await client.end();
      },
    };
  }
  const dataDir = options.persistent ? mkdtempSync(join(tmpdir(), 'station-db-')) : null;
  // A persistent one starts as a copy of the migrated template too, in the directory openDatabase keeps PGlite's
  // files in (<dataDir>/pgdata), instead of an initdb and every migration in WebAssembly at its first open (tens
  // of seconds of CPU under load). A first start on an empty directory is test/fixtures/crash-writer.ts's.
  if (dataDir) {
    const dir = join(dataDir, 'pgdata');
    mkdirSync(dir, { recursive: true });
    await (await PGlite.create(dir, { loadDataDir: await migratedPgliteTemplate(), postgresqlconf: [...TEST_PGLITE_SETTINGS] })).close();
  }
  return {
    url: null,
    dataDir,
    open: async () =>
      openDatabase({ url: null, dataDir, pgliteTemplate: dataDir ? undefined : await migratedPgliteTemplate(), pgliteSettings: TEST_PGLITE_SETTINGS }),
    drop: async () => {
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * One per worker process (isolate: false shares this module between the files a worker runs): every station
 * built here reuses the route validators and serializers the first one compiled, about half of a build's CPU.
 */
const compileCache = new SchemaCompileCache();

export interface TestStation extends Station {
  /** Closes the product and deletes its data. */
  destroy(): Promise<void>;
}

export type TestStationOptions = Omit<StationOptions, 'database'> & {
  database?: TestDatabase;
  /**
   * The FakeEngine (test/helpers/fake-engine.ts) instead of the in-process engine: for suites that are not
   * about rendering, features, safety or training, which then take seconds instead of minutes.
   */
  fakeEngine?: boolean | FakeEngineOptions;
};

export async function buildTestStation(env: Record<string, string> = {}, options: TestStationOptions = {}): Promise<TestStation> {
  const dataDir = mkdtempSync(join(tmpdir(), 'station-test-'));
  const config: Config = loadConfig({
    DATA_DIR: dataDir,
    STATION_DEMO: 'false',
    STATION_ADMIN_EMAIL: ADMIN.email,
    STATION_ADMIN_PASSWORD: ADMIN.password,
    STATION_ADMIN_TOTP_SECRET: ADMIN.totpSecret,
    PUBLIC_BASE_URL: 'http://station.test',
    STATION_ENGINE_NICENESS: ENGINE_AT_TEST_PRIORITY,
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL, REDIS_PREFIX: `test-${randomBytes(5).toString('hex')}` } : {}),
    ...env,
  });
  const ownsDatabase = !options.database;
  const testDb = options.database ?? (await createTestDatabase());
  const database = await testDb.open();
  const { fakeEngine, ...stationOptions } = options;
  const engine = stationOptions.engine ?? (fakeEngine ? new FakeEngine(fakeEngine === true ? {} : fakeEngine) : undefined);
  const station = await createStation(config, { compileCache, ...stationOptions, engine, database, logger: options.logger ?? false });
  return Object.assign(station, {
    async destroy() {
      await station.close();
      if (ownsDatabase) await testDb.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  });
}

/**
 * The station of a describe block (or file) that builds and closes itself, as fastify/demo's test/helper.ts
 * does: it registers its own beforeAll and afterAll, so no suite can forget the destroy(). Call it at the top
 * of the block, before the block's own hooks (they run after the build, and their teardown before the close).
 * What it returns stands for the station once beforeAll has built it: a proxy, so suites keep writing
 * `station.http...` instead of reading it out of a holder in every test.
 */
export function stationForSuite(env: Record<string, string> = {}, options: TestStationOptions = {}): TestStation {
  let built: TestStation | undefined;
  beforeAll(async () => {
    built = await buildTestStation(env, options);
  }, 120_000);
  afterAll(async () => {
    await built?.destroy();
    built = undefined;
  });
  const current = (): TestStation => {
    if (!built) throw new Error('stationForSuite: the station is used outside its suite (before beforeAll or after afterAll)');
    return built;
  };
  // Reads go to the station built for the suite; the proxy's own target is never used (hence the empty object).
  return new Proxy({} as TestStation, {
    get: (_target, key) => Reflect.get(current(), key),
    has: (_target, key) => Reflect.has(current(), key),
  });
}

/** A station for the running test, destroyed when the test ends (passed or failed): call it inside `it`. */
export async function stationForTest(env: Record<string, string> = {}, options: TestStationOptions = {}): Promise<TestStation> {
  const station = await buildTestStation(env, options);
  onTestFinished(() => station.destroy());
  return station;
}

export interface Credentials {
  token: string;
  csrf: string;
  userId: string;
}

export function authHeaders(c: Credentials): Record<string, string> {
  return { authorization: `Bearer ${c.token}`, 'x-csrf-token': c.csrf };
}

export async function signupListener(station: Station, email = `listener-${randomBytes(4).toString('hex')}@example.com`) {
  const response = await station.http.inject({
    method: 'POST',
    url: '/v1/auth/signup',
    payload: { email, password: 'listener-password', display_name: 'Test Listener' },
  });
  if (response.statusCode !== 201) throw new Error(`signup failed: ${response.body}`);
  const body = response.json();
  return { token: body.token as string, csrf: body.csrf_token as string, userId: body.user.id as string, refreshToken: body.refresh_token as string };
}

/** Verifies a signed-up account's address the way its owner would: the link from the mail (the outbox), posted back. */
export async function verifyAddress(station: Station, email: string): Promise<void> {
  await station.auth.drain();
  const mails = await station.database.db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.toAddress, email))
    .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id));
  const link = mails.map((mail) => /\/verify-email\?token=(\S+)/.exec(mail.textBody)).find(Boolean);
  if (!link) throw new Error(`no verification mail to ${email}`);
  // From an address of its own, as each owner would: the route's per-address rate limit is not what a suite tests.
  const response = await station.http.inject({
    method: 'POST',
    url: '/v1/auth/verify-email',
    remoteAddress: clientAddress(),
    payload: { token: decodeURIComponent(link[1]) },
  });
  if (response.statusCode !== 200) throw new Error(`verification failed: ${response.body}`);
}

/** A listener who signed up and verified the address from the mailed link. */
export async function verifiedListener(station: Station, email = `listener-${randomBytes(4).toString('hex')}@example.com`) {
  const login = await signupListener(station, email);
  await verifyAddress(station, email);
  return { ...login, email };
}

/** Logs the bootstrap super_admin in with a TOTP code; `clock` decides which code. */
export async function staffLogin(station: Station, clock: Clock = station.clock): Promise<Credentials & { cookie: string }> {
  const response = await station.http.inject({
    method: 'POST',
    url: '/api/auth/admin/login',
    payload: { email: ADMIN.email, password: ADMIN.password, totp_code: totpCode(ADMIN.totpSecret, clock.now()) },
  });
  if (response.statusCode !== 200) throw new Error(`staff login failed: ${response.body}`);
  const body = response.json();
  const cookie = String(response.headers['set-cookie']).split(';')[0];
  return { token: body.access_token, csrf: body.csrf_token, userId: body.user.id, cookie };
}
