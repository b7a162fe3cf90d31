/**
 * A test database that outlives a station, for suites that restart one on the same data: createTestDatabase's
 * persistent one (a PGlite directory that starts as a copy of the migrated template, or on PostgreSQL a clone of it).
 */
import { createTestDatabase, type TestDatabase } from './station.js';

export function createRestartableDatabase(): Promise<TestDatabase> {
  return createTestDatabase({ persistent: true });
}
