/**
 * The database port: one Drizzle handle over PostgreSQL, either PGlite (PostgreSQL compiled to WebAssembly,
 * stored under DATA_DIR) or a real server through node-postgres. The same schema, migrations, constraints
 * and triggers run on both, so integrity rules hold whichever the operator picks.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema/index.js';
import { LeastPrivilegeError, appRoleGrants, assertAppRoleLeastPrivilege, roleFacts } from './privileges.js';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle has the same query API as the database. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  driver: 'pglite' | 'postgres';
  /** Applies pending migrations; safe when several instances start at once. */
  migrate(): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../../drizzle', import.meta.url));

/** How long a request waits for a new PostgreSQL connection before it is answered 503. */
const CONNECT_TIMEOUT_MS = 3_000;

/** Any fixed number: the key of the advisory lock that serialises migrations across instances. */
const MIGRATION_LOCK_KEY = 7_246_001;

export interface DatabaseOptions {
  /** postgres:// URL; null selects PGlite. */
  url: string | null;
  /**
   * postgres:// URL of a role that owns the schema (DATABASE_MIGRATION_URL): migrations run as that role,
   * which then grants `url`'s role least privilege; the app never holds the owner's rights.
   */
  migrationUrl?: string | null;
  /** PGlite data directory; null keeps PGlite in memory (tests). */
  dataDir: string | null;
  /**
   * In-memory PGlite only: a dumped data directory (`dumpDataDir()`) to start from instead of running
   * initdb. Tests pass an already-migrated one: initdb in WebAssembly costs seconds, loading a dump a
   * fraction of that, and `migrate()` then finds nothing to apply.
   */
  pgliteTemplate?: Blob;
  /**
   * PGlite only: postgresql.conf settings for this start. Tests pass a small buffer pool: PostgreSQL zeroes its
   * shared buffers at every start, and with PGlite's 128 MB that was about half the CPU of opening a test
   * database (1.1 s against 0.55 s with 16 MB); the suites open hundreds. The product keeps the default.
   */
  pgliteSettings?: readonly string[];
  poolSize?: number;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.migrationUrl && !options.url) throw new Error('a migration URL needs a PostgreSQL URL for the app');
  return options.url
    ? openPostgres(options.url, options.poolSize ?? 10, options.migrationUrl ?? null)
    : openPglite(options.dataDir, options.pgliteTemplate, options.pgliteSettings);
}

async function openPglite(dataDir: string | null, template: Blob | undefined, settings: readonly string[] = []): Promise<Database> {
  const postgresqlconf = settings.length > 0 ? [...settings] : undefined;
  let client: PGlite;
  if (dataDir) {
    const dir = join(dataDir, 'pgdata');
    mkdirSync(dir, { recursive: true });
    client = await PGlite.create(dir, { postgresqlconf });
  } else {
    client = await PGlite.create({ ...(template ? { loadDataDir: template } : {}), postgresqlconf });
  }
  // Db is the driver-neutral PgDatabase both drivers share at run time; their own database types are not declared assignable to it.
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  return {
    db,
    driver: 'pglite',
    migrate: async () => {
      await migratePglite(drizzlePglite({ client, schema }), { migrationsFolder: MIGRATIONS_FOLDER });
      // PGlite runs no autovacuum, so nothing else gathers the planner's statistics: without them it cannot
      // tell a common search word from a rare one (src/platform/catalog/track-search.ts). Once per start.
      await client.exec('analyze');
    },
    ping: async () => {
      await client.query('select 1');
    },
    close: () => client.close(),
  };
}

/** Migrations as the owner, under the advisory lock; then the owner grants the app's role what it needs. */
async function migrateAsOwner(migrationUrl: string, app: pg.Pool): Promise<void> {
  const appRole = await roleFacts(app);
  const owner = new pg.Client({ connectionString: migrationUrl });
  await owner.connect();
  try {
    const ownerRole = await roleFacts(owner);
    if (ownerRole.database !== appRole.database) {
      throw new LeastPrivilegeError(
        `DATABASE_MIGRATION_URL names database ${JSON.stringify(ownerRole.database)}, DATABASE_URL ${JSON.stringify(appRole.database)}: they must be the same`,
      );
    }
    if (ownerRole.role === appRole.role) {
      throw new LeastPrivilegeError(
        `DATABASE_MIGRATION_URL and DATABASE_URL log in as the same role ${JSON.stringify(appRole.role)}: the app's role must not own the schema`,
      );
    }
    await owner.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await migratePg(drizzlePg({ client: owner, schema }), { migrationsFolder: MIGRATIONS_FOLDER });
      for (const statement of appRoleGrants(appRole.role)) await owner.query(statement);
    } finally {
      await owner.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    }
  } finally {
    await owner.end();
  }
  await assertAppRoleLeastPrivilege(app);
}

async function openPostgres(url: string, poolSize: number, migrationUrl: string | null): Promise<Database> {
  // A new connection that does not open within CONNECT_TIMEOUT_MS fails (a 503, src/infra/outage.ts) rather than
  // queueing the request until the server returns; keep-alive finds a silently dropped server connection.
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, keepAlive: true });
  // An idle client whose server connection ends (a restart, or the database dropped at shutdown) emits
  // 'error' on the pool; without a listener that would crash the process. The pool replaces the client.
  pool.on('error', () => undefined);
  const db = drizzlePg({ client: pool, schema });
  return {
    // Db is one type for both drivers (see openPglite).
    db: db as unknown as Db,
    driver: 'postgres',
    migrate: async () => {
      if (migrationUrl) return migrateAsOwner(migrationUrl, pool);
      // The advisory lock is held on one connection for the whole migration, so a second instance waits.
      const conn = await pool.connect();
      try {
        await conn.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        await migratePg(drizzlePg({ client: conn, schema }), { migrationsFolder: MIGRATIONS_FOLDER });
      } finally {
        await conn.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
        conn.release();
      }
    },
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: () => pool.end(),
  };
}
