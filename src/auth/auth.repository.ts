/** Data access for users, login sessions, refresh tokens and API keys. */
import { and, count, desc, eq, isNull, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../infra/db/client.js';
import { idEq, isUuid } from '../infra/db/ids.js';
import {
  apiKeys,
  authSessions,
  developerAccounts,
  emailVerificationTokens,
  passwordResetTokens,
  refreshTokens,
  userIdentities,
  users,
} from '../infra/db/schema/index.js';
import type { SessionState } from './auth-events.js';
import type { Role } from './scopes.js';
import type { Environment } from '../kernel/environment.js';
import { isUniqueViolation } from '../infra/db/errors.js';

export type UserRow = typeof users.$inferSelect;
export type ApiKeyRow = typeof apiKeys.$inferSelect;
export type UserStatus = UserRow['status'];
/**
 * An API key as authentication needs it, with its owner's status and role: a banned owner's keys stop working
 * with the rest of their access. Only the columns a request's principal is built from (a narrower row for
 * the lookup every API-key request runs); listings read whole rows.
 */
export type ApiKeyWithOwner = Pick<ApiKeyRow, 'id' | 'keyHash' | 'scopes' | 'environment' | 'ownerUserId' | 'revokedAt'> & {
  ownerStatus: UserStatus | null;
  ownerRole: Role | null;
  ownerDeveloperAccount: boolean;
};

/** The auth lookups that run per request (API keys) or per session-cache miss, built once per repository. */
function authLookups(db: DbOrTx) {
  const keyColumns = {
    id: apiKeys.id,
    keyHash: apiKeys.keyHash,
    scopes: apiKeys.scopes,
    environment: apiKeys.environment,
    ownerUserId: apiKeys.ownerUserId,
    revokedAt: apiKeys.revokedAt,
    ownerStatus: users.status,
    ownerRole: users.role,
    ownerDeveloperAccount: developerAccounts.userId,
  };
  const keyQuery = (condition: SQL) =>
    db
      .select(keyColumns)
      .from(apiKeys)
      .leftJoin(users, eq(users.id, apiKeys.ownerUserId))
      .leftJoin(developerAccounts, eq(developerAccounts.userId, apiKeys.ownerUserId))
      .where(condition)
      .limit(1);
  return {
    // Named statements: on node-postgres each connection parses and plans them once, not on every request.
    apiKeyByHash: keyQuery(eq(apiKeys.keyHash, sql.placeholder('keyHash'))).prepare('auth_api_key_by_hash'),
    apiKeyById: keyQuery(eq(apiKeys.id, sql.placeholder('id'))).prepare('auth_api_key_by_id'),
    sessionState: db
      .select({
        revokedAt: authSessions.revokedAt,
        expiresAt: authSessions.expiresAt,
        secondFactor: authSessions.secondFactor,
        oauthClientId: authSessions.oauthClientId,
        scopes: authSessions.scopes,
        userId: users.id,
        userStatus: users.status,
        role: users.role,
        developerAccount: developerAccounts.userId,
      })
      .from(authSessions)
      .innerJoin(users, eq(users.id, authSessions.userId))
      .leftJoin(developerAccounts, eq(developerAccounts.userId, authSessions.userId))
      .where(eq(authSessions.id, sql.placeholder('sessionId')))
      .limit(1)
      .prepare('auth_session_state'),
  };
}

export class AuthRepository {
  private lookups: ReturnType<typeof authLookups> | null = null;

  constructor(readonly db: DbOrTx) {}

  /** Built on first use: a repository made for one transaction (`with`) usually never needs them. */
  private get prepared(): ReturnType<typeof authLookups> {
    return (this.lookups ??= authLookups(this.db));
  }

  with(tx: DbOrTx): AuthRepository {
    return new AuthRepository(tx);
  }

  /**
   * Runs `work` in one transaction with a repository bound to it and the transaction's handle, for another
   * module's port that writes in it (user.signup in the webhooks' outbox, with the account's insert).
   */
  transaction<T>(work: (repo: AuthRepository, tx: DbOrTx) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(new AuthRepository(tx), tx));
  }

  async findUserByEmail(email: string): Promise<UserRow | null> {
    const [row] = await this.db.select().from(users).where(eq(users.email, email.toLowerCase())).limit(1);
    return row ?? null;
  }

  async findUserById(id: string): Promise<UserRow | null> {
    const [row] = await this.db.select().from(users).where(idEq(users.id, id)).limit(1);
    return row ?? null;
  }

  /** Null when the e-mail is taken (the unique index decides, so concurrent sign-ups cannot both win). */
  async insertUser(input: {
    /** Given when a value sealed for this user (its TOTP secret) must be bound to the id before the insert. */
    id?: string;
    email: string;
    passwordHash: string;
    role: Role;
    displayName: string;
    totpSecret?: string | null;
    /** When the address counts as proven (operator-made accounts, a provider's verified claim); null: not yet. */
    emailVerifiedAt?: Date | null;
  }): Promise<UserRow | null> {
    const [row] = await this.db
      .insert(users)
      .values({ ...input, email: input.email.toLowerCase() })
      .onConflictDoNothing({ target: users.email })
      .returning();
    return row ?? null;
  }

  /** Records a TOTP step as used; false when that step (or a later one) was used already. Atomic. */
  async claimTotpStep(userId: string, step: number): Promise<boolean> {
    const rows = await this.db
      .update(users)
      .set({ totpLastStep: step })
      .where(and(eq(users.id, userId), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
      .returning({ id: users.id });
    return rows.length === 1;
  }

  /** Sets role and/or status; null when there is no such user. */
  async updateUser(id: string, change: { role?: Role; status?: UserStatus }): Promise<UserRow | null> {
    const [row] = await this.db
      .update(users)
      .set({ ...change, updatedAt: sql`now()` })
      .where(idEq(users.id, id))
      .returning();
    return row ?? null;
  }

  /**
   * Sets a role unless that would leave no active super_admin: the active super_admins are locked first, so
   * two super_admins demoting each other at once cannot both win. 'last_super_admin' when refused, null
   * when there is no such user.
   */
  async changeRole(id: string, role: Role): Promise<UserRow | null | 'last_super_admin'> {
    return this.db.transaction(async (tx) => {
      const supers = await tx
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.role, 'super_admin'), eq(users.status, 'active')))
        .for('update');
      if (role !== 'super_admin' && supers.length === 1 && supers[0]!.id === id) return 'last_super_admin';
      const [row] = await tx
        .update(users)
        .set({ role, updatedAt: sql`now()` })
        .where(idEq(users.id, id))
        .returning();
      return row ?? null;
    });
  }

  /** Users whose TOTP secret is still in clear (an older version's); the partial index makes this free. */
  async usersWithClearTotpSecret(limit: number): Promise<{ id: string; totpSecret: string }[]> {
    const rows = await this.db
      .select({ id: users.id, totpSecret: users.totpSecret })
      .from(users)
      .where(sql`${users.totpSecret} IS NOT NULL AND ${users.totpSecret} NOT LIKE 'v1.%'`)
      .limit(limit);
    return rows.filter((row): row is { id: string; totpSecret: string } => row.totpSecret !== null);
  }

  /** Replaces a TOTP secret only if it is still `current` (another instance may be sealing it too). */
  async replaceTotpSecret(userId: string, current: string | null, replacement: string): Promise<void> {
    await this.db
      .update(users)
      .set({ totpSecret: replacement })
      .where(and(eq(users.id, userId), current === null ? isNull(users.totpSecret) : eq(users.totpSecret, current)));
  }

  /** Stores an unconfirmed TOTP secret (sealed), replacing any earlier unconfirmed one. */
  async setPendingTotpSecret(userId: string, sealed: string): Promise<void> {
    await this.db
      .update(users)
      .set({ totpPendingSecret: sealed, updatedAt: sql`now()` })
      .where(eq(users.id, userId));
  }

  /**
   * Makes the pending secret the account's second factor, with `step` (the confirming code's) as used; false
   * when the pending secret changed meanwhile (a concurrent enrolment), so a code only confirms its own secret.
   */
  async confirmPendingTotpSecret(userId: string, pending: string, step: number): Promise<boolean> {
    const rows = await this.db
      .update(users)
      .set({ totpSecret: pending, totpPendingSecret: null, totpLastStep: step, updatedAt: sql`now()` })
      .where(and(eq(users.id, userId), eq(users.totpPendingSecret, pending)))
      .returning({ id: users.id });
    return rows.length === 1;
  }

  /** Removes both the confirmed and the pending TOTP secret (an administrator's reset); false for an unknown user. */
  async clearTotpSecrets(userId: string): Promise<boolean> {
    const rows = await this.db
      .update(users)
      .set({ totpSecret: null, totpPendingSecret: null, totpLastStep: null, updatedAt: sql`now()` })
      .where(idEq(users.id, userId))
      .returning({ id: users.id });
    return rows.length === 1;
  }

  /** The user an OpenID Connect identity (issuer, subject) is linked to. */
  async findUserByIdentity(issuer: string, subject: string): Promise<UserRow | null> {
    const [row] = await this.db
      .select({ user: users })
      .from(userIdentities)
      .innerJoin(users, eq(users.id, userIdentities.userId))
      .where(and(eq(userIdentities.issuer, issuer), eq(userIdentities.subject, subject)))
      .limit(1);
    return row?.user ?? null;
  }

  /** Links an identity to a user; false when the identity is linked already (to anyone). */
  async linkIdentity(issuer: string, subject: string, userId: string): Promise<boolean> {
    const rows = await this.db.insert(userIdentities).values({ issuer, subject, userId }).onConflictDoNothing().returning({ userId: userIdentities.userId });
    return rows.length === 1;
  }

  async insertResetToken(userId: string, tokenHash: string, createdAt: Date, expiresAt: Date): Promise<void> {
    await this.db.insert(passwordResetTokens).values({ userId, tokenHash, createdAt, expiresAt });
  }

  /**
   * Spends a reset token: marks it used if it is unused and unexpired, in one statement (two concurrent
   * uses cannot both win); returns its user, or null.
   */
  async spendResetToken(tokenHash: string, now: Date): Promise<string | null> {
    const [row] = await this.db
      .update(passwordResetTokens)
      .set({ usedAt: now })
      .where(and(eq(passwordResetTokens.tokenHash, tokenHash), isNull(passwordResetTokens.usedAt), sql`${passwordResetTokens.expiresAt} > ${now}`))
      .returning({ userId: passwordResetTokens.userId });
    return row?.userId ?? null;
  }

  /** Every other outstanding link of the user dies with a successful reset. */
  async spendUserResetTokens(userId: string, now: Date): Promise<void> {
    await this.db
      .update(passwordResetTokens)
      .set({ usedAt: now })
      .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)));
  }

  async insertVerificationToken(input: { userId: string; email: string; tokenHash: string; createdAt: Date; expiresAt: Date }): Promise<void> {
    await this.db.insert(emailVerificationTokens).values(input);
  }

  /** Spends a verification token if it is unused and unexpired, in one statement; returns its user and address, or null. */
  async spendVerificationToken(tokenHash: string, now: Date): Promise<{ userId: string; email: string } | null> {
    const [row] = await this.db
      .update(emailVerificationTokens)
      .set({ usedAt: now })
      .where(and(eq(emailVerificationTokens.tokenHash, tokenHash), isNull(emailVerificationTokens.usedAt), sql`${emailVerificationTokens.expiresAt} > ${now}`))
      .returning({ userId: emailVerificationTokens.userId, email: emailVerificationTokens.email });
    return row ?? null;
  }

  /** Every outstanding verification link of the user dies (the address was verified or changed). */
  async spendUserVerificationTokens(userId: string, now: Date): Promise<void> {
    await this.db
      .update(emailVerificationTokens)
      .set({ usedAt: now })
      .where(and(eq(emailVerificationTokens.userId, userId), isNull(emailVerificationTokens.usedAt)));
  }

  /** Marks the address verified if it is still `email` (a link proves the address it was mailed to); false otherwise. */
  async markEmailVerified(userId: string, email: string, at: Date): Promise<boolean> {
    const rows = await this.db
      .update(users)
      .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, ${at})`, updatedAt: sql`now()` })
      .where(and(eq(users.id, userId), eq(users.email, email.toLowerCase())))
      .returning({ id: users.id });
    return rows.length === 1;
  }

  /** A new address, not verified; null when another account has it (the unique index decides). */
  async changeEmail(userId: string, email: string): Promise<UserRow | null> {
    try {
      const [row] = await this.db
        .update(users)
        .set({ email: email.toLowerCase(), emailVerifiedAt: null, updatedAt: sql`now()` })
        .where(eq(users.id, userId))
        .returning();
      return row ?? null;
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }

  async setPasswordHash(userId: string, passwordHash: string): Promise<void> {
    await this.db
      .update(users)
      .set({ passwordHash, updatedAt: sql`now()` })
      .where(eq(users.id, userId));
  }

  async insertSession(userId: string, kind: 'staff' | 'platform', expiresAt: Date, secondFactor: boolean): Promise<string> {
    const [row] = await this.db.insert(authSessions).values({ userId, kind, expiresAt, secondFactor }).returning({ id: authSessions.id });
    return row.id;
  }

  /** The session and its user as they are now; null when no such session exists. */
  async sessionState(sessionId: string, nowMs: number): Promise<SessionState | null> {
    // Text that is not a uuid names no session (idEq's rule; the placeholder is typed uuid by the column).
    if (!isUuid(sessionId)) return null;
    const [row] = await this.prepared.sessionState.execute({ sessionId });
    if (!row) return null;
    return {
      userId: row.userId,
      role: row.role,
      secondFactor: row.secondFactor,
      oauthClientId: row.oauthClientId,
      scopes: row.scopes,
      developerAccount: row.developerAccount !== null,
      valid: !row.revokedAt && row.userStatus === 'active' && row.expiresAt.getTime() > nowMs,
    };
  }

  async revokeSession(sessionId: string, reason: string): Promise<void> {
    await this.db
      .update(authSessions)
      .set({ revokedAt: sql`now()`, revokedReason: reason })
      .where(and(idEq(authSessions.id, sessionId), isNull(authSessions.revokedAt)));
  }

  /** Revokes every open session of a user, but `keepSessionId` when given; returns their ids. */
  async revokeUserSessions(userId: string, reason: string, keepSessionId?: string): Promise<string[]> {
    const rows = await this.db
      .update(authSessions)
      .set({ revokedAt: sql`now()`, revokedReason: reason })
      .where(and(eq(authSessions.userId, userId), isNull(authSessions.revokedAt), keepSessionId === undefined ? undefined : ne(authSessions.id, keepSessionId)))
      .returning({ id: authSessions.id });
    return rows.map((row) => row.id);
  }

  async insertRefreshToken(sessionId: string, tokenHash: string, expiresAt: Date): Promise<void> {
    await this.db.insert(refreshTokens).values({ sessionId, tokenHash, expiresAt });
  }

  async findRefreshToken(tokenHash: string) {
    const [row] = await this.db
      .select({
        id: refreshTokens.id,
        sessionId: refreshTokens.sessionId,
        expiresAt: refreshTokens.expiresAt,
        rotatedAt: refreshTokens.rotatedAt,
        sessionKind: authSessions.kind,
        sessionRevokedAt: authSessions.revokedAt,
        userId: authSessions.userId,
      })
      .from(refreshTokens)
      .innerJoin(authSessions, eq(authSessions.id, refreshTokens.sessionId))
      .where(eq(refreshTokens.tokenHash, tokenHash))
      .limit(1);
    return row ?? null;
  }

  /** Marks a refresh token used; false when it already was (a concurrent or replayed use). */
  async markRotated(tokenId: string): Promise<boolean> {
    const rows = await this.db
      .update(refreshTokens)
      .set({ rotatedAt: sql`now()` })
      .where(and(eq(refreshTokens.id, tokenId), isNull(refreshTokens.rotatedAt)))
      .returning({ id: refreshTokens.id });
    return rows.length === 1;
  }

  async insertApiKey(input: {
    name: string;
    keyHash: string;
    keyPrefix: string;
    scopes: string[];
    environment: Environment;
    ownerUserId: string | null;
  }): Promise<ApiKeyRow | null> {
    const [row] = await this.db.insert(apiKeys).values(input).onConflictDoNothing({ target: apiKeys.keyHash }).returning();
    return row ?? null;
  }

  /**
   * Inserts a key of `input.ownerUserId` unless that owner already holds `maxActive` unrevoked keys (either
   * environment): 'limit' then. The owner's user row is locked for the count, so two creations racing on
   * any instance cannot both take the last place. Null when the key's hash is already registered.
   */
  async insertApiKeyWithinLimit(
    input: { name: string; keyHash: string; keyPrefix: string; scopes: string[]; environment: Environment; ownerUserId: string },
    maxActive: number,
  ): Promise<ApiKeyRow | 'limit' | null> {
    return this.db.transaction(async (tx) => {
      await tx.select({ id: users.id }).from(users).where(eq(users.id, input.ownerUserId)).for('update');
      const [{ active }] = await tx
        .select({ active: count() })
        .from(apiKeys)
        .where(and(eq(apiKeys.ownerUserId, input.ownerUserId), isNull(apiKeys.revokedAt)));
      if (active >= maxActive) return 'limit';
      const [row] = await tx.insert(apiKeys).values(input).onConflictDoNothing({ target: apiKeys.keyHash }).returning();
      return row ?? null;
    });
  }

  async findApiKeyByHash(keyHash: string): Promise<ApiKeyWithOwner | null> {
    const [row] = await this.prepared.apiKeyByHash.execute({ keyHash });
    return row ? withOwner(row) : null;
  }

  async findApiKeyById(id: string): Promise<ApiKeyWithOwner | null> {
    if (!isUuid(id)) return null;
    const [row] = await this.prepared.apiKeyById.execute({ id });
    return row ? withOwner(row) : null;
  }

  /** A user's keys that are not revoked, newest first. */
  async listApiKeys(ownerUserId: string, page: { limit: number; offset: number }): Promise<{ rows: ApiKeyRow[]; total: number }> {
    const where = and(eq(apiKeys.ownerUserId, ownerUserId), isNull(apiKeys.revokedAt));
    const [rows, [{ total }]] = await Promise.all([
      this.db.select().from(apiKeys).where(where).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id)).limit(page.limit).offset(page.offset),
      this.db.select({ total: count() }).from(apiKeys).where(where),
    ]);
    return { rows, total };
  }

  /** Revokes a key that is not revoked yet; `ownerUserId` null means any owner (admins). False when nothing matched. */
  async revokeApiKey(id: string, ownerUserId: string | null): Promise<boolean> {
    const rows = await this.db
      .update(apiKeys)
      .set({ revokedAt: sql`now()` })
      .where(and(idEq(apiKeys.id, id), isNull(apiKeys.revokedAt), ownerUserId === null ? undefined : eq(apiKeys.ownerUserId, ownerUserId)))
      .returning({ id: apiKeys.id });
    return rows.length === 1;
  }
}

function withOwner<T extends { ownerDeveloperAccount: string | null }>(row: T): Omit<T, 'ownerDeveloperAccount'> & { ownerDeveloperAccount: boolean } {
  return { ...row, ownerDeveloperAccount: row.ownerDeveloperAccount !== null };
}
