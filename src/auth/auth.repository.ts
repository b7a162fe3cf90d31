/**
 * Data access for accounts: users (credentials, role, status, address, second factor), the identities of a
 * sign-in provider linked to them, and the single-use tokens mailed to them (password reset, address
 * verification). Login sessions and refresh tokens are in sessions.repository.ts, API keys in
 * api-keys.repository.ts.
 */
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../infra/db/client.js';
import { idEq } from '../infra/db/ids.js';
import { emailVerificationTokens, passwordResetTokens, userIdentities, users } from '../infra/db/schema/index.js';
import type { Role } from './scopes.js';
import { isUniqueViolation } from '../infra/db/errors.js';

export type UserRow = typeof users.$inferSelect;
export type UserStatus = UserRow['status'];

export class AuthRepository {
  constructor(readonly db: DbOrTx) {}

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
}
