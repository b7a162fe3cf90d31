/** capsules and capsule_unlocks. */
import { and, count, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../infra/db/client.js';
import { idEq } from '../../infra/db/ids.js';
import { capsules, capsuleUnlocks } from '../../infra/db/schema/index.js';
import type { Environment } from '../../kernel/environment.js';
import type { ArtistRefTable, TrackRefRow } from '../catalog/display-reads.js';

export type UnlockRule = (typeof capsules.$inferSelect)['unlockRule'];
export type CapsuleRow = typeof capsules.$inferSelect & { artistSlug: string; artistName: string; artistOwnerUserId: string | null };

export interface CapsuleChange {
  title?: string;
  teaser?: string;
  contentText?: string | null;
  contentTrackId?: string | null;
  contentMediaUrl?: string | null;
  unlockRule?: UnlockRule;
  unlockProductId?: string | null;
}

/**
 * The catalog's read port (its module's `displayReads`, src/platform/catalog/display-reads.ts): a capsule's
 * artist, joined as a derived table so that a page of capsules stays one statement, the track a capsule hides,
 * and the artists a user may make capsules for.
 */
export interface CapsuleCatalog {
  artistRefs(): ArtistRefTable;
  trackRef(trackId: string, environment: Environment, options: { publishedOnly: boolean }): Promise<TrackRefRow | null>;
  artistIdsOwnedBy(userId: string, environment: Environment): Promise<string[]>;
}

/** A capsule with its artist's fields, from the catalog's joined table. */
function capsuleColumns(artist: ArtistRefTable) {
  return { capsule: capsules, artistSlug: artist.artistSlug, artistName: artist.artistName, artistOwnerUserId: artist.artistOwnerUserId };
}

/** The artists group's port (src/platform/artists/sandbox-twins.ts): a test key's owner's artists copied into the sandbox. */
export interface SandboxTwins {
  ensure(userId: string): Promise<void>;
}

type Joined = { capsule: typeof capsules.$inferSelect; artistSlug: string; artistName: string; artistOwnerUserId: string | null };
const flatten = (row: Joined): CapsuleRow => ({
  ...row.capsule,
  artistSlug: row.artistSlug,
  artistName: row.artistName,
  artistOwnerUserId: row.artistOwnerUserId,
});

export class CapsulesRepository {
  private readonly artists: ArtistRefTable;
  private readonly columns: ReturnType<typeof capsuleColumns>;

  constructor(
    private readonly db: DbOrTx,
    private readonly catalog: CapsuleCatalog,
    private readonly twins: SandboxTwins,
  ) {
    this.artists = catalog.artistRefs();
    this.columns = capsuleColumns(this.artists);
  }

  async create(
    input: CapsuleChange & { artistId: string; environment: Environment; title: string; teaser: string; createdBy: string | null },
  ): Promise<string> {
    const [row] = await this.db.insert(capsules).values(input).returning({ id: capsules.id });
    return row.id;
  }

  async update(id: string, change: CapsuleChange, now: Date): Promise<void> {
    await this.db
      .update(capsules)
      .set({ ...change, updatedAt: now })
      .where(eq(capsules.id, id));
  }

  async find(id: string, environment: Environment): Promise<CapsuleRow | null> {
    const [row] = await this.db
      .select(this.columns)
      .from(capsules)
      .innerJoin(this.artists, eq(this.artists.artistId, capsules.artistId))
      .where(and(idEq(capsules.id, id), eq(capsules.environment, environment)))
      .limit(1);
    return row ? flatten(row) : null;
  }

  async list(environment: Environment, artistId: string | null, limit: number, offset: number): Promise<{ rows: CapsuleRow[]; total: number }> {
    const conditions: SQL[] = [eq(capsules.environment, environment)];
    if (artistId) conditions.push(eq(capsules.artistId, artistId));
    const where = and(...conditions);
    const [rows, [{ total }]] = await Promise.all([
      this.db
        .select(this.columns)
        .from(capsules)
        .innerJoin(this.artists, eq(this.artists.artistId, capsules.artistId))
        .where(where)
        .orderBy(desc(capsules.createdAt), desc(capsules.id))
        .limit(limit)
        .offset(offset),
      this.db.select({ total: count() }).from(capsules).where(where),
    ]);
    return { rows: rows.map(flatten), total };
  }

  /** The capsules among `capsuleIds` that `userId` unlocked. */
  async unlockedAmong(userId: string, capsuleIds: string[]): Promise<Set<string>> {
    if (capsuleIds.length === 0) return new Set();
    const rows = await this.db
      .select({ capsuleId: capsuleUnlocks.capsuleId })
      .from(capsuleUnlocks)
      .where(and(eq(capsuleUnlocks.userId, userId), inArray(capsuleUnlocks.capsuleId, capsuleIds)));
    return new Set(rows.map((row) => row.capsuleId));
  }

  /**
   * Records the unlock once. `onUnlocked` runs in the same transaction when this call recorded it, so that what
   * it records (capsule.unlocked in the webhooks' outbox) commits with the unlock; its answer is handed back
   * (null when the capsule was unlocked already).
   */
  async unlock<T>(capsuleId: string, userId: string, at: Date, onUnlocked: (tx: DbOrTx) => Promise<T>): Promise<T | null> {
    return this.db.transaction(async (tx) => {
      const inserted = await tx
        .insert(capsuleUnlocks)
        .values({ capsuleId, userId, unlockedAt: at })
        .onConflictDoNothing()
        .returning({ userId: capsuleUnlocks.userId });
      return inserted.length > 0 ? onUnlocked(tx) : null;
    });
  }

  /** A track of the capsule's environment (a sandbox capsule hides a sandbox track, a live one a live track). */
  findTrack(trackId: string, environment: Environment, publishedOnly: boolean): Promise<TrackRefRow | null> {
    return this.catalog.trackRef(trackId, environment, { publishedOnly });
  }

  ensureSandboxTwins(userId: string): Promise<void> {
    return this.twins.ensure(userId);
  }

  artistsOwnedBy(userId: string, environment: Environment): Promise<string[]> {
    return this.catalog.artistIdsOwnedBy(userId, environment);
  }
}
