/**
 * Uploads assembled for the composition root: the routes, the render worker on the job queue, and the
 * re-queueing at start of uploads a previous process left processing.
 */
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../../config.js';
import type { Engine } from '../../engine/engine.js';
import type { FailureLog } from '../../errors.js';
import type { BlobStore } from '../../infra/blobs/blob-store.js';
import type { Clock } from '../../infra/clock/clock.js';
import type { Db } from '../../infra/db/client.js';
import type { EventBus } from '../../infra/pubsub/event-bus.js';
import type { JobQueue } from '../../infra/queue/job-queue.js';
import type { PlatformEvents } from '../webhooks/platform-events.js';
import { UploadRenderer } from './render.js';
import { uploadRoutes } from './routes.js';
import { UploadsRepository } from './uploads.repository.js';
import { UPLOAD_QUEUE, UploadsService } from './uploads.service.js';

export interface UploadsDeps {
  config: Config;
  db: Db;
  blobs: BlobStore;
  queue: JobQueue;
  bus: EventBus;
  events: PlatformEvents;
  clock: Clock;
  engine: Pick<Engine, 'extractFeatures'>;
}

/** Renders run one at a time per instance: each is CPU-bound for seconds, and the API shares the process. */
const RENDER_CONCURRENCY = 1;
/** Spooled files older than this belong to no request any more (a crash left them). */
const STALE_TEMP_MS = 24 * 3600 * 1000;

export function createUploads(deps: UploadsDeps) {
  const repo = new UploadsRepository(deps.db);
  const service = new UploadsService({ repo, blobs: deps.blobs, queue: deps.queue, bus: deps.bus, events: deps.events, clock: deps.clock });
  const tempDir = join(deps.config.dataDir, 'tmp', 'uploads');
  let renderer: UploadRenderer | null = null;
  return {
    service,
    routes: uploadRoutes(service, { maxBytes: deps.config.uploadMaxBytes, tempDir }),
    async start(log: FailureLog): Promise<void> {
      renderer = new UploadRenderer({
        repo,
        blobs: deps.blobs,
        bus: deps.bus,
        events: deps.events,
        clock: deps.clock,
        extractFeatures: (mp3) => deps.engine.extractFeatures(mp3, 'mp3'),
        log,
      });
      const worker = renderer;
      await deps.queue.process(UPLOAD_QUEUE, (job) => worker.handle(job), { concurrency: RENDER_CONCURRENCY });
      await service.resume();
      await removeStaleTemp(tempDir, deps.clock.now());
    },
    /** Before the queue closes: a render in progress stops between chunks and is picked up at the next start. */
    stop(): void {
      renderer?.stop();
    },
  };
}

async function removeStaleTemp(dir: string, now: number): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    const path = join(dir, name);
    const info = await stat(path).catch(() => null);
    if (info && now - info.mtimeMs > STALE_TEMP_MS) await rm(path, { force: true });
  }
}
