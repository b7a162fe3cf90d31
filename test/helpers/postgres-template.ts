/**
 * One migrated, empty PostgreSQL database per migration set, cloned (`CREATE DATABASE ... TEMPLATE`) for every
 * test database on the CI server: running the ~40 migrations costs about a second per database, a clone a
 * fraction of that, and the services suite builds hundreds. Named by the migrations' hash, so a changed
 * migration builds a new one; built under a private name and renamed, so two test workers racing to build it
 * both end with the same, whole template.
 */
import pg from 'pg';
import { openDatabase } from '../../src/infra/db/client.js';
import { migrationsKey } from './pglite-template.js';

const PREFIX = 'station_tmpl_';
const templates = new Map<string, Promise<string>>();

/** The name of the migrated template database on the server of `serverUrl` (built at most once per worker). */
export function migratedPostgresTemplate(serverUrl: string): Promise<string> {
  let template = templates.get(serverUrl);
  if (!template) {
    template = findOrBuild(serverUrl);
    // A failed build is not cached: the next test tries again and reports its own error.
    template.catch(() => templates.delete(serverUrl));
    templates.set(serverUrl, template);
  }
  return template;
}

async function findOrBuild(serverUrl: string): Promise<string> {
  const name = `${PREFIX}${migrationsKey('postgres')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount) return name;
    const building = `${name}_${process.pid}`;
    await admin.query(`DROP DATABASE IF EXISTS ${building}`);
    await admin.query(`CREATE DATABASE ${building}`);
    const url = new URL(serverUrl);
    url.pathname = `/${building}`;
    const database = await openDatabase({ url: url.toString(), dataDir: null, poolSize: 1 });
    try {
      await database.migrate();
    } finally {
      await database.close();
    }
    try {
      await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
    } catch (error) {
      // Another worker renamed its build first (42P04, duplicate database): use that one, drop this one.
      await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
      if ((error as { code?: string }).code !== '42P04') throw error;
    }
    await dropStaleTemplates(admin, name);
    return name;
  } finally {
    await admin.end();
  }
}

/** Templates of older migration sets (earlier checkouts on the same server) are left over: drop them. */
async function dropStaleTemplates(admin: pg.Client, current: string): Promise<void> {
  const stale = await admin.query<{ datname: string }>(
    `select datname from pg_database where datname like '${PREFIX}%' and datname <> $1 and datname !~ '_[0-9]+$'`,
    [current],
  );
  for (const { datname } of stale.rows) await admin.query(`DROP DATABASE IF EXISTS ${datname}`).catch(() => undefined);
}
