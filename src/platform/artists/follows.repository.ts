/** artist_follows: who follows which artist. In the live environment artists.followers moves with the rows. */
import { and, count, eq, or, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../infra/db/client.js';
import { idEq } from '../../infra/db/ids.js';
import { artistFollows, artists } from '../../infra/db/schema/index.js';
import type { Environment } from '../../kernel/environment.js';

export interface ArtistRef {
  id: string;
  slug: string;
  name: string;
  ownerUserId: string | null;
  followers: number;
}

export class FollowsRepository {
  constructor(private readonly db: DbOrTx) {}

  /** An artist of the environment by slug or by id (the v2.1 rename: paths take the slug; the id is accepted too). */
  async findArtist(slugOrId: string, environment: Environment, db: DbOrTx = this.db): Promise<ArtistRef | null> {
    const [row] = await db
      .select({ id: artists.id, slug: artists.slug, name: artists.name, ownerUserId: artists.ownerUserId, followers: artists.followers })
      .from(artists)
      .where(and(eq(artists.environment, environment), or(eq(artists.slug, slugOrId), idEq(artists.id, slugOrId))))
      .limit(1);
    return row ?? null;
  }

  async isFollowing(userId: string, artistId: string, environment: Environment): Promise<boolean> {
    const [row] = await this.db
      .select({ userId: artistFollows.userId })
      .from(artistFollows)
      .where(and(eq(artistFollows.userId, userId), eq(artistFollows.artistId, artistId), eq(artistFollows.environment, environment)))
      .limit(1);
    return row !== undefined;
  }

  async countFollowing(userId: string, environment: Environment): Promise<number> {
    const [{ total }] = await this.db
      .select({ total: count() })
      .from(artistFollows)
      .where(and(eq(artistFollows.userId, userId), eq(artistFollows.environment, environment)));
    return total;
  }

  /**
   * Follows (true) or unfollows (false), idempotently, and answers the follower count after it. The row and the
   * live counter change in one transaction, and only when the row did change, so repeats never drift the count.
   * The sandbox counts its own rows and leaves the live counter alone.
   */
  async setFollow(userId: string, artistId: string, environment: Environment, follow: boolean): Promise<number> {
    return (this.db as Db).transaction(async (tx) => {
      const match = and(eq(artistFollows.userId, userId), eq(artistFollows.artistId, artistId), eq(artistFollows.environment, environment));
      const changed = follow
        ? await tx.insert(artistFollows).values({ userId, artistId, environment }).onConflictDoNothing().returning({ userId: artistFollows.userId })
        : await tx.delete(artistFollows).where(match).returning({ userId: artistFollows.userId });
      if (environment === 'live') {
        const delta = changed.length === 0 ? 0 : follow ? 1 : -1;
        const [row] = await tx
          .update(artists)
          .set({ followers: sql`greatest(${artists.followers} + ${delta}, 0)` })
          .where(eq(artists.id, artistId))
          .returning({ followers: artists.followers });
        return row.followers;
      }
      const [{ total }] = await tx
        .select({ total: count() })
        .from(artistFollows)
        .where(and(eq(artistFollows.artistId, artistId), eq(artistFollows.environment, environment)));
      return total;
    });
  }
}
