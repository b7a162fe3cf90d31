/**
 * Databases for the mailer tests: PGlite in memory always, and PostgreSQL when DATABASE_URL is set, in a
 * throwaway database of its own (created here, dropped after) so other suites' tables are never touched.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { type Database, openDatabase } from '../../src/infra/db/client.js';
import { TEST_PGLITE_SETTINGS, migratedPgliteTemplate } from '../helpers/pglite-template.js';

export interface TestDatabase {
  database: Database;
  dispose(): Promise<void>;
}

export interface DatabaseBackend {
  name: string;
  enabled: boolean;
  open(): Promise<TestDatabase>;
}

const DATABASE_URL = process.env.DATABASE_URL;

export const databaseBackends: DatabaseBackend[] = [
  {
    name: 'PGlite',
    enabled: true,
    open: async () => {
      const database = await openDatabase({ url: null, dataDir: null, pgliteTemplate: await migratedPgliteTemplate(), pgliteSettings: TEST_PGLITE_SETTINGS });
      await database.migrate();
      return { database, dispose: () => database.close() };
    },
  },
  {
    name: 'PostgreSQL',
    enabled: Boolean(DATABASE_URL),
    open: async () => {
      const name = `station_infra_${randomUUID().replaceAll('-', '')}`;
      await admin(`create database ${name}`);
      const url = new URL(DATABASE_URL!);
      url.pathname = `/${name}`;
      const database = await openDatabase({ url: url.toString(), dataDir: null, poolSize: 2 });
      await database.migrate();
      return {
        database,
        dispose: async () => {
          await database.close();
          await admin(`drop database if exists ${name}`);
        },
      };
    },
  },
];

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
