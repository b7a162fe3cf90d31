/** Artists: listed and filtered, found by slug or id, with what a profile shows about followers and songwriters. */
import { and, asc, count, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../infra/db/client.js';
import { idEq } from '../../infra/db/ids.js';
import { artistFollows, artists, songwriters } from '../../infra/db/schema/index.js';
import type { Environment } from '../../kernel/environment.js';

export type ArtistRow = typeof artists.$inferSelect;

export interface ArtistFilter {
  /** The caller's data space (live or the sandbox); an artist of the other one is never listed. */
  environment: Environment;
  search?: string;
  genre?: string;
  verified?: boolean;
}

/** `%text%` for ILIKE with the pattern characters of the text itself escaped. */
function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Auth's port (`AccountWrites`, src/auth/account-writes.ts): the user's row locked until `tx` ends (auth owns `users`). */
export interface AccountLock {
  lock(userId: string, tx: DbOrTx): Promise<void>;
}

export class ArtistsRepository {
  constructor(
    private readonly db: Db,
    private readonly accounts: AccountLock,
  ) {}

  async list(filter: ArtistFilter, limit: number, offset: number): Promise<{ rows: ArtistRow[]; total: number }> {
    const conditions: (SQL | undefined)[] = [eq(artists.environment, filter.environment)];
    if (filter.search) conditions.push(or(ilike(artists.name, containing(filter.search)), ilike(artists.bio, containing(filter.search))));
    if (filter.genre) conditions.push(sql`lower(${artists.genre}) = lower(${filter.genre})`);
    if (filter.verified !== undefined) conditions.push(eq(artists.verified, filter.verified));
    const where = and(...conditions);
    const [rows, [{ total }]] = await Promise.all([
      this.db.select().from(artists).where(where).orderBy(asc(artists.name), asc(artists.id)).limit(limit).offset(offset),
      this.db.select({ total: count() }).from(artists).where(where),
    ]);
    return { rows, total };
  }

  /**
   * An artist of the environment by slug or by id (the v2.1 rename: paths take the slug; the id is accepted too).
   * A slug names one artist per environment: the sandbox's copy of a demo artist has its live original's slug.
   */
  async find(slugOrId: string, environment: Environment, db: DbOrTx = this.db): Promise<ArtistRow | null> {
    const [row] = await db
      .select()
      .from(artists)
      .where(and(eq(artists.environment, environment), or(eq(artists.slug, slugOrId), idEq(artists.id, slugOrId))))
      .limit(1);
    return row ?? null;
  }

  /** The artist `ownerUserId` owns in `environment` (one profile per account), or null. */
  async findOwned(ownerUserId: string, environment: Environment): Promise<ArtistRow | null> {
    const [row] = await this.db
      .select()
      .from(artists)
      .where(and(eq(artists.ownerUserId, ownerUserId), eq(artists.environment, environment)))
      .orderBy(asc(artists.createdAt))
      .limit(1);
    return row ?? null;
  }

  /**
   * Followers as the caller's environment counts them: the live counter (artists.followers), or the sandbox's
   * own follow rows (src/platform/artists/follows.repository.ts keeps both).
   */
  async followers(artist: ArtistRow, environment: Environment): Promise<number> {
    if (environment === 'live') return artist.followers;
    const [{ total }] = await this.db
      .select({ total: count() })
      .from(artistFollows)
      .where(and(eq(artistFollows.artistId, artist.id), eq(artistFollows.environment, environment)));
    return total;
  }

  async isFollowing(userId: string, artistId: string, environment: Environment): Promise<boolean> {
    const [row] = await this.db
      .select({ userId: artistFollows.userId })
      .from(artistFollows)
      .where(and(eq(artistFollows.userId, userId), eq(artistFollows.artistId, artistId), eq(artistFollows.environment, environment)))
      .limit(1);
    return row !== undefined;
  }

  /** The songwriters who write for the artist. */
  songwritersOf(artistId: string): Promise<{ id: string; slug: string; name: string }[]> {
    return this.db
      .select({ id: songwriters.id, slug: songwriters.slug, name: songwriters.name })
      .from(songwriters)
      .where(eq(songwriters.artistId, artistId))
      .orderBy(asc(songwriters.name), asc(songwriters.id));
  }

  /**
   * Sets the verified flag, recording who and when (cleared on unverify). The row is locked first, so of two
   * concurrent verifications one changes it; `changed` says whether this call did. `onChange` runs in the same
   * transaction when the flag changes, so that what it records (artist.verified in the webhooks' outbox)
   * commits with the change; its answer is handed back.
   */
  async setVerified<T>(
    artistId: string,
    verified: boolean,
    by: string | null,
    at: Date,
    onChange: (tx: DbOrTx, row: ArtistRow) => Promise<T>,
  ): Promise<{ row: ArtistRow; changed: boolean; raised: T | null }> {
    return this.db.transaction(async (tx) => {
      const [current] = await tx.select().from(artists).where(eq(artists.id, artistId)).for('update');
      if (current.verified === verified) return { row: current, changed: false, raised: null };
      const [row] = await tx
        .update(artists)
        .set(verified ? { verified, verifiedBy: by, verifiedAt: at } : { verified, verifiedBy: null, verifiedAt: null })
        .where(eq(artists.id, artistId))
        .returning();
      return { row, changed: true, raised: await onChange(tx, row) };
    });
  }

  /**
   * A live artist owned by `ownerUserId`, made only if the user owns none yet ('exists' otherwise). The user's
   * row is locked first, so two concurrent creations by one account make one profile. The slug is the name's,
   * with a random suffix when another artist has it.
   */
  async createOwned(
    ownerUserId: string,
    input: { name: string; genre: string; bio: string; country: string | null; slug: string; fallbackSlug: string },
  ): Promise<ArtistRow | 'exists'> {
    return this.db.transaction(async (tx) => {
      await this.accounts.lock(ownerUserId, tx);
      const [owned] = await tx
        .select({ id: artists.id })
        .from(artists)
        .where(and(eq(artists.ownerUserId, ownerUserId), eq(artists.environment, 'live')))
        .limit(1);
      if (owned) return 'exists';
      const taken = await this.find(input.slug, 'live', tx);
      const [row] = await tx
        .insert(artists)
        .values({
          environment: 'live',
          slug: taken ? input.fallbackSlug : input.slug,
          name: input.name,
          genre: input.genre,
          bio: input.bio,
          country: input.country,
          ownerUserId,
        })
        .returning();
      return row;
    });
  }

  /** Changes an artist's name, genre, bio or country (its slug stays: links keep working). */
  async update(artistId: string, change: Partial<Pick<ArtistRow, 'name' | 'genre' | 'bio' | 'country'>>): Promise<ArtistRow> {
    const [row] = await this.db.update(artists).set(change).where(eq(artists.id, artistId)).returning();
    return row;
  }
}
