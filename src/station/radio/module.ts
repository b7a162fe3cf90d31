/**
 * The radio: scheduler (leader-elected), the live stream, and module H. Built by modules.ts.
 *
 *   scheduler.source --next()--> StreamBroadcaster (playout: decode, normalise, crossfade, encode once)
 *        ^                         |     --frames--> every /station/v1/radio/stream listener
 *        |                         |     --frames--> the bus, for followers' listeners (with Redis)
 *        +---- trackStarted() -----+  (heard: count the play, publish the now-playing card)
 */
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { LiveAccess } from '../../auth/connection-guard.js';
import type { Config } from '../../config.js';
import type { Engine } from '../../engine/engine.js';
import type { BlobStore } from '../../infra/blobs/blob-store.js';
import type { UrlSigner } from '../../infra/blobs/url-signer.js';
import type { Clock } from '../../infra/clock/clock.js';
import type { Db } from '../../infra/db/client.js';
import type { EventBus } from '../../infra/pubsub/event-bus.js';
import { loadOrCreateSecret } from '../../infra/secrets.js';
import type { ConfigRepository } from '../admin/config.repository.js';
import type { ContextService } from '../context/context.service.js';
import type { StationEvents } from '../events/station-events.js';
import type { GenerationRepository } from '../generation/generation.repository.js';
import type { GenerationService } from '../generation/generation.service.js';
import type { ModelStore } from '../models/model-store.js';
import type { RegistryService } from '../registry/registry.service.js';
import type { PlaysRepository } from '../registry/plays.repository.js';
import type { SafetyReviewService } from '../registry/safety-review.service.js';
import { CardBuilder } from '../scheduler/cards.js';
import type { CatalogPlayout, CatalogRadioReads } from '../scheduler/catalog-reads.js';
import { PgAdvisoryLeader, RedisLeader, SingleProcessLeader, type LeaderElection } from '../scheduler/leader.js';
import { buildRadioScheduler } from '../scheduler/scheduler.js';
import { SlotsRepository } from '../scheduler/slots.repository.js';
import type { RadioControlMessage } from '../admin/config.service.js';
import { RADIO_CONTROL_CHANNEL, STREAM_RELAY_CHANNEL } from '../events/now-playing.js';
import { HLS_BLOB_PREFIX, HLS_PATH, RadioService, STREAM_PATH, type LiveCatalogCheck } from './radio.service.js';
import { FeedbackRepository } from './feedback.repository.js';
import { radioRoutes } from './routes.js';
import { StreamBroadcaster } from '../stream/broadcaster.js';
import { LiveStream } from '../stream/live-stream.js';
import { streamRoute, type StreamGrant } from '../stream/stream-route.js';
import { HlsSegmenter } from '../stream/hls-segmenter.js';
import { hlsRoutes } from '../stream/hls-route.js';
import { HlsListeners } from '../stream/hls-listeners.js';
import { Errors } from '../../errors.js';
import { STREAM_TICKET_TTL_SEC, StreamTickets } from './stream-tickets.js';
import { ListeningSessionsRepository } from './listening-sessions.repository.js';
import type { EmailVerifiedCheck } from '../../auth/email-verification.js';
import { allOf, HeardOnAir, VerifiedAddress } from './reporter-eligibility.js';
import { PlayoutAnalyses, type MeasuredLoudnessFill } from '../stream/playout-analyses.js';
import { listenerKeyOf, type ListenerPresence } from '../realtime/listener-presence.js';

/** Any fixed number: the advisory lock key of the scheduler leader on PostgreSQL. */
const SCHEDULER_LOCK_KEY = 7_246_010;
/** How far ahead of the send edge followers hold the leader's timeline (live-stream.ts). */
const RELAY_AHEAD_MS = 6_000;
/** A segment lives ~30 s (window and keep); its link a little longer (the signer rounds it up to a stable step). */
const HLS_SEGMENT_LINK_SEC = 120;

export interface RadioModuleDeps {
  config: Config;
  db: Db;
  bus: EventBus;
  blobs: BlobStore;
  signer: UrlSigner;
  clock: Clock;
  engine: Engine;
  events: StationEvents;
  stationConfig: ConfigRepository;
  contexts: ContextService;
  generations: GenerationService;
  generationRepo: GenerationRepository;
  models: ModelStore;
  registry: RegistryService;
  plays: PlaysRepository;
  /** Module G's safety review: listener reports go there. */
  reviews: SafetyReviewService;
  /** Resolves a listener ticket's credential, counts its open streams and ends them when the credential ends. */
  access: LiveAccess;
  /** Each stream listener is a listener of the station (counted once with their other connections). */
  presence: Pick<ListenerPresence, 'enter'>;
  /** Whether a reporter's e-mail address is verified (only such reports count toward withholding a track). */
  verified: EmailVerifiedCheck;
  /** The station-wide listener total (every instance's streams and WebSockets), recorded with each play. */
  listenerTotal: () => Promise<number>;
  /**
   * The catalog's port: whether a rated track is published in the live catalog; what the scheduler may play; the
   * loudness the playout measured for tracks never measured.
   */
  catalogTracks: LiveCatalogCheck & CatalogRadioReads & MeasuredLoudnessFill;
  /** The catalog's playout port: a published live track as the stream airs it, and the play each airing records. */
  catalogPlayout: CatalogPlayout;
  log: FastifyBaseLogger;
}

function chooseLeader(config: Config): LeaderElection {
  if (config.redisUrl) return new RedisLeader(config.redisUrl, `${config.redisPrefix}:scheduler-leader`);
  if (config.databaseUrl) return new PgAdvisoryLeader(config.databaseUrl, SCHEDULER_LOCK_KEY);
  return new SingleProcessLeader();
}

export function buildRadioModule(deps: RadioModuleDeps) {
  const { config, db, log } = deps;
  const leader = chooseLeader(config);
  const slots = new SlotsRepository(db);
  const cards = new CardBuilder(deps.catalogTracks, deps.registry, deps.signer);
  let stopControl: (() => Promise<void> | void) | null = null;

  const scheduler = buildRadioScheduler({
    slots,
    config: deps.stationConfig,
    contexts: deps.contexts,
    generations: deps.generations,
    generationRepo: deps.generationRepo,
    models: deps.models,
    registry: deps.registry,
    catalog: deps.catalogPlayout,
    catalogReads: deps.catalogTracks,
    blobs: deps.blobs,
    cards,
    events: deps.events,
    bus: deps.bus,
    engine: deps.engine,
    clock: deps.clock,
    leader,
    log,
    cycleSec: config.schedulerCycleSec,
    listeners: deps.listenerTotal,
    analyses: new PlayoutAnalyses(db, deps.blobs, deps.catalogTracks),
    recordPlay: async (play) => {
      const common = { sessionId: play.sessionId, startedAt: play.startedAt, durationSec: play.durationSec, listenerCount: play.listenerCount };
      if (play.origin === 'ai_generated' && play.stationTrackId)
        await deps.plays.recordPlay({ ...common, origin: 'ai_generated', stationTrackId: play.stationTrackId });
      else if (play.origin === 'catalog' && play.trackId) await deps.plays.recordPlay({ ...common, origin: 'catalog', trackId: play.trackId });
    },
  });
  const onStreamError = (error: unknown, context: string) => log.error({ err: error }, `stream: ${context}`);
  // With Redis, the leader hands followers its frames RELAY_AHEAD_MS before they are due: what carries their
  // listeners through a failover (the lease moves in 2-4 s, the new leader resumes in well under a second).
  const broadcaster = new StreamBroadcaster(scheduler.source, { bitrateKbps: 128, onError: onStreamError, relayAheadMs: config.redisUrl ? RELAY_AHEAD_MS : 0 });
  // A start the database cannot record (it is out) is logged; an unhandled rejection would end the process.
  broadcaster.onTrackStart(
    (slotId, startedAtMs) =>
      void scheduler.source.trackStarted(slotId, startedAtMs).catch((error) => log.error({ err: error, slot: slotId }, 'recording a track start failed')),
  );
  // With Redis, followers serve the leader's encoded frames; without it each instance renders its own.
  // A follower cut off from the leader's frames (Redis down) plays on alone from the running order, read only.
  const stream = new LiveStream({
    broadcaster,
    bus: deps.bus,
    leader,
    relay: !!config.redisUrl,
    channel: STREAM_RELAY_CHANNEL,
    alone: scheduler.alone,
    onError: onStreamError,
  });
  // HLS: the leader (or the single instance) cuts its timeline into segments in the blob store; any instance serves them.
  const segmenter = new HlsSegmenter({ blobs: deps.blobs, prefix: HLS_BLOB_PREFIX, leadMs: broadcaster.leadMs, onError: onStreamError });
  broadcaster.onChunk((chunk) => {
    if (leader.isLeader()) void segmenter.push(chunk);
  });
  const tickets = new StreamTickets(loadOrCreateSecret(config.dataDir, 'stream-tickets', null), deps.clock);
  const listening = new ListeningSessionsRepository(db);
  // Whose listener reports count: a verified address that was listening while the track was on air.
  const eligibility = allOf(new VerifiedAddress(deps.verified), new HeardOnAir(deps.plays, listening));
  const radio = new RadioService(
    new FeedbackRepository(db),
    { aiTracks: deps.registry, generations: deps.generationRepo, catalog: deps.catalogTracks },
    scheduler.status,
    slots,
    cards,
    deps.stationConfig,
    tickets,
    deps.reviews,
    config.publicBaseUrl,
    eligibility,
    listening,
    deps.clock,
  );

  /**
   * A valid ticket of a credential that still works and still holds station:read, with one of the credential's
   * stream slots free (429 otherwise); the stream ends with the credential and is a listener while it lasts.
   */
  async function authorizeListener(request: FastifyRequest): Promise<boolean | StreamGrant> {
    const credentialId = tickets.verify((request.query as { ticket?: string }).ticket);
    if (credentialId === null) return false;
    const principal = await deps.access.principalOf(credentialId);
    if (!principal?.scopes.has('station:read')) return false;
    const releaseSlot = await deps.access.admit('stream', principal);
    return {
      hold: (end) => {
        const unhold = deps.access.hold(principal, 'station:read', end);
        const listener = listenerKeyOf(principal);
        const leave = deps.presence.enter(listener);
        // The listening session: open until the stream closes, bounded by a ticket's lifetime meanwhile.
        const opened = deps.clock.date();
        const session = listening.record(listener, 'stream', opened, new Date(opened.getTime() + STREAM_TICKET_TTL_SEC * 1000));
        session.catch((error) => log.warn({ err: error }, 'listening session not recorded'));
        return () => {
          unhold();
          leave();
          releaseSlot();
          void session.then((id) => listening.end(id, deps.clock.date())).catch((error) => log.warn({ err: error }, 'listening session not closed'));
        };
      },
    };
  }

  /** An HLS request: a valid ticket of a credential that still works and holds station:read; its holder is a listener for a while. */
  const hlsListeners = new HlsListeners(deps.presence);
  async function authorizeHls(request: FastifyRequest, counts: boolean): Promise<void> {
    const credentialId = tickets.verify((request.query as { ticket?: string }).ticket);
    if (credentialId === null) throw Errors.authRequired('the HLS stream needs a listener ticket (hls_url of stream-info)');
    const principal = await deps.access.principalOf(credentialId);
    if (!principal) throw Errors.authRequired("the ticket's credential has ended");
    if (!principal.scopes.has('station:read')) throw Errors.insufficientScope('station:read');
    if (counts) hlsListeners.seen(listenerKeyOf(principal));
  }

  return {
    scheduler,
    slots,
    /**
     * True while the radio waits for its first AI track: no generation has completed yet (module E's read port),
     * and one is queued or rendering, or an AI slot (or a catalog slot holding an AI slot's place) is planned.
     */
    awaitingFirstAiTrack: async (): Promise<boolean> => {
      const outlook = await deps.generationRepo.firstTrackOutlook();
      if (outlook !== 'none') return outlook === 'rendering';
      return slots.aiSlotPlanned();
    },
    broadcaster,
    stream,
    radio,
    leader,
    routes: async (app: FastifyInstance) => {
      await app.register(radioRoutes(radio, scheduler.planner, deps.signer));
      await app.register(streamRoute(broadcaster, { path: STREAM_PATH, name: 'Station', authorize: authorizeListener }));
      await app.register(
        hlsRoutes(deps.blobs, {
          basePath: HLS_PATH,
          prefix: HLS_BLOB_PREFIX,
          authorize: authorizeHls,
          // Presigned links: segments straight from the object store (or its CDN), one URL for every listener.
          segmentLink: config.mediaLinks.mode === 'presigned' ? (key) => deps.signer.sign(key, HLS_SEGMENT_LINK_SEC).url : undefined,
        }),
      );
    },
    start: async () => {
      // Every instance's stream hears a switch-off: what is already on the stream's timeline (the track on
      // air, and one it may be crossfading into) completes, the one loaded ahead is dropped, and the leader
      // puts its slot back in the plan (again on switch-on, for a load that raced).
      stopControl = await deps.bus.subscribe(RADIO_CONTROL_CHANNEL, (message) => {
        const type = (message as Partial<RadioControlMessage>).type;
        if (type === 'disable') broadcaster.dropUpcoming();
        if ((type === 'disable' || type === 'enable') && leader.isLeader()) {
          void slots.returnCued().catch((error) => log.error({ err: error }, 'could not return the cued slot to the plan'));
        }
      });
      await scheduler.start();
      // The first track may not exist yet (a fresh demo is still rendering): the stream plays silence and asks again.
      void stream.start().catch((error) => log.error({ err: error }, 'stream failed to start'));
    },
    stop: async () => {
      await stopControl?.();
      await stream.stop();
      hlsListeners.stop();
      await scheduler.stop();
    },
  };
}
