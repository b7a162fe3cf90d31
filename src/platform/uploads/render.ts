/**
 * The queued half of an upload: renders the 128, 192 and 320 kbps MP3 renditions from the master on an
 * engine worker thread (never on the API's), streaming each into the blob store as its bytes arrive, keeps
 * the master the radio airs (a WAV's or AIFF's samples as FLAC, made in the same decode pass; a FLAC or MP3
 * upload's original file: `tracks.master_blob_key`, issue 18), extracts
 * the style features (module B's eligibility gate and the safety filter's reference need them), then
 * publishes the track and records `track.published` in the webhooks' outbox, in one transaction. A track
 * taken down meanwhile is left as it is. The job carries only the track id and reloads everything, so a retry
 * (or a re-queue at start) is safe; after the last attempt the track is marked failed with a message the
 * uploader may read.
 */
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import type { PcmFormat } from '../../engine/audio/pcm.js';
import { LOSSLESS_SOURCES, type RenditionBitrate } from '../../engine/audio/renditions.js';
import type { RenditionChunks } from '../../engine/worker/rendition-pool.js';
import type { AudioFeatures } from '../../engine/types.js';
import { publicFailure, type FailureLog } from '../../errors.js';
import type { BlobInfo, BlobStore } from '../../infra/blobs/blob-store.js';
import type { Clock } from '../../infra/clock/clock.js';
import type { EventBus } from '../../infra/pubsub/event-bus.js';
import type { Job } from '../../infra/queue/job-queue.js';
import { TRACK_CHANGED_CHANNEL } from '../catalog/catalog.service.js';
import type { TransactionalPlatformEvents } from '../webhooks/platform-events.js';
import type { UploadsRepository } from './uploads.repository.js';
import { RENDER_ATTEMPTS } from './uploads.service.js';
import { losslessMasterKeyOf, RENDITION_KBPS, renditionKeys, STREAM_KBPS, streamKeyOf } from './view.js';
import type { JobPayloads } from '../../infra/queue/jobs.js';

export interface RenderDeps {
  repo: UploadsRepository;
  blobs: BlobStore;
  bus: EventBus;
  /** track.published, recorded in the webhooks' outbox in the transaction that publishes the track. */
  events: TransactionalPlatformEvents;
  clock: Clock;
  /** The engine's feature extractor (worker threads, or the ML service). */
  extractFeatures: (mp3: Buffer) => Promise<AudioFeatures>;
  /** Renders on a worker thread (RenditionPool), handing the bytes over in order as they are made. */
  renderRenditions: (
    master: Uint8Array,
    format: PcmFormat,
    bitrates: readonly RenditionBitrate[],
    onChunks: (chunks: RenditionChunks) => Promise<void>,
    shouldStop: () => boolean,
    options: { losslessMaster?: boolean },
  ) => Promise<{ losslessMaster?: Uint8Array }>;
  log: FailureLog;
}

/** The format an upload record names (`track_uploads.master_format`, as the probe found it). */
export function uploadFormat(name: string): PcmFormat {
  if (name === 'mp3' || name === 'wav' || name === 'flac' || name === 'aiff') return name;
  throw new Error(`an upload's master has an unknown format: ${name}`);
}

const RENDER_FAILED = { code: 'RENDER_FAILED', message: 'The stream renditions could not be made from this file' };

export class UploadRenderer {
  private readonly stopping = new AbortController();

  constructor(private readonly deps: RenderDeps) {}

  /** The queue worker. */
  async handle(job: Job<JobPayloads['track-uploads']>): Promise<void> {
    const { trackId } = job.data;
    try {
      await this.render(trackId);
    } catch (error) {
      // A shutdown is not the file's fault: the track stays processing and is queued again at the next start
      // (UploadsService.resume), so this attempt ends quietly.
      if (this.stopping.signal.aborted) return;
      if (job.attempt < RENDER_ATTEMPTS) throw error;
      const failure = publicFailure(error, { fallback: RENDER_FAILED, log: this.deps.log, context: { track_id: trackId, job_id: job.id } });
      await this.deps.repo.fail(trackId, failure.message);
      await this.deps.bus.publish(TRACK_CHANGED_CHANNEL, trackId);
    }
  }

  /** Stops a render in progress between two chunks. */
  stop(): void {
    this.stopping.abort();
  }

  private async render(trackId: string): Promise<void> {
    const managed = await this.deps.repo.find(trackId);
    if (!managed?.upload || managed.track.status !== 'processing') return; // published already, taken down, or gone
    const master = await this.deps.blobs.get(managed.upload.masterBlobKey);
    const format = uploadFormat(managed.upload.masterFormat);
    const { sizes, losslessMaster } = await this.renderToBlobs(trackId, master, format);
    // What the radio airs: a WAV's or AIFF's samples as FLAC (smaller, same samples), a FLAC upload itself,
    // an MP3's original itself (one lossy generation fewer than its 320 kbps rendition).
    let masterBlobKey = managed.upload.masterBlobKey;
    if (losslessMaster) {
      masterBlobKey = losslessMasterKeyOf(trackId);
      await this.deps.blobs.put(masterBlobKey, Buffer.from(losslessMaster.buffer, losslessMaster.byteOffset, losslessMaster.byteLength));
    }
    const keys = new Map(renditionKeys(trackId));
    await this.storeFeatures(trackId, await this.deps.blobs.get(keys.get(128)!));
    const audio = { blobKey: streamKeyOf(trackId), masterBlobKey, bitrateKbps: STREAM_KBPS, sizeBytes: sizes.get(STREAM_KBPS)!.size };
    const raised = await this.deps.repo.transaction(async (repo) => {
      if (!(await repo.publish(trackId, audio, this.deps.clock.date()))) return null;
      // Title and genre as they are now (the row just published, locked): the owner may have changed them
      // while the track was processing.
      const now = (await repo.find(trackId, { lock: true }))!;
      const event = { track_id: trackId, artist_id: now.artist.id, title: now.track.title, genre: now.track.genre };
      return repo.inHandle((tx) => this.deps.events.recordIn(tx, { event: 'track.published', data: event, environment: now.track.environment }));
    });
    if (!raised) return;
    await raised();
    await this.deps.bus.publish(TRACK_CHANGED_CHANNEL, trackId);
  }

  /**
   * One blob write per rendition, fed as the worker's bytes arrive: a batch is taken only once the blob
   * store has room for it, so memory stays a few batches whatever the length. A failure on either side
   * ends every write; a write that failed leaves no blob under its key (the blob store writes then renames).
   */
  private async renderToBlobs(trackId: string, master: Uint8Array, format: PcmFormat): Promise<{ sizes: Map<number, BlobInfo>; losslessMaster?: Uint8Array }> {
    const streams = new Map<number, PassThrough>(RENDITION_KBPS.map((kbps) => [kbps, new PassThrough()]));
    // A stream destroyed before its write began piping would throw its error unheard; put() reports it instead.
    for (const stream of streams.values()) stream.on('error', () => undefined);
    const writes = renditionKeys(trackId).map(async ([kbps, key]) => [kbps, await this.deps.blobs.put(key, streams.get(kbps)!)] as const);
    const stored = Promise.all(writes);
    stored.catch(() => undefined); // observed below; a write failing early must not be an unhandled rejection
    try {
      const rendered = await this.deps.renderRenditions(
        master,
        format,
        RENDITION_KBPS,
        async (chunks) => {
          for (const { bitrateKbps, bytes } of chunks) {
            const stream = streams.get(bitrateKbps)!;
            if (!stream.write(bytes)) await Promise.race([once(stream, 'drain'), stored]);
          }
        },
        () => this.stopping.signal.aborted,
        { losslessMaster: LOSSLESS_SOURCES.includes(format) },
      );
      for (const stream of streams.values()) stream.end();
      return { sizes: new Map(await stored), losslessMaster: rendered.losslessMaster };
    } catch (error) {
      for (const stream of streams.values()) stream.destroy(error instanceof Error ? error : new Error(String(error)));
      await stored.catch(() => undefined);
      throw error;
    }
  }

  /** Features are worth having but not worth withholding a track for: a failure is logged and the track publishes. */
  private async storeFeatures(trackId: string, mp3: Buffer): Promise<void> {
    try {
      await this.deps.repo.saveFeatures(trackId, await this.deps.extractFeatures(mp3));
    } catch (error) {
      this.deps.log.warn({ err: error, track_id: trackId }, 'style features of an upload could not be extracted');
    }
  }
}
