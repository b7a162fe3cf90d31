/**
 * Module G assembled from the station's infrastructure: modules.ts calls this once and registers
 * `routes`. `plays` is the port the scheduler records plays through; module I reads `repo`, `lineage`,
 * `audit` and `reviewsRepo`; module H files listener reports through `reviews`.
 */
import type { FastifyInstance } from 'fastify';
import type { BlobStore } from '../../infra/blobs/blob-store.js';
import type { Clock } from '../../infra/clock/clock.js';
import type { Db } from '../../infra/db/client.js';
import type { StationEvents } from '../events/station-events.js';
import type { PlayWindow } from '../../platform/catalog/play-window.js';
import type { LyricRow } from '../lyrics/lyrics.repository.js';
import { ChainAuditService } from './chain-audit.js';
import type { ModelLineageRepository } from '../models/model-lineage.repository.js';
import { PlaysRepository } from './plays.repository.js';
import { RegistryAdminService } from './registry-admin.service.js';
import { RegistryRepository } from './registry.repository.js';
import { registryRoutes } from './routes.js';
import { SafetyReviewRepository, type ReportThresholdRead } from './safety-review.repository.js';
import { SafetyReviewService } from './safety-review.service.js';
import { SessionsRepository, type GenerationSessions } from './sessions.repository.js';
import { type GenerationLookup, TrackRegistrationService } from './track-registration.js';

export interface RegistryModuleDeps {
  db: Db;
  /** Module E's read ports: a generation by id (registration), its generations by radio session (the session list). */
  generations: GenerationLookup & GenerationSessions;
  blobs: BlobStore;
  events: StationEvents;
  clock: Clock;
  /** One counted play per caller and track within the track's length. */
  playWindow: Pick<PlayWindow, 'counts'>;
  /** The models' read port on model_versions: the models a track came from. */
  lineage: Pick<ModelLineageRepository, 'findByVersion' | 'productionAt' | 'production'>;
  /** Module A's read port: report_threshold as configured. */
  reportThreshold: ReportThresholdRead;
  /** Module F's read port: a lyric's record (its words and the model that wrote them). */
  lyrics: { find(id: string): Promise<LyricRow | null> };
}

export type RegistryModule = ReturnType<typeof buildRegistryModule>;

export function buildRegistryModule({ db, generations, blobs, events, clock, playWindow, lineage, lyrics, reportThreshold }: RegistryModuleDeps) {
  const repo = new RegistryRepository(db);
  const plays = new PlaysRepository(db);
  const audit = new ChainAuditService(repo, clock);
  const reviewsRepo = new SafetyReviewRepository(db, reportThreshold);
  const reviews = new SafetyReviewService({ reviews: reviewsRepo, events, clock });
  const admin = new RegistryAdminService({
    registry: repo,
    sessions: new SessionsRepository(db, generations),
    plays,
    models: lineage,
    lyrics,
    reviews,
    clock,
    playWindow,
  });
  const registration = new TrackRegistrationService({ registry: repo, generations, lyrics, models: lineage, blobs, clock });
  return {
    repo,
    plays,
    lineage,
    admin,
    registration,
    audit,
    reviews,
    reviewsRepo,
    routes: async (app: FastifyInstance) => {
      await app.register(registryRoutes({ admin, registration, audit }));
    },
  };
}
