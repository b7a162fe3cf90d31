/** Benches that run against PostgreSQL get a database of their own, so they never touch real data. */
import { randomUUID } from 'node:crypto';
import pg from 'pg';

export interface ScratchDatabase {
  /** The scratch database's URL; undefined means the embedded PGlite (DATABASE_URL unset). */
  url: string | undefined;
  /** The server's URL the scratch database lives on, when there is one. */
  server: string | undefined;
  name: string | undefined;
  drop(): Promise<void>;
}

/** A fresh PostgreSQL database on DATABASE_URL's server (dropped by drop()); otherwise the embedded PGlite. */
export async function scratchDatabase(prefix: string): Promise<ScratchDatabase> {
  const server = process.env.DATABASE_URL;
  if (!server) return { url: undefined, server: undefined, name: undefined, drop: async () => undefined };
  const name = `${prefix}_${randomUUID().replaceAll('-', '')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: server });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return { url: url.toString(), server, name, drop: () => admin(`drop database if exists ${name} with (force)`) };
}
