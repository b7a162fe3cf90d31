/**
 * A test database that outlives a station, for suites that restart one on the same data: a PGlite directory
 * that starts as a copy of the migrated template (as the in-memory databases do), instead of an initdb and
 * every migration in WebAssembly on the first open (20 s on a loaded machine). On PostgreSQL (DATABASE_URL)
 * it is createTestDatabase's, already a clone of the migrated template.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { openDatabase } from '../../src/infra/db/client.js';
import { migratedPgliteTemplate } from './pglite-template.js';
import { createTestDatabase, type TestDatabase } from './station.js';

export async function createRestartableDatabase(): Promise<TestDatabase> {
  if (process.env.DATABASE_URL) return createTestDatabase({ persistent: true });
  const dataDir = mkdtempSync(join(tmpdir(), 'station-db-'));
  // openDatabase keeps PGlite's files under <dataDir>/pgdata: the dump is loaded there, then closed.
  const dir = join(dataDir, 'pgdata');
  mkdirSync(dir, { recursive: true });
  const client = await PGlite.create(dir, { loadDataDir: await migratedPgliteTemplate() });
  await client.close();
  return {
    url: null,
    dataDir,
    open: () => openDatabase({ url: null, dataDir }),
    drop: async () => {
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
