/**
 * The catalog's read port for the station: a track's stored style features (the safety filter's dry run).
 * Published by the catalog module as `trackReads`; the station's modules declare the part they use on their side.
 */
import type { AudioFeatures } from '../../engine/types.js';
import type { Db } from '../../infra/db/client.js';
import { idEq } from '../../infra/db/ids.js';
import { trackFeatures } from '../../infra/db/schema/index.js';

export class CatalogTrackReads {
  constructor(private readonly db: Db) {}

  /** The stored audio features of a catalog track, or null when it has none (or does not exist). */
  async trackFeatures(trackId: string): Promise<AudioFeatures | null> {
    const [row] = await this.db.select({ features: trackFeatures.features }).from(trackFeatures).where(idEq(trackFeatures.trackId, trackId)).limit(1);
    return row ? (row.features as AudioFeatures) : null;
  }
}
