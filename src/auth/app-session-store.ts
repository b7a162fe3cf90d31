/**
 * Auth's write port for the sessions of third-party apps (OAuth 2.0, src/platform/oauth): auth owns
 * `auth_sessions` and `refresh_tokens`, so the OAuth group opens, rotates, lists and revokes an app's
 * sessions through this store and writes neither table itself. The OAuth group declares the part it uses on
 * its side (`AppSessions`, src/platform/oauth/app-sessions.ts).
 *
 * The methods that must be atomic with the OAuth group's own rows take the handle they run in (`tx`): opening
 * a session for a redeemed code happens under the locks of the app's and the grant's rows, and revoking a
 * grant ends the app's sessions in the transaction that deletes the grant, so that a concurrent deletion
 * cannot leave a session open. The handle is required there, so that such a write cannot leave the
 * transaction by being forgotten. Rotation touches auth's tables alone and runs its own transaction.
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../infra/db/client.js';
import { authSessions, refreshTokens, users } from '../infra/db/schema/index.js';
import type { UserStatus } from './auth.repository.js';
import type { Role } from './scopes.js';

/** A refresh token with its session and the session's user, as the token endpoint checks it. */
export interface AppRefreshToken {
  id: string;
  sessionId: string;
  expiresAt: Date;
  rotatedAt: Date | null;
  sessionKind: (typeof authSessions.$inferSelect)['kind'];
  sessionRevokedAt: Date | null;
  sessionExpiresAt: Date;
  oauthClientId: string | null;
  scopes: string[] | null;
  userId: string;
  userStatus: UserStatus;
  role: Role;
}

/** What an app's new session carries: whom it acts for, the app, the approved scopes and its first refresh token. */
export interface AppSessionOpening {
  userId: string;
  clientId: string;
  scopes: string[];
  refreshHash: string;
  expiresAt: Date;
}

export class AppSessionStore {
  constructor(private readonly db: Db) {}

  /** The ids of every session of the app (revoked or not), read in `tx` before the app's row is deleted. */
  async sessionIdsOfApp(clientId: string, tx: DbOrTx): Promise<string[]> {
    const rows = await tx.select({ id: authSessions.id }).from(authSessions).where(eq(authSessions.oauthClientId, clientId));
    return rows.map((row) => row.id);
  }

  /** Revokes the user's open sessions of the app in `tx`; answers their ids. */
  async revokeAppSessions(userId: string, clientId: string, reason: string, tx: DbOrTx): Promise<string[]> {
    const rows = await tx
      .update(authSessions)
      .set({ revokedAt: sql`now()`, revokedReason: reason })
      .where(and(eq(authSessions.userId, userId), eq(authSessions.oauthClientId, clientId), isNull(authSessions.revokedAt)))
      .returning({ id: authSessions.id });
    return rows.map((row) => row.id);
  }

  /** Opens an 'oauth' session with its first refresh token in `tx`; answers the session's id. */
  async open(opening: AppSessionOpening, tx: DbOrTx): Promise<string> {
    const [session] = await tx
      .insert(authSessions)
      .values({
        userId: opening.userId,
        kind: 'oauth',
        expiresAt: opening.expiresAt,
        secondFactor: false,
        oauthClientId: opening.clientId,
        scopes: opening.scopes,
      })
      .returning({ id: authSessions.id });
    await tx.insert(refreshTokens).values({ sessionId: session.id, tokenHash: opening.refreshHash, expiresAt: opening.expiresAt });
    return session.id;
  }

  /** The account an app would act for: its role and whether it is active; null when there is none. */
  async account(userId: string): Promise<{ id: string; role: Role; status: UserStatus } | null> {
    const [row] = await this.db.select({ id: users.id, role: users.role, status: users.status }).from(users).where(eq(users.id, userId)).limit(1);
    return row ?? null;
  }

  async refreshToken(tokenHash: string): Promise<AppRefreshToken | null> {
    const [row] = await this.db
      .select({
        id: refreshTokens.id,
        sessionId: refreshTokens.sessionId,
        expiresAt: refreshTokens.expiresAt,
        rotatedAt: refreshTokens.rotatedAt,
        sessionKind: authSessions.kind,
        sessionRevokedAt: authSessions.revokedAt,
        sessionExpiresAt: authSessions.expiresAt,
        oauthClientId: authSessions.oauthClientId,
        scopes: authSessions.scopes,
        userId: users.id,
        userStatus: users.status,
        role: users.role,
      })
      .from(refreshTokens)
      .innerJoin(authSessions, eq(authSessions.id, refreshTokens.sessionId))
      .innerJoin(users, eq(users.id, authSessions.userId))
      .where(eq(refreshTokens.tokenHash, tokenHash))
      .limit(1);
    return row ?? null;
  }

  /**
   * Spends a refresh token and stores its successor (and, when the app asked for less, the session's
   * narrower scopes) in one transaction; false when the token was spent already (a replay, or a race).
   */
  async rotate(tokenId: string, sessionId: string, next: { hash: string; expiresAt: Date }, narrowedScopes: string[] | null): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const spent = await tx
        .update(refreshTokens)
        .set({ rotatedAt: sql`now()` })
        .where(and(eq(refreshTokens.id, tokenId), isNull(refreshTokens.rotatedAt)))
        .returning({ id: refreshTokens.id });
      if (spent.length === 0) return false;
      await tx.insert(refreshTokens).values({ sessionId, tokenHash: next.hash, expiresAt: next.expiresAt });
      if (narrowedScopes) await tx.update(authSessions).set({ scopes: narrowedScopes }).where(eq(authSessions.id, sessionId));
      return true;
    });
  }
}
