/**
 * What the radio module hands the scheduler's factory (scheduler.ts). The factory gives each part (planner,
 * track source, status view, slot resolver) only the ports it uses, each part declaring them as its own deps.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Engine } from '../../engine/engine.js';
import type { BlobStore } from '../../infra/blobs/blob-store.js';
import type { Clock } from '../../infra/clock/clock.js';
import type { EventBus } from '../../infra/pubsub/event-bus.js';
import type { ConfigRepository } from '../admin/config.repository.js';
import type { ContextService } from '../context/context.service.js';
import type { StationEvents } from '../events/station-events.js';
import type { GenerationRepository } from '../generation/generation.repository.js';
import type { GenerationService } from '../generation/generation.service.js';
import type { ModelStore } from '../models/model-store.js';
import type { RegistryService } from '../registry/registry.service.js';
import type { PlayoutAnalyses } from '../stream/playout-analyses.js';
import type { CardBuilder } from './cards.js';
import type { CatalogPlayout, CatalogRadioReads } from './catalog-reads.js';
import type { LeaderElection } from './leader.js';
import type { SlotsRepository } from './slots.repository.js';

export interface SchedulerDeps {
  slots: SlotsRepository;
  config: ConfigRepository;
  contexts: ContextService;
  generations: GenerationService;
  generationRepo: GenerationRepository;
  models: ModelStore;
  registry: RegistryService;
  /** The catalog's playout port: a published track as the stream airs it, and each airing's play event. */
  catalog: CatalogPlayout;
  /** The catalog's read port: what the radio may play, whether a track still can. */
  catalogReads: CatalogRadioReads;
  blobs: BlobStore;
  cards: CardBuilder;
  events: StationEvents;
  bus: EventBus;
  engine: Engine;
  clock: Clock;
  leader: LeaderElection;
  log: FastifyBaseLogger;
  cycleSec: number;
  /** The station's total listener count (stream and WebSocket listeners of every instance). */
  listeners: () => Promise<number>;
  /** Extra work the leader does each cycle (context rotation). */
  onLeaderCycle?: () => Promise<void>;
  /** The playout's measurements of each master (loudness, sound edges), cached. */
  analyses: PlayoutAnalyses;
  /** Records a play for module G's session aggregates. */
  recordPlay?: (play: {
    origin: 'catalog' | 'ai_generated';
    trackId?: string | null;
    stationTrackId?: string | null;
    sessionId: string | null;
    startedAt: Date;
    durationSec: number;
    listenerCount: number;
  }) => Promise<void>;
}
