/**
 * The counts module A's status and safety test read from other modules' tables (read-only): generations
 * waiting, and a catalog track's stored features. Safety flags are counted through module G's read port.
 */
import { inArray, sql } from 'drizzle-orm';
import type { Db } from '../../infra/db/client.js';
import { generations, trackFeatures } from '../../infra/db/schema/index.js';
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

  /** The stored audio features of a catalog track, or null when it has none (or does not exist). */
  async trackFeatures(trackId: string): Promise<AudioFeatures | null> {
    const [row] = await this.db.select({ features: trackFeatures.features }).from(trackFeatures).where(idEq(trackFeatures.trackId, trackId)).limit(1);
    return row ? (row.features as AudioFeatures) : null;
  }
}
