/**
 * Module F (lyrics) for the composition root: the service behind /station/v1/generate/lyrics, which the
 * generation runner also calls for a track's words, and its routes.
 */
import type { FastifyInstance } from 'fastify';
import type { Engine } from '../../engine/engine.js';
import type { Clock } from '../../infra/clock/clock.js';
import type { Db } from '../../infra/db/client.js';
import type { ConfigRepository } from '../admin/config.repository.js';
import type { StationEvents } from '../events/station-events.js';
import type { ModelAvailability } from '../models/model-availability.js';
import type { ModelStore } from '../models/model-store.js';
import type { SafetyReferenceStore } from '../safety/safety-reference.js';
import { LyricsRepository, type SessionGenerationIds } from './lyrics.repository.js';
import { LyricsService, type GenerationExists, type PlatformArtistsRead } from './lyrics.service.js';
import { lyricsRoutes } from './routes.js';

export interface LyricsModuleDeps {
  db: Db;
  engine: Engine;
  models: ModelStore;
  safetyReference: SafetyReferenceStore;
  /** The station's configuration: whether lyrics generation is on, whether explicit words are allowed. */
  stationConfig: ConfigRepository;
  events: StationEvents;
  clock: Clock;
  /** Whether a lyrics model is deployed, or one is coming (lyrics then wait for it). */
  availability: ModelAvailability;
  /** The catalog's read port: the platform's own artists a request names as its style. */
  catalog: PlatformArtistsRead;
  /** Module E's read port: whether a generation exists (made before module E, which is built after this one). */
  generationExists: GenerationExists;
  /** Module E's read port: the ids of a session's generations, as a subquery (a session's latest songs in one query). */
  sessionGenerationIds: SessionGenerationIds;
}

export function buildLyricsModule(deps: LyricsModuleDeps) {
  const repo = new LyricsRepository(deps.db, deps.sessionGenerationIds);
  const service = new LyricsService(
    repo,
    deps.engine,
    deps.models,
    deps.safetyReference,
    deps.stationConfig,
    deps.events,
    deps.clock,
    deps.availability,
    deps.catalog,
    deps.generationExists,
  );
  return {
    service,
    /** Read port for the registry: a lyric's record (its words and the model that wrote them). */
    records: { find: (lyricId: string) => repo.find(lyricId) },
    /** Read port for the transparency panel: a lyric's words in the order they are sung. */
    sungLyrics: (lyricId: string) => repo.sungSections(lyricId),
    routes: async (app: FastifyInstance) => {
      await app.register(lyricsRoutes(service));
    },
  };
}

export type LyricsModule = ReturnType<typeof buildLyricsModule>;
