/**
 * The playout's measurements of each master (loudness, true peak, sound edges, quiet intro and outro),
 * taken once and kept in `playout_analyses` by blob key. The scheduler warms them for the next slots, so a
 * track is normally measured well before it airs; otherwise on its first air, while it is loaded ahead.
 * Concurrent requests for one master share one measurement. A catalog track whose loudness was never
 * measured (demo masters, which are rendered rather than uploaded) gets its loudness filled in, through the
 * catalog's port, in the transaction that stores the measurement.
 */
import { eq } from 'drizzle-orm';
import { analyseTrack, type TrackAnalysis } from '../../engine/audio/track-analysis.js';
import type { BlobStore } from '../../infra/blobs/blob-store.js';
import type { Db, DbOrTx } from '../../infra/db/client.js';
import { playoutAnalyses } from '../../infra/db/schema/index.js';
import { sniffFormat } from './track-reader.js';

/**
 * Rows are keyed by blob key plus the revision of the measurement: when what a field means changes (v2: a
 * quiet intro/outro is 6 dB under the body, not 12), older rows are simply not found and each master is
 * measured again on its next warm-up, with no migration. Rows of older revisions are left as they are.
 */
const ANALYSIS_REVISION = 'v2';
export const analysisRowKey = (blobKey: string) => `${blobKey}#${ANALYSIS_REVISION}`;

/**
 * The catalog's port (src/platform/catalog/track-reads.ts, published as the catalog module's `trackReads`): gives
 * the catalog tracks of a master whose loudness was never measured the one measured here, in the caller's
 * transaction. The playout writes no catalog table itself.
 */
export interface MeasuredLoudnessFill {
  fillMeasuredLoudness(blobKey: string, loudnessLufs: number, tx: DbOrTx): Promise<void>;
}

export class PlayoutAnalyses {
  private readonly inFlight = new Map<string, Promise<TrackAnalysis>>();
  /** Masters measured by this instance (not read from the cache). */
  measured = 0;

  constructor(
    private readonly db: Db,
    private readonly blobs: BlobStore,
    private readonly catalog: MeasuredLoudnessFill,
  ) {}

  /** The analysis of the master at `blobKey`; `bytes` saves reading it when the caller holds it already. */
  forBlob(blobKey: string, bytes?: Buffer): Promise<TrackAnalysis> {
    let pending = this.inFlight.get(blobKey);
    if (!pending) {
      pending = this.lookUpOrMeasure(blobKey, bytes).finally(() => this.inFlight.delete(blobKey));
      this.inFlight.set(blobKey, pending);
    }
    return pending;
  }

  private async lookUpOrMeasure(blobKey: string, bytes?: Buffer): Promise<TrackAnalysis> {
    const size = bytes?.length ?? (await this.blobs.stat(blobKey))?.size;
    const key = analysisRowKey(blobKey);
    const [row] = await this.db.select().from(playoutAnalyses).where(eq(playoutAnalyses.blobKey, key));
    if (row && row.sizeBytes === size) return toAnalysis(row);
    const file = bytes ?? (await this.blobs.get(blobKey));
    const analysis = await analyseTrack(file, sniffFormat(file));
    this.measured++;
    const values = { sizeBytes: file.length, ...analysis, analysedAt: new Date() };
    await this.db.transaction(async (tx) => {
      await tx
        .insert(playoutAnalyses)
        .values({ blobKey: key, ...values })
        .onConflictDoUpdate({ target: playoutAnalyses.blobKey, set: values });
      if (analysis.loudnessLufs !== null) await this.catalog.fillMeasuredLoudness(blobKey, analysis.loudnessLufs, tx);
    });
    return analysis;
  }
}

function toAnalysis(row: typeof playoutAnalyses.$inferSelect): TrackAnalysis {
  return {
    durationSec: row.durationSec,
    loudnessLufs: row.loudnessLufs,
    truePeakDbtp: row.truePeakDbtp,
    soundStartSec: row.soundStartSec,
    soundEndSec: row.soundEndSec,
    introSec: row.introSec,
    outroSec: row.outroSec,
  };
}
