/** library_items: the tracks a user saved, per environment. */
import { and, count, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../infra/db/client.js';
import { idEq } from '../../infra/db/ids.js';
import { artists, libraryItems, tracks } from '../../infra/db/schema/index.js';
import { trackRefColumns, type TrackRefRow } from '../shared/track-ref.js';
import type { Environment } from '../../kernel/environment.js';


export class LibraryRepository {
  constructor(private readonly db: DbOrTx) {}

  async list(userId: string, environment: Environment, limit: number, offset: number): Promise<{ rows: (TrackRefRow & { savedAt: Date })[]; total: number }> {
    const where = and(eq(libraryItems.userId, userId), eq(libraryItems.environment, environment));
    const [rows, [{ total }]] = await Promise.all([
      this.db
        .select({ ...trackRefColumns, savedAt: libraryItems.savedAt })
        .from(libraryItems)
        .innerJoin(tracks, eq(tracks.id, libraryItems.trackId))
        .innerJoin(artists, eq(artists.id, tracks.artistId))
        .where(where)
        .orderBy(desc(libraryItems.savedAt), desc(libraryItems.trackId))
        .limit(limit)
        .offset(offset),
      this.db.select({ total: count() }).from(libraryItems).where(where),
    ]);
    return { rows, total };
  }

  /** A track of the environment: a library never holds a track of the other one. */
  async findTrack(trackId: string, environment: Environment): Promise<TrackRefRow | null> {
    const [row] = await this.db
      .select(trackRefColumns)
      .from(tracks)
      .innerJoin(artists, eq(artists.id, tracks.artistId))
      .where(and(idEq(tracks.id, trackId), eq(tracks.environment, environment)))
      .limit(1);
    return row ?? null;
  }

  /** Saves once: answers whether this call added it, and when it was saved. */
  async save(userId: string, environment: Environment, trackId: string): Promise<{ created: boolean; savedAt: Date }> {
    const [inserted] = await this.db
      .insert(libraryItems)
      .values({ userId, environment, trackId })
      .onConflictDoNothing()
      .returning({ savedAt: libraryItems.savedAt });
    if (inserted) return { created: true, savedAt: inserted.savedAt };
    const [existing] = await this.db
      .select({ savedAt: libraryItems.savedAt })
      .from(libraryItems)
      .where(and(eq(libraryItems.userId, userId), eq(libraryItems.environment, environment), eq(libraryItems.trackId, trackId)));
    return { created: false, savedAt: existing.savedAt };
  }

  async remove(userId: string, environment: Environment, trackId: string): Promise<boolean> {
    const removed = await this.db
      .delete(libraryItems)
      .where(and(eq(libraryItems.userId, userId), eq(libraryItems.environment, environment), idEq(libraryItems.trackId, trackId)))
      .returning({ trackId: libraryItems.trackId });
    return removed.length > 0;
  }
}
