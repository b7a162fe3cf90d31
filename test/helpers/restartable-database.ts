/**
 * A test database that outlives a station's restart the way a PostgreSQL server outlives the app: on PGlite,
 * one in-memory database (from the migrated template) that every open() hands out and only drop() closes,
 * instead of createTestDatabase({ persistent: true })'s data directory on disk, whose initdb, migrations
 * and file writes cost a suite seconds (tens of seconds on a loaded machine). On PostgreSQL (DATABASE_URL)
 * it is createTestDatabase's own database.
 */
import type { Database } from '../../src/infra/db/client.js';
import { createTestDatabase, type TestDatabase } from './station.js';

export async function createRestartableTestDatabase(): Promise<TestDatabase> {
  const database = await createTestDatabase();
  // PostgreSQL: a database of its own, which every open() reaches again.
  if (database.url) return database;
  const shared = await database.open();
  return {
    url: null,
    dataDir: null,
    // What a station (or a test) closes is its handle, not the database.
    open: async (): Promise<Database> => ({ ...shared, close: async () => undefined }),
    drop: async () => {
      await shared.close();
      await database.drop();
    },
  };
}
