/**
 * Data access for login sessions and their refresh tokens (rotation with reuse detection is AuthService's), and
 * the state of a session as a request's principal is built from it. Sessions of OAuth apps are written by
 * AppSessionStore (app-session-store.ts) and read here like any other.
 */
import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../infra/db/client.js';
import { idEq, isUuid } from '../infra/db/ids.js';
import { authSessions, refreshTokens, users } from '../infra/db/schema/index.js';
import type { SessionState } from './auth-events.js';
import type { DeveloperAccountFlag } from './developer-account-reads.js';

/**
 * The lookup that runs on each session-cache miss, built once per repository. Whether the user opened a developer
 * account is the developer group's table, read through its port as a subquery, so the lookup stays one statement.
 */
function sessionLookup(db: DbOrTx, developerAccounts: DeveloperAccountFlag) {
  return (
    db
      .select({
        revokedAt: authSessions.revokedAt,
        expiresAt: authSessions.expiresAt,
        secondFactor: authSessions.secondFactor,
        oauthClientId: authSessions.oauthClientId,
        scopes: authSessions.scopes,
        userId: users.id,
        userStatus: users.status,
        role: users.role,
        developerAccount: developerAccounts.developerAccountOf(authSessions.userId),
      })
      .from(authSessions)
      .innerJoin(users, eq(users.id, authSessions.userId))
      .where(eq(authSessions.id, sql.placeholder('sessionId')))
      .limit(1)
      // A named statement: on node-postgres each connection parses and plans it once, not on every miss.
      .prepare('auth_session_state')
  );
}

export class SessionsRepository {
  private lookup: ReturnType<typeof sessionLookup> | null = null;

  constructor(
    private readonly db: DbOrTx,
    /** The developer group's port (src/platform/developer), given by the composition root. */
    private readonly developerAccounts: DeveloperAccountFlag,
  ) {}

  /** Built on first use. */
  private get prepared(): ReturnType<typeof sessionLookup> {
    return (this.lookup ??= sessionLookup(this.db, this.developerAccounts));
  }

  async insertSession(userId: string, kind: 'staff' | 'platform', expiresAt: Date, secondFactor: boolean): Promise<string> {
    const [row] = await this.db.insert(authSessions).values({ userId, kind, expiresAt, secondFactor }).returning({ id: authSessions.id });
    return row.id;
  }

  /** The session and its user as they are now; null when no such session exists. */
  async sessionState(sessionId: string, nowMs: number): Promise<SessionState | null> {
    // Text that is not a uuid names no session (idEq's rule; the placeholder is typed uuid by the column).
    if (!isUuid(sessionId)) return null;
    const [row] = await this.prepared.execute({ sessionId });
    if (!row) return null;
    return {
      userId: row.userId,
      role: row.role,
      secondFactor: row.secondFactor,
      oauthClientId: row.oauthClientId,
      scopes: row.scopes,
      developerAccount: row.developerAccount,
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
}
