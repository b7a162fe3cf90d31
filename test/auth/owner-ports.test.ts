/**
 * Auth's ports for the platform groups that touch its tables (issue 19, item 2), on the real database:
 * `AccountWrites` (display name, plan, the user's row lock), `UserDirectory` (a subscriber, an owner's role and
 * status as subqueries), and `AppSessionStore`
 * (an app's sessions and refresh tokens). The writes that take a caller's transaction land in it: a
 * rolled-back transaction leaves nothing. Runs on PGlite, or PostgreSQL when DATABASE_URL is set.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountWrites } from '../../src/auth/account-writes.js';
import { AppSessionStore } from '../../src/auth/app-session-store.js';
import { UserDirectory } from '../../src/auth/user-directory.js';
import type { Database, Db } from '../../src/infra/db/client.js';
import { authSessions, oauthClients, refreshTokens, users } from '../../src/infra/db/schema/index.js';
import { openSuiteDatabase, type SuiteDatabase } from '../helpers/station.js';

let suiteDb: SuiteDatabase | undefined;
let database: Database;
let db: Db;
const USER = { id: randomUUID(), email: 'owner-ports@example.com', passwordHash: 'x', displayName: 'Before', role: 'developer' as const };
const CLIENT = {
  id: randomUUID(),
  ownerUserId: USER.id,
  name: 'App',
  redirectUris: ['https://app.example/cb'],
  scopes: ['library:read'],
  type: 'public' as const,
};
const rollback = new Error('rolled back on purpose');
const inRolledBack = (work: Parameters<Db['transaction']>[0]) =>
  expect(db.transaction(async (tx) => (await work(tx), Promise.reject(rollback)))).rejects.toBe(rollback);
const user = async () => (await db.select().from(users).where(eq(users.id, USER.id)))[0];

beforeAll(async () => {
  suiteDb = await openSuiteDatabase();
  database = suiteDb.database;
  db = database.db;
  await db.insert(users).values(USER);
  await db.insert(oauthClients).values(CLIENT);
}, 120_000);

afterAll(async () => {
  await suiteDb?.close();
});

describe('AccountWrites and UserDirectory', () => {
  const accounts = new AccountWrites();

  it('writes a display name and a plan in the transaction given, under the row lock', async () => {
    await inRolledBack(async (tx) => {
      await accounts.lock(USER.id, tx);
      await accounts.setPlan(USER.id, 'pro', tx);
      await accounts.setDisplayName(USER.id, 'Rolled back', tx);
    });
    expect(await user()).toMatchObject({ plan: 'free', displayName: 'Before' });
    await db.transaction(async (tx) => {
      await accounts.lock(USER.id, tx);
      await accounts.setPlan(USER.id, 'pro', tx);
      await accounts.setDisplayName(USER.id, 'After', tx);
    });
    expect(await user()).toMatchObject({ plan: 'pro', displayName: 'After' });
    await accounts.setDisplayName('not-a-uuid', 'Nobody', db); // names no user: no row, no error
    expect(await new UserDirectory(db).subscriber(USER.id)).toEqual({ id: USER.id, email: USER.email, plan: 'pro' });
    expect(await new UserDirectory(db).subscriber(randomUUID())).toBeNull();
  });

  it('reads an owner’s role and status as subqueries of the caller’s statement', async () => {
    const directory = new UserDirectory(db);
    const rows = await db
      .select({ id: oauthClients.id, role: directory.roleOf(oauthClients.ownerUserId), status: directory.statusOf(oauthClients.ownerUserId) })
      .from(oauthClients);
    expect(rows).toEqual([{ id: CLIENT.id, role: 'developer', status: 'active' }]);
  });
});

describe('AppSessionStore', () => {
  const store = () => new AppSessionStore(db);
  const opening = (hash: string) => ({
    userId: USER.id,
    clientId: CLIENT.id,
    scopes: ['library:read'],
    refreshHash: hash,
    expiresAt: new Date(Date.now() + 3600_000),
  });

  it('opens a session with its first refresh token in the transaction given; a rollback leaves neither', async () => {
    await inRolledBack((tx) => store().open(opening('hash-dropped'), tx));
    expect(await store().refreshToken('hash-dropped')).toBeNull();
    const sessionId = await db.transaction((tx) => store().open(opening('hash-kept'), tx));
    expect(await store().refreshToken('hash-kept')).toMatchObject({
      sessionId,
      sessionKind: 'oauth',
      oauthClientId: CLIENT.id,
      scopes: ['library:read'],
      rotatedAt: null,
      sessionRevokedAt: null,
      userId: USER.id,
      userStatus: 'active',
      role: 'developer',
    });
    expect(await store().account(USER.id)).toEqual({ id: USER.id, role: 'developer', status: 'active' });
  });

  it('rotates a refresh token once and narrows the session’s scopes', async () => {
    const sessionId = await store().open(opening('hash-rotate'), db);
    const token = (await store().refreshToken('hash-rotate'))!;
    const next = { hash: 'hash-rotate-next', expiresAt: new Date(Date.now() + 3600_000) };
    expect(await store().rotate(token.id, sessionId, next, [])).toBe(true);
    expect(await store().rotate(token.id, sessionId, { ...next, hash: 'hash-rotate-again' }, null)).toBe(false);
    expect((await store().refreshToken('hash-rotate'))?.rotatedAt).toBeInstanceOf(Date);
    expect(await store().refreshToken('hash-rotate-next')).toMatchObject({ sessionId, rotatedAt: null, scopes: [] });
    expect(await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, 'hash-rotate-again'))).toEqual([]);
  });

  it('lists an app’s sessions and revokes the user’s open ones in the transaction given', async () => {
    const ids = await db.transaction((tx) => store().sessionIdsOfApp(CLIENT.id, tx));
    expect(ids.length).toBeGreaterThanOrEqual(2);
    await inRolledBack((tx) => store().revokeAppSessions(USER.id, CLIENT.id, 'rolled back', tx));
    const open = await db
      .select({ id: authSessions.id, revokedAt: authSessions.revokedAt })
      .from(authSessions)
      .where(eq(authSessions.oauthClientId, CLIENT.id));
    expect(open.every((s) => s.revokedAt === null)).toBe(true);
    const revoked = await db.transaction((tx) => store().revokeAppSessions(USER.id, CLIENT.id, 'app access revoked by the user', tx));
    expect(revoked.sort()).toEqual([...ids].sort());
    expect(await db.transaction((tx) => store().revokeAppSessions(USER.id, CLIENT.id, 'again', tx))).toEqual([]);
  });
});
