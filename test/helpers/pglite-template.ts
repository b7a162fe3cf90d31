/**
 * One migrated, empty PGlite data directory shared by every in-memory test database. initdb in WebAssembly
 * takes seconds per database and the suite opens hundreds; loading this dump takes a fraction of that.
 * Cached on disk under the OS temp directory, keyed by the PGlite version and the migrations' content, so
 * every test worker (each its own process) builds it at most once and a changed migration builds a new one.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { MIGRATIONS_FOLDER } from '../../src/infra/db/client.js';

const FILE_PREFIX = 'station-pglite-template-';
/** Part of the cache key: a change to how the template is built (below) builds a new one. */
const BUILD_VERSION = 'without-template-databases';
let template: Promise<Blob> | null = null;

/**
 * postgresql.conf for every test PGlite: a 16 MB buffer pool instead of 128 MB. PostgreSQL zeroes the pool at
 * each start, half of a test database's open (1.1 s of CPU against 0.55 s); test data is tiny.
 */
export const TEST_PGLITE_SETTINGS: readonly string[] = ['shared_buffers=16MB'];

export function migratedPgliteTemplate(): Promise<Blob> {
  template ??= loadOrBuild();
  return template;
}

function templateKey(): string {
  const pgliteVersion = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, '../node_modules/@electric-sql/pglite/package.json'), 'utf8')).version;
  return migrationsKey(`${pgliteVersion} ${BUILD_VERSION}`);
}

/** A short hash of the migrations' content (and `salt`): a changed migration makes a new template. */
export function migrationsKey(salt = ''): string {
  const hash = createHash('sha256');
  hash.update(salt);
  for (const file of readdirSync(MIGRATIONS_FOLDER, { recursive: true }).map(String).sort()) {
    const path = join(MIGRATIONS_FOLDER, file);
    if (file.endsWith('.sql') || file.endsWith('.json')) hash.update(file).update(readFileSync(path));
  }
  return hash.digest('hex').slice(0, 16);
}

async function loadOrBuild(): Promise<Blob> {
  const key = templateKey();
  const path = join(tmpdir(), `${FILE_PREFIX}${key}.tar`);
  if (existsSync(path)) return new Blob([readFileSync(path)]);
  const client = await PGlite.create();
  try {
    await migrate(drizzle({ client }), { migrationsFolder: MIGRATIONS_FOLDER });
    // template0 and template1 are 15 of the dump's 44 MB, and every open loads the whole dump (about 140 ms
    // of its ~590 ms of CPU). They serve only CREATE DATABASE, which nothing runs on PGlite (one database).
    await client.exec(`update pg_database set datistemplate = false where datname in ('template0', 'template1')`);
    await client.exec('drop database template1');
    await client.exec('drop database template0');
    await client.exec('checkpoint');
    const dump = await client.dumpDataDir('none');
    const bytes = Buffer.from(await dump.arrayBuffer());
    // Written aside and renamed: a worker reading concurrently sees the whole file or none.
    const partial = `${path}.${process.pid}.partial`;
    writeFileSync(partial, bytes);
    renameSync(partial, path);
    removeStaleTemplates(key);
    return new Blob([bytes]);
  } finally {
    await client.close();
  }
}

function removeStaleTemplates(currentKey: string): void {
  for (const name of readdirSync(tmpdir())) {
    if (name.startsWith(FILE_PREFIX) && !name.includes(currentKey) && !name.endsWith('.partial')) {
      rmSync(join(tmpdir(), name), { force: true });
    }
  }
}
