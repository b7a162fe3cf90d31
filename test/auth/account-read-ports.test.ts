/**
 * Read ports between auth and the groups around it (issue 19, item 2), on the real database: the developer
 * group's answer to whether a user opened a developer account, on its own and as a subquery of the caller's
 * statement (`DeveloperAccountFlag`), with the per-request key and session lookups of auth that select it; and
 * auth's account columns a profile shows (`UserDirectory.profileAccounts`), joined by the users group's profile.
 * Runs on PGlite, or PostgreSQL when DATABASE_URL is set.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountWrites } from '../../src/auth/account-writes.js';
import { ApiKeysRepository } from '../../src/auth/api-keys.repository.js';
import { UserDirectory } from '../../src/auth/user-directory.js';
import type { Database, Db } from '../../src/infra/db/client.js';
import { apiKeys, authSessions, users } from '../../src/infra/db/schema/index.js';
import { DeveloperAccountsRepository } from '../../src/platform/developer/developer-accounts.js';
import { SessionsRepository } from '../../src/auth/sessions.repository.js';
import { UsersRepository } from '../../src/platform/users/users.repository.js';
import { openSuiteDatabase, type SuiteDatabase } from '../helpers/station.js';

let suiteDb: SuiteDatabase | undefined;
let database: Database;
let db: Db;
const account = (email: string) => ({ id: randomUUID(), email, passwordHash: 'x', displayName: email, role: 'listener' as const });
const INTEGRATOR = account('integrator@example.com');
const LISTENER = account('listener@example.com');
const key = (id: string, ownerUserId: string | null) => ({
  id,
  name: 'k',
  keyHash: `hash-${id}`,
  keyPrefix: 'stn_test',
  scopes: ['tracks:read'],
  environment: 'test' as const,
  ownerUserId,
});
const KEYS = { integrator: randomUUID(), listener: randomUUID(), service: randomUUID() };
const SESSIONS = { integrator: randomUUID(), listener: randomUUID() };

beforeAll(async () => {
  suiteDb = await openSuiteDatabase();
  database = suiteDb.database;
  db = database.db;
  await db.insert(users).values([INTEGRATOR, LISTENER]);
  await db.insert(apiKeys).values([key(KEYS.integrator, INTEGRATOR.id), key(KEYS.listener, LISTENER.id), key(KEYS.service, null)]);
  const expiresAt = new Date(Date.now() + 3600_000);
  await db.insert(authSessions).values([
    { id: SESSIONS.integrator, userId: INTEGRATOR.id, kind: 'platform', expiresAt, secondFactor: false },
    { id: SESSIONS.listener, userId: LISTENER.id, kind: 'platform', expiresAt, secondFactor: false },
  ]);
}, 120_000);

afterAll(async () => {
  await suiteDb?.close();
});

describe('DeveloperAccountsRepository as auth’s port', () => {
  const accounts = () => new DeveloperAccountsRepository(db);

  it('answers whether a user opened an account, on its own and as a subquery on a column of the caller', async () => {
    expect(await accounts().open(INTEGRATOR.id)).toMatchObject({ created: true });
    expect(await accounts().hasDeveloperAccount(INTEGRATOR.id)).toBe(true);
    expect(await accounts().hasDeveloperAccount(LISTENER.id)).toBe(false);
    const rows = await db.select({ id: apiKeys.id, developer: accounts().developerAccountOf(apiKeys.ownerUserId) }).from(apiKeys);
    // A key with no owner (the bootstrap service key) has no account: false, not null.
    expect(rows.sort((a, b) => a.id.localeCompare(b.id))).toEqual(
      [
        { id: KEYS.integrator, developer: true },
        { id: KEYS.listener, developer: false },
        { id: KEYS.service, developer: false },
      ].sort((a, b) => a.id.localeCompare(b.id)),
    );
  });

  it('is what auth’s key and session lookups read, in their one prepared statement', async () => {
    const keys = new ApiKeysRepository(db, accounts());
    expect(await keys.findApiKeyByHash(`hash-${KEYS.integrator}`)).toMatchObject({ id: KEYS.integrator, ownerRole: 'listener', ownerDeveloperAccount: true });
    expect(await keys.findApiKeyById(KEYS.listener)).toMatchObject({ id: KEYS.listener, ownerStatus: 'active', ownerDeveloperAccount: false });
    expect(await keys.findApiKeyById(KEYS.service)).toMatchObject({ ownerUserId: null, ownerRole: null, ownerDeveloperAccount: false });
    const sessions = new SessionsRepository(db, accounts());
    const now = Date.now();
    expect(await sessions.sessionState(SESSIONS.integrator, now)).toMatchObject({ userId: INTEGRATOR.id, developerAccount: true, valid: true });
    expect(await sessions.sessionState(SESSIONS.listener, now)).toMatchObject({ userId: LISTENER.id, developerAccount: false, valid: true });
  });
});

describe('UserDirectory.profileAccounts as the users group reads it', () => {
  const profiles = () => new UsersRepository(db, new AccountWrites(), new UserDirectory(db));

  it('is the account columns a profile shows, and nothing of the credentials', async () => {
    const accounts = new UserDirectory(db).profileAccounts();
    const [row] = await db.select().from(accounts).where(eq(accounts.id, LISTENER.id));
    expect(Object.keys(row!).sort()).toEqual(['createdAt', 'displayName', 'email', 'emailVerifiedAt', 'id', 'plan', 'role', 'status']);
    expect(row).toMatchObject({ id: LISTENER.id, email: LISTENER.email, role: 'listener', status: 'active', plan: 'free', emailVerifiedAt: null });
  });

  it('is joined by a profile in one read: the defaults without a profile row, its values with one', async () => {
    expect(await profiles().find(LISTENER.id)).toMatchObject({
      id: LISTENER.id,
      email: LISTENER.email,
      displayName: LISTENER.displayName,
      role: 'listener',
      plan: 'free',
      country: null,
      historyPublic: null,
    });
    await profiles().update(LISTENER.id, { displayName: 'Renamed', country: 'FR', historyPublic: true });
    expect(await profiles().find(LISTENER.id)).toMatchObject({
      id: LISTENER.id,
      displayName: 'Renamed',
      country: 'FR',
      historyPublic: true,
      playlistsPublic: true, // the column's default, once the row exists
    });
    // The integrator has no profile row: the other user's does not leak into their read.
    expect(await profiles().find(INTEGRATOR.id)).toMatchObject({ id: INTEGRATOR.id, displayName: INTEGRATOR.displayName, country: null });
    expect(await profiles().find(randomUUID())).toBeNull();
    expect(await profiles().find('not-a-uuid')).toBeNull();
  });
});
