/** Reads behind listener profiles: play history (play_events) and counts. */
import { and, count, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../infra/db/client.js';
import { artists, playEvents, tracks } from '../../infra/db/schema/index.js';
import { trackRefColumns, type TrackRefRow } from '../shared/track-ref.js';

export interface HistoryRow extends TrackRefRow {
  playedAt: Date;
  source: 'radio' | 'on_demand';
  secondsPlayed: number | null;
}

export class ListenersRepository {
  constructor(private readonly db: DbOrTx) {}

  async history(userId: string, limit: number, offset: number): Promise<{ rows: HistoryRow[]; total: number }> {
    const where = eq(playEvents.userId, userId);
    const [rows, [{ total }]] = await Promise.all([
      this.db
        .select({ ...trackRefColumns, playedAt: playEvents.playedAt, source: playEvents.source, secondsPlayed: playEvents.secondsPlayed })
        .from(playEvents)
        .innerJoin(tracks, eq(tracks.id, playEvents.trackId))
        .innerJoin(artists, eq(artists.id, tracks.artistId))
        .where(where)
        .orderBy(desc(playEvents.playedAt), desc(playEvents.id))
        .limit(limit)
        .offset(offset),
      this.db.select({ total: count() }).from(playEvents).where(and(where)),
    ]);
    return { rows, total };
  }

  async countPlays(userId: string): Promise<number> {
    const [{ total }] = await this.db.select({ total: count() }).from(playEvents).where(eq(playEvents.userId, userId));
    return total;
  }
}
