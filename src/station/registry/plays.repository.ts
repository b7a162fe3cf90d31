/**
 * What the radio actually played. The scheduler calls `recordPlay` once per track that went on air (catalog
 * or AI) with the listener count at its start; module G's session aggregates (plays, listener hours) read
 * these rows. For an AI track the registry's playback counter is separate: RegistryService.countPlayback
 * (or POST /registry/tracks/{id}/playback, which can write both in one call).
 */
import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../infra/db/client.js';
import { stationPlays } from '../../infra/db/schema/index.js';

/** Airings listed for a track's listener reports: the latest, enough for any track a report can concern. */
const AIRINGS_LISTED = 200;

export type StationPlayRow = typeof stationPlays.$inferSelect;

interface PlayCommon {
  sessionId: string | null;
  startedAt: Date;
  /** Seconds actually on air. */
  durationSec: number;
  /** Listeners connected when the track started. */
  listenerCount: number;
}

export type PlayInput =
  | (PlayCommon & { origin: 'ai_generated'; stationTrackId: string; trackId?: null })
  | (PlayCommon & { origin: 'catalog'; trackId: string; stationTrackId?: null });

export class PlaysRepository {
  constructor(private readonly db: Db) {}

  async recordPlay(play: PlayInput): Promise<StationPlayRow> {
    const [row] = await this.db
      .insert(stationPlays)
      .values({
        origin: play.origin,
        stationTrackId: play.origin === 'ai_generated' ? play.stationTrackId : null,
        trackId: play.origin === 'catalog' ? play.trackId : null,
        sessionId: play.sessionId,
        startedAt: play.startedAt,
        durationSec: play.durationSec,
        listenerCount: Math.max(0, Math.round(play.listenerCount)),
      })
      .returning();
    return row;
  }

  /** When an AI track was on air (its latest airings, newest first). */
  async airings(stationTrackId: string): Promise<Array<{ from: Date; to: Date }>> {
    const rows = await this.db
      .select({ startedAt: stationPlays.startedAt, durationSec: stationPlays.durationSec })
      .from(stationPlays)
      .where(eq(stationPlays.stationTrackId, stationTrackId))
      .orderBy(desc(stationPlays.startedAt))
      .limit(AIRINGS_LISTED);
    return rows.map((r) => ({ from: r.startedAt, to: new Date(r.startedAt.getTime() + r.durationSec * 1000) }));
  }
}
