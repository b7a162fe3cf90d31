/**
 * What module A's safety test reads from another module's table (read-only): a catalog track's stored
 * features. The status counts generations and safety flags through modules E's and G's read ports.
 */
import type { Db } from '../../infra/db/client.js';
import { trackFeatures } from '../../infra/db/schema/index.js';
import type { AudioFeatures } from '../../engine/types.js';
import { idEq } from '../../infra/db/ids.js';

export class StatusRepository {
  constructor(private readonly db: Db) {}

  /** The stored audio features of a catalog track, or null when it has none (or does not exist). */
  async trackFeatures(trackId: string): Promise<AudioFeatures | null> {
    const [row] = await this.db.select({ features: trackFeatures.features }).from(trackFeatures).where(idEq(trackFeatures.trackId, trackId)).limit(1);
    return row ? (row.features as AudioFeatures) : null;
  }
}
