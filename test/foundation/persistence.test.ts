/**
 * Persistence: migrations, restarts, the integrity rules the database itself enforces, atomic
 * transactions, and crash consistency under SIGKILL. Runs on PGlite, or on PostgreSQL when DATABASE_URL is set.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER, openDatabase, type Database } from '../../src/infra/db/client.js';
import { artists, playEvents, songwriters, trackCredits, tracks, users } from '../../src/infra/db/schema/index.js';
import { buildTestStation, createTestDatabase, type TestDatabase } from '../helpers/station.js';
import { randomClientIp, signUp } from './support.js';

/** The PostgreSQL error code (SQLSTATE) of a failed query, wherever the driver or Drizzle put it. */
async function sqlState(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    for (let e: any = error; e; e = e.cause) if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
    throw error;
  }
  throw new Error('the statement succeeded');
}

const UNIQUE_VIOLATION = '23505';
const CHECK_VIOLATION = '23514';
const FOREIGN_KEY_VIOLATION = '23503';
/** ON DELETE RESTRICT reports restrict_violation rather than foreign_key_violation. */
const RESTRICT_VIOLATION = '23001';

const rowsOf = (result: unknown): any[] => (Array.isArray(result) ? result : (result as { rows: any[] }).rows);

describe('migrations', () => {
  let testDb: TestDatabase;
  let database: Database;
  beforeAll(async () => {
    testDb = await createTestDatabase();
    database = await testDb.open();
  });
  afterAll(async () => {
    await database?.close();
    await testDb?.drop();
  });

  it('apply on an empty database and are idempotent', async () => {
    const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8'));
    await database.migrate();
    const tables = rowsOf(await database.db.execute(sql`select table_name from information_schema.tables where table_schema = 'public'`)).map(
      (r) => r.table_name,
    );
    expect(tables).toEqual(
      expect.arrayContaining([
        'users',
        'auth_sessions',
        'refresh_tokens',
        'api_keys',
        'artists',
        'tracks',
        'songwriters',
        'track_credits',
        'lyrics',
        'play_events',
      ]),
    );
    const applied = async () => Number(rowsOf(await database.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`))[0].n);
    expect(await applied()).toBe(journal.entries.length);
    await database.migrate();
    await database.migrate();
    expect(await applied()).toBe(journal.entries.length);
  });

  it.runIf(Boolean(process.env.DATABASE_URL))('serialise when several instances migrate at once', async () => {
    const fresh = await createTestDatabase();
    const handles = await Promise.all([fresh.open(), fresh.open(), fresh.open()]);
    try {
      await Promise.all(handles.map((h) => h.migrate()));
      const n = rowsOf(await handles[0].db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`))[0].n;
      const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8'));
      expect(Number(n)).toBe(journal.entries.length);
    } finally {
      await Promise.all(handles.map((h) => h.close()));
      await fresh.drop();
    }
  });
});

describe('restart', () => {
  it('keeps accounts across a restart on the same database', async () => {
    const testDb = await createTestDatabase({ persistent: true });
    try {
      const first = await buildTestStation({}, { database: testDb, fakeEngine: true });
      const listener = await signUp(first);
      await first.close();

      const second = await buildTestStation({}, { database: testDb, fakeEngine: true });
      try {
        const login = await second.http.inject({
          method: 'POST',
          url: '/v1/auth/login',
          remoteAddress: randomClientIp(),
          payload: { email: listener.email, password: listener.password },
        });
        expect(login.statusCode).toBe(200);
        expect(login.json().role).toBe('listener');
        const [row] = await second.database.db.select().from(users).where(eq(users.email, listener.email));
        expect(row.id).toBe(listener.userId);
        // The bootstrap admin was not duplicated by the second start.
        const admins = await second.database.db.select().from(users).where(eq(users.role, 'super_admin'));
        expect(admins).toHaveLength(1);
      } finally {
        await second.close();
      }
    } finally {
      await testDb.drop();
    }
  });
});

describe('integrity enforced by the database', () => {
  let testDb: TestDatabase;
  let database: Database;
  let artistId: string;
  let trackId: string;
  let songwriterId: string;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    database = await testDb.open();
    await database.migrate();
    const [artist] = await database.db.insert(artists).values({ slug: 'integrity-band', name: 'Integrity Band', genre: 'rock' }).returning();
    artistId = artist.id;
    const [track] = await database.db
      .insert(tracks)
      .values({ slug: 'integrity-song', title: 'Integrity Song', artistId, genre: 'rock', durationSec: 180, isrc: 'USABC2600001' })
      .returning();
    trackId = track.id;
    const [writer] = await database.db.insert(songwriters).values({ slug: 'integrity-writer', name: 'Writer' }).returning();
    songwriterId = writer.id;
  });
  afterAll(async () => {
    await database?.close();
    await testDb?.drop();
  });

  it('rejects a duplicate e-mail on the unique index', async () => {
    const user = { email: 'dup@example.com', passwordHash: 'x', displayName: 'Dup' };
    await database.db.insert(users).values(user);
    expect(await sqlState(database.db.insert(users).values(user))).toBe(UNIQUE_VIOLATION);
  });

  it('rejects a malformed ISRC and accepts a well-formed one', async () => {
    const base = { artistId, genre: 'rock', durationSec: 100 };
    for (const isrc of ['US-ABC-26-00001', 'usabc2600002', 'USABC260000', 'USABC26000011']) {
      expect(await sqlState(database.db.insert(tracks).values({ ...base, slug: `bad-isrc-${isrc.toLowerCase()}`, title: 'x', isrc })), isrc).toBe(
        CHECK_VIOLATION,
      );
    }
    await database.db.insert(tracks).values({ ...base, slug: 'good-isrc', title: 'x', isrc: 'GBXYZ2612345' });
    expect(await sqlState(database.db.insert(tracks).values({ ...base, slug: 'dup-isrc', title: 'x', isrc: 'GBXYZ2612345' }))).toBe(UNIQUE_VIOLATION);
  });

  it('rejects other out-of-range values (duration, bpm, slug)', async () => {
    const base = { artistId, genre: 'rock', title: 'x' };
    expect(await sqlState(database.db.insert(tracks).values({ ...base, slug: 'zero-length', durationSec: 0 }))).toBe(CHECK_VIOLATION);
    expect(await sqlState(database.db.insert(tracks).values({ ...base, slug: 'fast', durationSec: 10, bpm: 900 }))).toBe(CHECK_VIOLATION);
    expect(await sqlState(database.db.insert(artists).values({ slug: 'Bad Slug', name: 'x', genre: 'rock' }))).toBe(CHECK_VIOLATION);
  });

  it('rejects a credit split of 0 or above 100', async () => {
    const credit = { trackId, songwriterId, role: 'composer' as const };
    expect(await sqlState(database.db.insert(trackCredits).values({ ...credit, splitPct: 0 }))).toBe(CHECK_VIOLATION);
    expect(await sqlState(database.db.insert(trackCredits).values({ ...credit, splitPct: 100.5 }))).toBe(CHECK_VIOLATION);
    await database.db.insert(trackCredits).values({ ...credit, splitPct: 100 });
  });

  it('restricts deleting an artist that still has tracks', async () => {
    expect([RESTRICT_VIOLATION, FOREIGN_KEY_VIOLATION]).toContain(await sqlState(database.db.delete(artists).where(eq(artists.id, artistId))));
    const [still] = await database.db.select().from(artists).where(eq(artists.id, artistId));
    expect(still).toBeDefined();
  });

  it('rejects a track whose artist does not exist', async () => {
    const orphan = { slug: 'orphan', title: 'x', genre: 'rock', durationSec: 10, artistId: '00000000-0000-4000-8000-000000000000' };
    expect(await sqlState(database.db.insert(tracks).values(orphan))).toBe(FOREIGN_KEY_VIOLATION);
  });

  it('rolls back a transaction that fails midway: nothing of it remains', async () => {
    const before = await database.db.select({ streams: tracks.streams }).from(tracks).where(eq(tracks.id, trackId));
    const failing = database.db.transaction(async (tx) => {
      await tx.insert(playEvents).values({ trackId, userId: null, source: 'on_demand', sessionId: 'half-written' });
      await tx
        .update(tracks)
        .set({ streams: sql`${tracks.streams} + 1` })
        .where(eq(tracks.id, trackId));
      // The second write of the pair breaks a rule: the whole transaction must disappear.
      await tx.update(tracks).set({ durationSec: -1 }).where(eq(tracks.id, trackId));
    });
    expect(await sqlState(failing)).toBe(CHECK_VIOLATION);
    const events = await database.db.select().from(playEvents).where(eq(playEvents.sessionId, 'half-written'));
    expect(events).toHaveLength(0);
    const after = await database.db.select({ streams: tracks.streams }).from(tracks).where(eq(tracks.id, trackId));
    expect(after).toEqual(before);
  });
});

describe('crash consistency', () => {
  const BATCH = 50;
  const KILL_AFTER_COMMITS = 3;

  function runWriterUntilKilled(dataDir: string, url: string | null): Promise<{ stderr: string; signal: string | null }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/crash-writer.ts', dataDir, ...(url ? [url] : [])], {
        cwd: process.cwd(),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      let stdout = '';
      const giveUp = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`the writer never committed ${KILL_AFTER_COMMITS} transactions: ${stderr}`));
      }, 60_000);
      child.stderr.on('data', (chunk) => (stderr += chunk));
      // Killed as soon as it reports a few commits: it is then inside the next transaction (or about to be).
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
        if (stdout.includes(`committed ${KILL_AFTER_COMMITS}\n`)) child.kill('SIGKILL');
      });
      child.on('exit', (_code, signal) => {
        clearTimeout(giveUp);
        resolve({ stderr, signal });
      });
      child.on('error', reject);
    });
  }

  it('keeps only whole transactions after SIGKILL, and the database opens again', async () => {
    const testDb = await createTestDatabase();
    const dataDir = mkdtempSync(join(tmpdir(), 'station-crash-'));
    try {
      const { signal, stderr } = await runWriterUntilKilled(dataDir, testDb.url);
      expect(signal, stderr).toBe('SIGKILL');
      const reopened = await openDatabase({ url: testDb.url, dataDir, poolSize: 1 });
      try {
        await reopened.ping();
        const [{ rows, batches, incomplete }] = rowsOf(
          await reopened.db.execute(sql`
            select count(*)::int as rows,
                   count(distinct batch)::int as batches,
                   (select count(*)::int from (select batch from crash_rows group by batch having count(*) <> ${BATCH}) b) as incomplete
            from crash_rows`),
        );
        expect(rows).toBeGreaterThanOrEqual(KILL_AFTER_COMMITS * BATCH);
        expect(rows % BATCH).toBe(0);
        expect(incomplete).toBe(0);
        expect(rows).toBe(batches * BATCH);
        // Still writable after the crash.
        await reopened.migrate();
        await reopened.db.execute(sql`insert into crash_rows (batch, n, payload) values (-1, 0, 'after')`);
      } finally {
        await reopened.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      await testDb.drop();
    }
  });
});
