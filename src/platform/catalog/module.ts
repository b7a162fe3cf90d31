/** The catalog group for the composition root: track reads and search, counted plays, the track cache's invalidation. */
import type { FastifyInstance } from 'fastify';
import type { BlobStore } from '../../infra/blobs/blob-store.js';
import type { UrlSigner } from '../../infra/blobs/url-signer.js';
import type { Clock } from '../../infra/clock/clock.js';
import type { CounterStore } from '../../infra/counters/counter-store.js';
import type { Db } from '../../infra/db/client.js';
import type { EventBus } from '../../infra/pubsub/event-bus.js';
import { CatalogRepository, type ListenerCountry } from './catalog.repository.js';
import { CatalogService, TRACK_CHANGED_CHANNEL } from './catalog.service.js';
import { CatalogDatasetReads } from './dataset-reads.js';
import { CatalogDisplayReads } from './display-reads.js';
import { CatalogListeningHistory } from './listening-history.js';
import { CatalogSalesReads } from './sales-reads.js';
import { CatalogSongwriterReads } from './songwriter-reads.js';
import { PlayWindow } from './play-window.js';
import { catalogRoutes } from './routes.js';
import { CatalogTrackReads } from './track-reads.js';
import { CatalogUploadReads } from './upload-reads.js';
import { CatalogUploadWrites } from './upload-writes.js';

export interface CatalogModuleDeps {
  db: Db;
  /** Whether the database runs a search's statements side by side (PostgreSQL) or one after another (PGlite). */
  concurrentStatements: boolean;
  signer: UrlSigner;
  blobs: Pick<BlobStore, 'stat'>;
  /** Carries TRACK_CHANGED_CHANNEL: every instance drops its cached copy of a changed track. */
  bus: EventBus;
  clock: Clock;
  /** Where counted plays are remembered (shared by every instance with Redis). */
  playCounters: CounterStore;
  /** The users group's port: the profile country a listener's play keeps. */
  listenerCountry: ListenerCountry;
  /** Told after each recorded play (best effort: the play is kept whatever it does). */
  onPlayRecorded: () => Promise<void>;
}

export function buildCatalogModule(deps: CatalogModuleDeps) {
  const repo = new CatalogRepository(deps.db, { concurrentStatements: deps.concurrentStatements, listenerCountry: deps.listenerCountry });
  // One counted play per listener and track within the track's length, on every instance.
  const playWindow = new PlayWindow(deps.playCounters, deps.clock);
  const service = new CatalogService(repo, deps.signer, deps.blobs, deps.onPlayRecorded, playWindow);
  let unsubscribe: (() => Promise<void>) | null = null;

  return {
    service,
    /** The albums' reads of catalog tracks (platform/artists), and the radio's playout port (a live track as it airs, each airing's play). */
    repo,
    /** Read port for the station's play counts: one counted play per caller and track within its length. */
    playWindow,
    /** Read port for the station: a track's stored features, tracks named by id. */
    trackReads: new CatalogTrackReads(deps.db),
    /** Read port for the station's dataset manager: the rows its eligibility and validation judge, in its transaction. */
    datasetReads: new CatalogDatasetReads(deps.db),
    /** Read port for library, playlists and capsules: the display fields of tracks, releases and artists. */
    displayReads: new CatalogDisplayReads(deps.db),
    /** Read port for the listeners group: a listener's recorded plays. */
    listeningHistory: new CatalogListeningHistory(deps.db),
    /** Read port for the store: sellers, the tracks and releases products hold, credits, payout lines' names. */
    salesReads: new CatalogSalesReads(deps.db),
    /** Read port for the admin's songwriters register: songwriters, their credits and the tracks credited. */
    songwriterReads: new CatalogSongwriterReads(deps.db),
    /** Write port for the uploads group: an upload's catalog row and features, in the uploads' transaction. */
    uploadWrites: new CatalogUploadWrites(),
    /** Read port for the uploads group: artists, the ISRC check, the row's lock, tracks and artists to join. */
    uploadReads: new CatalogUploadReads(deps.db),
    routes: async (app: FastifyInstance) => {
      await app.register(catalogRoutes(service));
    },
    /** Subscribes to track changes, so that the track cache never outlives a change made on another instance. */
    start: async () => {
      unsubscribe = await deps.bus.subscribe(TRACK_CHANGED_CHANNEL, (id) => typeof id === 'string' && service.invalidateTrack(id));
    },
    stop: async () => {
      await unsubscribe?.();
      unsubscribe = null;
    },
  };
}

export type CatalogModule = ReturnType<typeof buildCatalogModule>;
