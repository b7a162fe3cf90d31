/**
 * Masters for catalog tracks from before they were kept (issue 18; `tracks.master_blob_key`, migration 0039).
 * Such a track airs its stream audio, a lossy rendition; where the platform still holds a better source, the
 * track is given it as its master, exactly as a new upload or demo track would have been:
 *
 * - an upload kept as WAV or AIFF: its samples as FLAC (`tracks/<id>/master.flac`, encoded on an engine
 *   worker thread, bit-exact for 8-24-bit PCM as in render.ts) — `made_lossless`;
 * - an upload kept as FLAC: the file itself — `adopted_lossless`;
 * - an upload kept as MP3: the file as uploaded, one lossy generation fewer than its 320 kbps rendition,
 *   recorded as lossy — `adopted_original_mp3`;
 * - a demo catalog track whose FLAC the seed stored beside its MP3 (`catalog/<id>.flac` for `catalog/<id>.mp3`)
 *   and whose length matches the track's: that FLAC — `adopted_lossless`;
 * - anything else (a demo track seeded before FLAC masters were kept, an upload whose original is gone):
 *   no master. The MP3 stays what airs, and the ledger says so — `stream_audio_only`. A demo track is not
 *   rendered again to make one: the engine of today would render a different piece under the same id, unlike
 *   the audio its features, fingerprints and plays belong to.
 *
 * Every track looked at gets a row in `track_master_backfill` with the stream audio it had then, in the same
 * transaction that gives it its master, so a second run does nothing and a run stopped half-way (a crash, a
 * shutdown) resumes with the tracks not yet looked at; a FLAC written just before a crash is written again
 * under the same key. A run looks at most `TRACKS_PER_RUN` tracks; the module runs one at start and one each
 * hour until none is left. Several instances may run it at once: the work is the same and the writes agree.
 */
import { and, asc, eq, gt, isNull, ne, or, sql } from 'drizzle-orm';
import type { PcmFormat } from '../../engine/audio/pcm.js';
import { readFlacInfo } from '../../engine/audio/pcm.js';
import { LOSSLESS_SOURCES } from '../../engine/audio/renditions.js';
import type { FailureLog } from '../../errors.js';
import type { BlobStore } from '../../infra/blobs/blob-store.js';
import type { Clock } from '../../infra/clock/clock.js';
import type { Db } from '../../infra/db/client.js';
import { trackMasterBackfill, trackUploads, type MasterBackfillOutcome } from '../../infra/db/schema/index.js';
import type { EventBus } from '../../infra/pubsub/event-bus.js';
import { TRACK_CHANGED_CHANNEL } from '../catalog/catalog.service.js';
import type { UploadCatalogReads, UploadCatalogWrites } from './catalog-writes.js';
import { uploadFormat } from './render.js';
import { losslessMasterKeyOf } from './view.js';

/** Tracks looked at per run: a few WAV uploads to encode at most, then the run ends and the next one goes on. */
export const TRACKS_PER_RUN = 100;
/** A found FLAC is the track's when its length is the track's to within this much. */
const LENGTH_TOLERANCE_SEC = 1;

export interface MasterBackfillDeps {
  db: Db;
  /** The catalog's writes: a track's master is given in the transaction that writes its ledger row. */
  catalog: Pick<UploadCatalogWrites, 'giveMaster'>;
  /** The catalog's reads: its tracks without a master, a derived table joined to the uploads and the ledger. */
  catalogReads: Pick<UploadCatalogReads, 'tracksWithoutMaster'>;
  blobs: BlobStore;
  bus: EventBus;
  clock: Clock;
  /** A WAV's or AIFF's samples as FLAC, encoded off the API's thread (RenditionPool, no renditions). */
  losslessOf: (bytes: Uint8Array, format: PcmFormat) => Promise<Uint8Array>;
  log: FailureLog;
}

interface Candidate {
  id: string;
  audioBlobKey: string;
  durationSec: number;
  uploadKey: string | null;
  uploadFormat: string | null;
}

interface Finding {
  outcome: MasterBackfillOutcome;
  masterBlobKey: string | null;
  detail: string;
}

export interface BackfillRun {
  /** Tracks looked at (each now has its ledger row). */
  looked: number;
  byOutcome: Partial<Record<MasterBackfillOutcome, number>>;
  /** Tracks skipped after an error (logged); the next run tries them again. */
  failed: number;
  /** Whether tracks may be left for another run (the run reached TRACKS_PER_RUN). */
  more: boolean;
}

export class MasterBackfill {
  constructor(private readonly deps: MasterBackfillDeps) {}

  /** Looks at up to `limit` tracks without a master that have not been looked at for their current audio. */
  async run(limit = TRACKS_PER_RUN, shouldStop: () => boolean = () => false): Promise<BackfillRun> {
    const result: BackfillRun = { looked: 0, byOutcome: {}, failed: 0, more: false };
    let after = '';
    let seen = 0;
    while (seen < limit && !shouldStop()) {
      const batch = await this.candidates(after, Math.min(20, limit - seen));
      if (batch.length === 0) return result;
      for (const track of batch) {
        if (shouldStop()) return { ...result, more: true };
        seen += 1;
        after = track.id;
        try {
          const finding = await this.find(track);
          await this.record(track, finding);
          result.looked += 1;
          result.byOutcome[finding.outcome] = (result.byOutcome[finding.outcome] ?? 0) + 1;
        } catch (error) {
          result.failed += 1;
          this.deps.log.warn({ err: error, track_id: track.id }, 'the master backfill could not look at a track; the next run tries again');
        }
      }
    }
    return { ...result, more: seen >= limit };
  }

  /** The next tracks without a master after `after` (by id) that have no ledger row for their current audio. */
  private candidates(after: string, limit: number): Promise<Candidate[]> {
    const { db } = this.deps;
    const track = this.deps.catalogReads.tracksWithoutMaster();
    return db
      .select({
        id: track.id,
        audioBlobKey: sql<string>`${track.audioBlobKey}`, // never null in this derived table: typed so
        durationSec: track.durationSec,
        uploadKey: trackUploads.masterBlobKey,
        uploadFormat: trackUploads.masterFormat,
      })
      .from(track)
      .leftJoin(trackUploads, eq(trackUploads.trackId, track.id))
      .leftJoin(trackMasterBackfill, eq(trackMasterBackfill.trackId, track.id))
      .where(and(or(isNull(trackMasterBackfill.trackId), ne(trackMasterBackfill.audioBlobKey, track.audioBlobKey)), after ? gt(track.id, after) : undefined))
      .orderBy(asc(track.id))
      .limit(limit);
  }

  private async find(track: Candidate): Promise<Finding> {
    if (track.uploadKey !== null && track.uploadFormat !== null) return this.findForUpload(track, track.uploadKey, uploadFormat(track.uploadFormat));
    const flacKey = track.audioBlobKey.endsWith('.mp3') ? `${track.audioBlobKey.slice(0, -'.mp3'.length)}.flac` : null;
    if (flacKey && (await this.deps.blobs.stat(flacKey))) {
      const lengthSec = flacLengthSec(await this.deps.blobs.get(flacKey));
      if (lengthSec !== null && Math.abs(lengthSec - track.durationSec) <= LENGTH_TOLERANCE_SEC) {
        return { outcome: 'adopted_lossless', masterBlobKey: flacKey, detail: `the FLAC kept beside its stream audio (${flacKey})` };
      }
      return streamOnly(`${flacKey} is not this track's master (its length does not match); no lossless source`);
    }
    return streamOnly('no lossless source was kept for this track (rendered or seeded before masters were kept)');
  }

  private async findForUpload(track: Candidate, uploadKey: string, format: PcmFormat): Promise<Finding> {
    if (!(await this.deps.blobs.stat(uploadKey))) return streamOnly(`the upload as uploaded (${uploadKey}) is gone`);
    if (format === 'flac') return { outcome: 'adopted_lossless', masterBlobKey: uploadKey, detail: 'the FLAC as uploaded' };
    if (format === 'mp3') {
      return { outcome: 'adopted_original_mp3', masterBlobKey: uploadKey, detail: 'the MP3 as uploaded (lossy: no lossless source exists)' };
    }
    if (!LOSSLESS_SOURCES.includes(format)) return streamOnly(`an upload kept as ${format} has no lossless master`);
    const flac = await this.deps.losslessOf(await this.deps.blobs.get(uploadKey), format);
    const key = losslessMasterKeyOf(track.id);
    // Before the row names it; a crash in between leaves a blob the next run writes again under the same key.
    await this.deps.blobs.put(key, Buffer.from(flac.buffer, flac.byteOffset, flac.byteLength));
    return { outcome: 'made_lossless', masterBlobKey: key, detail: `the ${format.toUpperCase()} as uploaded, its samples as FLAC` };
  }

  /** The master (if any) and the ledger row, at once; a track whose audio changed meanwhile is left for the next run. */
  private async record(track: Candidate, finding: Finding): Promise<void> {
    const changed = await this.deps.db.transaction(async (tx) => {
      if (finding.masterBlobKey !== null) {
        const given = await this.deps.catalog.giveMaster(track.id, finding.masterBlobKey, track.audioBlobKey, tx);
        if (!given) return false; // given a master (or new audio) meanwhile: nothing to record
      }
      const row = {
        audioBlobKey: track.audioBlobKey,
        outcome: finding.outcome,
        masterBlobKey: finding.masterBlobKey,
        detail: finding.detail,
        checkedAt: this.deps.clock.date(),
      };
      await tx
        .insert(trackMasterBackfill)
        .values({ trackId: track.id, ...row })
        .onConflictDoUpdate({ target: trackMasterBackfill.trackId, set: row });
      return finding.masterBlobKey !== null;
    });
    // Every instance drops its cached copy, so the radio airs the master from the track's next play.
    if (changed) await this.deps.bus.publish(TRACK_CHANGED_CHANNEL, track.id);
  }
}

const streamOnly = (detail: string): Finding => ({ outcome: 'stream_audio_only', masterBlobKey: null, detail });

/** The length STREAMINFO declares, or null when the bytes are not a FLAC stream that declares one. */
function flacLengthSec(bytes: Uint8Array): number | null {
  try {
    const info = readFlacInfo(bytes);
    return info.totalSamples > 0 && info.sampleRate > 0 ? info.totalSamples / info.sampleRate : null;
  } catch {
    return null;
  }
}
