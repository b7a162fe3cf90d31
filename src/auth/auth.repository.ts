/** Data access for users, login sessions, refresh tokens and API keys. */
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../infra/db/client.js';
import { apiKeys, authSessions, refreshTokens, users } from '../infra/db/schema/index.js';
import type { Role } from './scopes.js';

export type UserRow = typeof users.$inferSelect;
export type ApiKeyRow = typeof apiKeys.$inferSelect;

export class AuthRepository {
  constructor(private readonly db: DbOrTx) {}

  with(tx: DbOrTx): AuthRepository {
    return new AuthRepository(tx);
  }

  async findUserByEmail(email: string): Promise<UserRow | null> {
    const [row] = await this.db.select().from(users).where(eq(users.email, email.toLowerCase())).limit(1);
    return row ?? null;
  }

  async findUserById(id: string): Promise<UserRow | null> {
    const [row] = await this.db.select().from(users).where(eq(users.id, id)).limit(1);
    return row ?? null;
  }

  /** Null when the e-mail is taken (the unique index decides, so concurrent sign-ups cannot both win). */
  async insertUser(input: {
    email: string;
    passwordHash: string;
    role: Role;
    displayName: string;
    totpSecret?: string | null;
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

  async insertSession(userId: string, kind: 'staff' | 'platform', expiresAt: Date): Promise<string> {
    const [row] = await this.db.insert(authSessions).values({ userId, kind, expiresAt }).returning({ id: authSessions.id });
    return row.id;
  }

  async sessionState(sessionId: string) {
    const [row] = await this.db
      .select({
        revokedAt: authSessions.revokedAt,
        expiresAt: authSessions.expiresAt,
        userStatus: users.status,
        role: users.role,
      })
      .from(authSessions)
      .innerJoin(users, eq(users.id, authSessions.userId))
      .where(eq(authSessions.id, sessionId))
      .limit(1);
    return row ?? null;
  }

  async revokeSession(sessionId: string, reason: string): Promise<void> {
    await this.db
      .update(authSessions)
      .set({ revokedAt: sql`now()`, revokedReason: reason })
      .where(and(eq(authSessions.id, sessionId), isNull(authSessions.revokedAt)));
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
    environment: 'live' | 'test';
    ownerUserId: string | null;
  }): Promise<ApiKeyRow | null> {
    const [row] = await this.db.insert(apiKeys).values(input).onConflictDoNothing({ target: apiKeys.keyHash }).returning();
    return row ?? null;
  }

  async findApiKeyByHash(keyHash: string): Promise<ApiKeyRow | null> {
    const [row] = await this.db.select().from(apiKeys).where(eq(apiKeys.keyHash, keyHash)).limit(1);
    return row ?? null;
  }
}
