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
let template: Promise<Blob> | null = null;

export function migratedPgliteTemplate(): Promise<Blob> {
  template ??= loadOrBuild();
  return template;
}

function templateKey(): string {
  return migrationsKey(JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, '../node_modules/@electric-sql/pglite/package.json'), 'utf8')).version);
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
