/**
 * The catalog's read port for the listeners group: a listener's recorded plays (`play_events`, which the catalog
 * writes when it counts a play) with the tracks they played, and how many there are. Published by the catalog
 * module as `listeningHistory`; the listeners group declares it on its side (`ListeningHistory`,
 * src/platform/listeners/listeners.service.ts) and reads no catalog table itself.
 */
import { count, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../infra/db/client.js';
import { artists, playEvents, tracks } from '../../infra/db/schema/index.js';
import { trackRefColumns, type TrackRefRow } from './display-reads.js';

/** A play as a listening history lists it: the track, when, from where, and for how long. */
export interface HistoryRow extends TrackRefRow {
  playedAt: Date;
  source: 'radio' | 'on_demand';
  secondsPlayed: number | null;
}

export class CatalogListeningHistory {
  constructor(private readonly db: DbOrTx) {}

  /** A page of the user's plays, most recent first, and how many there are. */
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
      this.db.select({ total: count() }).from(playEvents).where(where),
    ]);
    return { rows, total };
  }

  /** How many plays the user has. */
  async countPlays(userId: string): Promise<number> {
    const [{ total }] = await this.db.select({ total: count() }).from(playEvents).where(eq(playEvents.userId, userId));
    return total;
  }
}
