/**
 * Data access of OAuth apps, grants and authorization codes. The apps' sessions and refresh tokens are auth's
 * rows, written through auth's port (`AppSessions`) in this repository's transactions where they must be
 * atomic with an app's or a grant's rows.
 */
import { and, count, desc, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../infra/db/client.js';
import { idEq } from '../../infra/db/ids.js';
import { oauthClients, oauthCodes, oauthGrants } from '../../infra/db/schema/index.js';
import type { AppSessions } from './app-sessions.js';

export type ClientRow = typeof oauthClients.$inferSelect;
export type CodeRow = typeof oauthCodes.$inferSelect;
export type GrantRow = typeof oauthGrants.$inferSelect;

/** What a redemption attempt found: a code now spent by it, a code spent before (a replay), or nothing usable. */
export type Redemption = { kind: 'spent'; code: CodeRow } | { kind: 'replayed'; sessionId: string | null } | { kind: 'unknown' };

export class OAuthRepository {
  constructor(
    private readonly db: Db,
    private readonly sessions: AppSessions,
  ) {}

  // ---- apps ----

  async insertClient(values: typeof oauthClients.$inferInsert): Promise<ClientRow> {
    const [row] = await this.db.insert(oauthClients).values(values).returning();
    return row;
  }

  async client(id: string): Promise<ClientRow | null> {
    const [row] = await this.db.select().from(oauthClients).where(idEq(oauthClients.id, id)).limit(1);
    return row ?? null;
  }

  async clientsOf(ownerUserId: string, limit: number, offset: number): Promise<{ rows: ClientRow[]; total: number }> {
    const where = eq(oauthClients.ownerUserId, ownerUserId);
    const [rows, [{ total }]] = await Promise.all([
      this.db.select().from(oauthClients).where(where).orderBy(desc(oauthClients.createdAt), desc(oauthClients.id)).limit(limit).offset(offset),
      this.db.select({ total: count() }).from(oauthClients).where(where),
    ]);
    return { rows, total };
  }

  /**
   * Deletes an app (`ownerUserId` null: any owner, for admins); its grants, codes and sessions go with it
   * (foreign keys). Answers the ids of the sessions that ended, so their caches can be dropped everywhere,
   * or null when nothing matched.
   */
  async deleteClient(id: string, ownerUserId: string | null): Promise<string[] | null> {
    return this.db.transaction(async (tx) => {
      const owned = and(idEq(oauthClients.id, id), ownerUserId === null ? undefined : eq(oauthClients.ownerUserId, ownerUserId));
      const [client] = await tx.select({ id: oauthClients.id }).from(oauthClients).where(owned).for('update');
      if (!client) return null;
      const sessions = await this.sessions.sessionIdsOfApp(client.id, tx);
      await tx.delete(oauthClients).where(eq(oauthClients.id, client.id));
      return sessions;
    });
  }

  // ---- grants ----

  /** Adds the approved scopes to the user's grant to the app (creating it). */
  async approve(userId: string, clientId: string, scopes: string[], now: Date): Promise<void> {
    await this.db
      .insert(oauthGrants)
      .values({ userId, clientId, scopes, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({
        target: [oauthGrants.userId, oauthGrants.clientId],
        set: {
          scopes: sql`ARRAY(SELECT DISTINCT unnest(${oauthGrants.scopes} || excluded.scopes) ORDER BY 1)`,
          updatedAt: now,
        },
      });
  }

  async grant(userId: string, clientId: string): Promise<GrantRow | null> {
    const [row] = await this.db
      .select()
      .from(oauthGrants)
      .where(and(eq(oauthGrants.userId, userId), idEq(oauthGrants.clientId, clientId)))
      .limit(1);
    return row ?? null;
  }

  async grantsOf(userId: string, limit: number, offset: number) {
    const where = eq(oauthGrants.userId, userId);
    const [rows, [{ total }]] = await Promise.all([
      this.db
        .select({ grant: oauthGrants, client: { id: oauthClients.id, name: oauthClients.name, type: oauthClients.type } })
        .from(oauthGrants)
        .innerJoin(oauthClients, eq(oauthClients.id, oauthGrants.clientId))
        .where(where)
        .orderBy(desc(oauthGrants.updatedAt), desc(oauthGrants.clientId))
        .limit(limit)
        .offset(offset),
      this.db.select({ total: count() }).from(oauthGrants).where(where),
    ]);
    return { rows, total };
  }

  /**
   * Revokes the user's grant to the app: the grant and unused codes go, and every session of the app for
   * the user is revoked, in one transaction. Answers the revoked session ids, or null when there was no grant.
   */
  async revokeGrant(userId: string, clientId: string): Promise<string[] | null> {
    return this.db.transaction(async (tx) => {
      const deleted = await tx
        .delete(oauthGrants)
        .where(and(eq(oauthGrants.userId, userId), idEq(oauthGrants.clientId, clientId)))
        .returning({ clientId: oauthGrants.clientId });
      if (deleted.length === 0) return null;
      await tx.delete(oauthCodes).where(and(eq(oauthCodes.userId, userId), eq(oauthCodes.clientId, deleted[0].clientId), isNull(oauthCodes.usedAt)));
      return this.sessions.revokeAppSessions(userId, deleted[0].clientId, 'app access revoked by the user', tx);
    });
  }

  // ---- codes ----

  /**
   * Stores a new code, and forgets the user's codes for this app that expired more than a day ago (kept that
   * long so that a late replay is still recognised and revokes what it gave).
   */
  async insertCode(values: typeof oauthCodes.$inferInsert & { createdAt: Date }): Promise<void> {
    const forgetBefore = new Date(values.createdAt.getTime() - 24 * 3600 * 1000);
    await this.db
      .delete(oauthCodes)
      .where(and(eq(oauthCodes.userId, values.userId), eq(oauthCodes.clientId, values.clientId), lt(oauthCodes.expiresAt, forgetBefore)));
    await this.db.insert(oauthCodes).values(values);
  }

  /** Spends a code by its first redemption attempt, in one statement: two concurrent attempts cannot both win. */
  async spendCode(codeHash: string, now: Date): Promise<Redemption> {
    const [spent] = await this.db
      .update(oauthCodes)
      .set({ usedAt: now })
      .where(and(eq(oauthCodes.codeHash, codeHash), isNull(oauthCodes.usedAt)))
      .returning();
    if (spent) return { kind: 'spent', code: spent };
    const [used] = await this.db.select({ sessionId: oauthCodes.sessionId }).from(oauthCodes).where(eq(oauthCodes.codeHash, codeHash)).limit(1);
    return used ? { kind: 'replayed', sessionId: used.sessionId } : { kind: 'unknown' };
  }

  /**
   * Opens the app's session for a redeemed code, with its first refresh token, if the app and the user's
   * grant still exist. The app's row and then the grant are locked first, so a concurrent deletion of either
   * waits and then ends this session too (or this finds them gone and opens nothing).
   */
  async openSession(code: CodeRow, refreshHash: string, expiresAt: Date): Promise<string | null> {
    return this.db.transaction(async (tx) => {
      const [client] = await tx.select({ id: oauthClients.id }).from(oauthClients).where(eq(oauthClients.id, code.clientId)).for('key share');
      if (!client) return null;
      const [grant] = await tx
        .select({ userId: oauthGrants.userId })
        .from(oauthGrants)
        .where(and(eq(oauthGrants.userId, code.userId), eq(oauthGrants.clientId, code.clientId)))
        .for('share');
      if (!grant) return null;
      const sessionId = await this.sessions.open({ userId: code.userId, clientId: code.clientId, scopes: code.scopes, refreshHash, expiresAt }, tx);
      await tx.update(oauthCodes).set({ sessionId }).where(eq(oauthCodes.codeHash, code.codeHash));
      return sessionId;
    });
  }
}
