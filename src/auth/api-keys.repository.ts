/**
 * Data access for API keys: the bootstrap service key, developer keys and the keys seeding makes, and the lookup
 * of a presented key (by its hash, or by its id for a JWT exchanged for it) that every API-key request runs.
 * `last_used_at` is written by KeyUsage (key-usage.ts).
 */
import { and, arrayOverlaps, count, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../infra/db/client.js';
import { idEq, isUuid } from '../infra/db/ids.js';
import { apiKeys, users } from '../infra/db/schema/index.js';
import type { UserStatus } from './auth.repository.js';
import type { DeveloperAccountFlag } from './developer-account-reads.js';
import type { Role } from './scopes.js';
import type { Environment } from '../kernel/environment.js';

export type ApiKeyRow = typeof apiKeys.$inferSelect;
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

/**
 * The lookups that run on every API-key request, built once per repository. Whether the owner opened a developer
 * account is the developer group's table, read through its port as a subquery, so each lookup stays one statement.
 */
function keyLookups(db: DbOrTx, developerAccounts: DeveloperAccountFlag) {
  const keyColumns = {
    id: apiKeys.id,
    keyHash: apiKeys.keyHash,
    scopes: apiKeys.scopes,
    environment: apiKeys.environment,
    ownerUserId: apiKeys.ownerUserId,
    revokedAt: apiKeys.revokedAt,
    ownerStatus: users.status,
    ownerRole: users.role,
    ownerDeveloperAccount: developerAccounts.developerAccountOf(apiKeys.ownerUserId),
  };
  const keyQuery = (condition: SQL) => db.select(keyColumns).from(apiKeys).leftJoin(users, eq(users.id, apiKeys.ownerUserId)).where(condition).limit(1);
  return {
    // Named statements: on node-postgres each connection parses and plans them once, not on every request.
    byHash: keyQuery(eq(apiKeys.keyHash, sql.placeholder('keyHash'))).prepare('auth_api_key_by_hash'),
    byId: keyQuery(eq(apiKeys.id, sql.placeholder('id'))).prepare('auth_api_key_by_id'),
  };
}

export class ApiKeysRepository {
  private lookups: ReturnType<typeof keyLookups> | null = null;

  constructor(
    readonly db: DbOrTx,
    /** The developer group's port (src/platform/developer), given by the composition root. */
    private readonly developerAccounts: DeveloperAccountFlag,
  ) {}

  /** Built on first use. */
  private get prepared(): ReturnType<typeof keyLookups> {
    return (this.lookups ??= keyLookups(this.db, this.developerAccounts));
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
    const [row] = await this.prepared.byHash.execute({ keyHash });
    return row ?? null;
  }

  async findApiKeyById(id: string): Promise<ApiKeyWithOwner | null> {
    if (!isUuid(id)) return null;
    const [row] = await this.prepared.byId.execute({ id });
    return row ?? null;
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

  /** Revokes the owner's unrevoked keys that hold any of `scopes`; answers their ids. */
  async revokeKeysHoldingAny(ownerUserId: string, scopes: readonly string[]): Promise<string[]> {
    if (scopes.length === 0) return [];
    const rows = await this.db
      .update(apiKeys)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(apiKeys.ownerUserId, ownerUserId), isNull(apiKeys.revokedAt), arrayOverlaps(apiKeys.scopes, [...scopes])))
      .returning({ id: apiKeys.id });
    return rows.map((row) => row.id);
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
