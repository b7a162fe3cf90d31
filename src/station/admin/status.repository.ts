/** The counts module A's status and safety test read from other modules' tables (read-only). */
import { gte, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../infra/db/client.js';
import { generations, safetyFlags, trackFeatures } from '../../infra/db/schema/index.js';
import type { AudioFeatures } from '../../engine/types.js';
import { idEq } from '../../infra/db/ids.js';

export class StatusRepository {
  constructor(private readonly db: Db) {}

  /** Generations pending or in progress. */
  async generationQueueDepth(): Promise<number> {
    const [{ n }] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(generations)
      .where(inArray(generations.status, ['pending', 'in_progress']));
    return n;
  }

  /** Safety flags raised since `since` (each withheld a track or lyric from playback). */
  async safetyFlagsSince(since: Date): Promise<number> {
    const [{ n }] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(safetyFlags)
      .where(gte(safetyFlags.createdAt, since));
    return n;
  }

  /** The stored audio features of a catalog track, or null when it has none (or does not exist). */
  async trackFeatures(trackId: string): Promise<AudioFeatures | null> {
    const [row] = await this.db.select({ features: trackFeatures.features }).from(trackFeatures).where(idEq(trackFeatures.trackId, trackId)).limit(1);
    return row ? (row.features as AudioFeatures) : null;
  }
}
