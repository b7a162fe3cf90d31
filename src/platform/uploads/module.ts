/**
 * Uploads assembled for the composition root: the routes, the render worker on the job queue (renders run
 * on their own engine worker threads), the re-queueing at start of uploads a previous process left
 * processing, the hourly sweep of spooled files nobody removed (a crash mid-request), and the master backfill
 * of tracks from before masters were kept (master-backfill.ts: a bounded run at start, then hourly).
 */
import type { FastifyInstance } from 'fastify';
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../../config.js';
import type { Engine } from '../../engine/engine.js';
import { RenditionPool } from '../../engine/worker/rendition-pool.js';
import type { FailureLog } from '../../errors.js';
import type { BlobStore } from '../../infra/blobs/blob-store.js';
import type { Clock } from '../../infra/clock/clock.js';
import { systemTimers, type IntervalTimers } from '../../infra/clock/timers.js';
import type { Db } from '../../infra/db/client.js';
import type { EventBus } from '../../infra/pubsub/event-bus.js';
import type { JobQueue } from '../../infra/queue/job-queue.js';
import type { TransactionalPlatformEvents } from '../webhooks/platform-events.js';
import { UploadAdmission } from './admission.js';
import type { UploadCatalogReads, UploadCatalogWrites } from './catalog-writes.js';
import { MasterBackfill } from './master-backfill.js';
import { UploadRenderer } from './render.js';
import { uploadRoutes } from './routes.js';
import { UploadsRepository, type SandboxTwins } from './uploads.repository.js';
import { UPLOAD_QUEUE, UploadsService } from './uploads.service.js';
import { processJobs } from '../../infra/queue/jobs.js';

export interface UploadsDeps {
  config: Config;
  db: Db;
  blobs: BlobStore;
  queue: JobQueue;
  bus: EventBus;
  /** The webhooks' outbox for track.published and track.removed, written in the change's transaction. */
  events: TransactionalPlatformEvents;
  clock: Clock;
  engine: Pick<Engine, 'extractFeatures'>;
  /** The catalog's writes of an upload's catalog row and features (the catalog owns those tables). */
  catalog: UploadCatalogWrites;
  /** The catalog's reads for uploads: artists, the ISRC check, the row's lock, its tracks (all, or without a master) and artists joined. */
  catalogReads: UploadCatalogReads;
  /** The artists group's port: the sandbox copies of a test key's owner's artists, made before it uploads. */
  sandboxTwins: SandboxTwins;
  /** The spool sweep's timer (tests fire it by hand); real timers by default. */
  timers?: IntervalTimers;
  log: FailureLog;
}

/** Renders run one at a time per instance, on a worker thread of their own; more wait on the queue. */
const RENDER_CONCURRENCY = 1;
/** Uploads being received and checked at once: per user, per instance. */
const UPLOADS_PER_USER = 3;
const UPLOADS_PER_INSTANCE = 8;
/** A user's uploads in flight may reserve this many full-size files of spool space together. */
const SPOOL_FILES_PER_USER = 2;
const HOUR_MS = 3600 * 1000;

export function buildUploadsModule(deps: UploadsDeps) {
  const { config, log } = deps;
  const repo = new UploadsRepository(deps.db, deps.catalog, deps.catalogReads, deps.sandboxTwins);
  const service = new UploadsService({
    repo,
    blobs: deps.blobs,
    queue: deps.queue,
    bus: deps.bus,
    events: deps.events,
    clock: deps.clock,
    audioLimits: { maxDurationSec: config.uploadMaxSec },
  });
  const tempDir = join(config.dataDir, 'tmp', 'uploads');
  const admission = new UploadAdmission({
    perUser: UPLOADS_PER_USER,
    perInstance: UPLOADS_PER_INSTANCE,
    spoolBytesPerUser: SPOOL_FILES_PER_USER * config.uploadMaxBytes,
  });
  const timers = deps.timers ?? systemTimers;
  // No request lives past its body limit: a spooled file older than twice that (an hour at least) is no one's.
  const staleMs = Math.max(HOUR_MS, 2 * config.uploadTimeoutMs);
  const pool = new RenditionPool({ size: RENDER_CONCURRENCY, niceness: config.engineThreadNiceness ?? undefined });
  let renderer: UploadRenderer | null = null;
  let sweep: unknown = null;
  let stopping = false;
  const backfill = new MasterBackfill({
    db: deps.db,
    catalog: deps.catalog,
    catalogReads: deps.catalogReads,
    blobs: deps.blobs,
    bus: deps.bus,
    clock: deps.clock,
    // The FLAC is made by the renditions' code on the render worker, with no rendition asked for.
    losslessOf: async (bytes, format) => {
      const { losslessMaster } = await pool.render(
        bytes,
        format,
        [],
        async () => undefined,
        () => stopping,
        { losslessMaster: true },
      );
      if (!losslessMaster) throw new Error('the render worker made no lossless master');
      return losslessMaster;
    },
    log,
  });
  let backfilling: Promise<void> | null = null;
  // One run at a time per instance, in the background: a start is never held up by it.
  const runBackfill = () => {
    backfilling ??= backfill
      .run(undefined, () => stopping)
      .then(() => undefined) // what it found is in track_master_backfill; run() logs a track it could not look at
      .catch((error) => log.warn({ err: error }, 'the master backfill run failed'))
      .finally(() => {
        backfilling = null;
      });
  };
  return {
    service,
    /** Read port for the store's downloads: a track's uploaded master. */
    masters: { masterOf: (trackId: string) => repo.masterOf(trackId) },
    /** Read port for the dataset's quality gate: uploaded masters' bitrates. */
    masterBitrates: { masterBitrates: () => repo.masterBitrates() },
    routes: async (app: FastifyInstance) => {
      await app.register(
        uploadRoutes(service, { maxBytes: config.uploadMaxBytes, maxSec: config.uploadMaxSec, tempDir, bodyTimeoutMs: config.uploadTimeoutMs, admission }),
      );
    },
    async start(): Promise<void> {
      renderer = new UploadRenderer({
        repo,
        blobs: deps.blobs,
        bus: deps.bus,
        events: deps.events,
        clock: deps.clock,
        extractFeatures: (mp3) => deps.engine.extractFeatures(mp3, 'mp3'),
        renderRenditions: (master, format, bitrates, onChunks, shouldStop, options) => pool.render(master, format, bitrates, onChunks, shouldStop, options),
        log,
      });
      const worker = renderer;
      await processJobs(deps.queue, UPLOAD_QUEUE, (job) => worker.handle(job), { concurrency: RENDER_CONCURRENCY });
      await service.resume();
      await removeStaleSpool(tempDir, deps.clock.now(), staleMs);
      runBackfill();
      sweep = timers.setInterval(() => {
        removeStaleSpool(tempDir, deps.clock.now(), staleMs).catch((error) => log.warn({ err: error }, 'the upload spool sweep failed'));
        runBackfill();
      }, HOUR_MS);
    },
    /** Before the queue closes: a render in progress stops between slices and is picked up at the next start. */
    async stop(): Promise<void> {
      if (sweep !== null) timers.clearInterval(sweep);
      sweep = null;
      stopping = true;
      renderer?.stop();
      await backfilling;
      await pool.close();
    },
  };
}

async function removeStaleSpool(dir: string, now: number, staleMs: number): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    const path = join(dir, name);
    const info = await stat(path).catch(() => null);
    if (info && now - info.mtimeMs > staleMs) await rm(path, { force: true });
  }
}
