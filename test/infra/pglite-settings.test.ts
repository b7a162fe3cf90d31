/** The PGlite settings a caller gives (tests give a small buffer pool) reach the server; without any, PGlite's own. */
import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../../src/infra/db/client.js';
import { TEST_PGLITE_SETTINGS, migratedPgliteTemplate } from '../helpers/pglite-template.js';

describe('PGlite settings', () => {
  const opened: Database[] = [];
  afterEach(async () => {
    for (const database of opened.splice(0)) await database.close();
  });
  const sharedBuffers = async (database: Database) => {
    opened.push(database);
    const result = await database.db.execute(sql`show shared_buffers`);
    // Db is driver-neutral, so execute()'s result is opaque; PGlite answers { rows }.
    return (result as unknown as { rows: { shared_buffers: string }[] }).rows[0].shared_buffers;
  };

  it('starts with the settings given, and with the default buffer pool otherwise', async () => {
    const template = await migratedPgliteTemplate();
    expect(TEST_PGLITE_SETTINGS).toContain('shared_buffers=16MB');
    expect(await sharedBuffers(await openDatabase({ url: null, dataDir: null, pgliteTemplate: template, pgliteSettings: TEST_PGLITE_SETTINGS }))).toBe('16MB');
    expect(await sharedBuffers(await openDatabase({ url: null, dataDir: null, pgliteTemplate: template }))).toBe('128MB');
  });
});
