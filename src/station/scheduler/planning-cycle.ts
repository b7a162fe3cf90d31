/**
 * The radio's planning cycle, run by the leader: it keeps QUEUE_TARGET slots planned (catalog or AI by the
 * configured ratio, slot-planner.ts), starts AI generations `generation_lead_time` seconds before their
 * slot, notes whether the ML engine is down (fallback mode) and measures the next masters ahead of air.
 *
 *   every STATION_SCHEDULER_CYCLE_SEC, at once on radio control messages, and when the stream takes a track
 *     -> fallback? -> extra leader work (context rotation) -> top up the plan -> start due generations
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Engine } from '../../engine/engine.js';
import { isDomainError } from '../../errors.js';
import type { Clock } from '../../infra/clock/clock.js';
import { isUuid } from '../../infra/db/ids.js';
import type { EventBus } from '../../infra/pubsub/event-bus.js';
import { TRACK_CHANGED_CHANNEL } from '../../platform/catalog/catalog.service.js';
import type { ConfigRepository, StationConfigRow } from '../admin/config.repository.js';
import { RADIO_CONTROL_CHANNEL } from '../events/now-playing.js';
import type { GenerationService } from '../generation/generation.service.js';
import type { ModelStore } from '../models/model-store.js';
import type { CatalogChoice } from './catalog-choice.js';
import type { CatalogRadioReads } from './catalog-reads.js';
import type { LeaderElection } from './leader.js';
import { QUEUE_TARGET, nextOrigin } from './slot-planner.js';
import { NO_AUDIO_MODEL, newRadioSessionId, type SlotRow, type SlotsRepository } from './slots.repository.js';
import type { OnAirTrack } from './on-air.js';
import { warmAnalyses, type WarmDeps } from './stream-source.js';

export interface PlannerDeps {
  slots: SlotsRepository;
  config: Pick<ConfigRepository, 'get'>;
  models: Pick<ModelStore, 'production'>;
  generations: Pick<GenerationService, 'create' | 'lyricsDeployed'>;
  /** Its health only: down means fallback mode. */
  engine: Pick<Engine, 'health'>;
  catalogChoice: Pick<CatalogChoice, 'pick' | 'suggest'>;
  /** The catalog's read port: whether a changed track can still play. */
  catalogReads: Pick<CatalogRadioReads, 'playable'>;
  /** What is on air decides when the planned slots play (and so when their generations are due). */
  onAir: Pick<OnAirTrack, 'remainingSec'>;
  /** The masters of the next slots, measured ahead of air. */
  warm: WarmDeps;
  bus: Pick<EventBus, 'subscribe'>;
  clock: Clock;
  leader: Pick<LeaderElection, 'isLeader'>;
  log: FastifyBaseLogger;
  cycleSec: number;
  /** Extra work the leader does each cycle (context rotation). */
  onLeaderCycle?: () => Promise<void>;
}

export class RadioPlanner {
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => Promise<void>) | null = null;
  private running: Promise<void> = Promise.resolve();
  private fallback = false;
  /** Whether this instance led at the last cycle (for the log). */
  private leading = false;

  constructor(private readonly deps: PlannerDeps) {}

  async start(): Promise<void> {
    const stopControl = await this.deps.bus.subscribe(RADIO_CONTROL_CHANNEL, (message) => void this.onControl(message));
    const stopTracks = await this.deps.bus.subscribe(TRACK_CHANGED_CHANNEL, (id) => void this.onTrackChanged(id));
    this.unsubscribe = async () => {
      await stopControl();
      await stopTracks();
    };
    this.timer = setInterval(() => void this.cycle(), this.deps.cycleSec * 1000);
    this.timer.unref();
    await this.cycle();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.unsubscribe?.();
    this.unsubscribe = null;
    await this.running.catch(() => undefined);
  }

  /** Whether the ML engine was down at the last cycle: AI slots then fall back at play time. */
  fallbackActive(): boolean {
    return this.fallback;
  }

  /** One planning cycle; cycles never overlap. */
  cycle(): Promise<void> {
    this.running = this.running.then(() => this.runCycle()).catch((error) => this.deps.log.error({ err: error }, 'scheduler cycle failed'));
    return this.running;
  }

  /**
   * Runs `work` between planning cycles, never beside one: the stream's pick of what plays next reads and
   * changes the running order too. A cycle beside it read the plan and the slot handed out before the stream
   * took its track, and planned that same track next (a stand-in and the following slot, back to back).
   */
  betweenCycles<T>(work: () => Promise<T>): Promise<T> {
    const done = this.running.then(work);
    this.running = done.then(
      () => undefined,
      () => undefined,
    );
    return done;
  }

  /** GET /scheduler/next-track?source=catalog: the catalog track the picker would choose now (the plan is not changed). */
  async suggestCatalogTrack() {
    return this.deps.catalogChoice.suggest(await this.deps.config.get());
  }

  private async onControl(message: unknown): Promise<void> {
    const type = (message as { type?: string }).type;
    if (type === 'enable' && this.deps.leader.isLeader()) {
      const now = this.deps.clock.date();
      // The database may be out (a bus message needs only Redis): logged, never an unhandled rejection.
      await this.deps.slots
        .updateState({ sessionId: newRadioSessionId(now), sessionStartedAt: now })
        .catch((error) => this.deps.log.error({ err: error }, 'starting a new radio session failed'));
    }
    await this.cycle();
  }

  /** A catalog track changed (taken down, say): the leader drops its planned slots and tops the plan up, in cycle order. */
  private onTrackChanged(id: unknown): Promise<void> {
    if (typeof id !== 'string' || !isUuid(id)) return this.running;
    this.running = this.running
      .then(async () => {
        if (!this.deps.leader.isLeader() || (await this.deps.catalogReads.playable(id))) return;
        if ((await this.deps.slots.withdrawTrack(id)) > 0) await this.runCycle();
      })
      .catch((error) => this.deps.log.error({ err: error }, 'withdrawing a catalog track from the plan failed'));
    return this.running;
  }

  private async runCycle(): Promise<void> {
    const leading = this.deps.leader.isLeader();
    // Logged where the lead moves (a restart, a Redis outage, a dead leader): what an operator asks first.
    if (leading !== this.leading) this.deps.log.info({ leader: leading }, leading ? 'scheduler: this instance leads' : 'scheduler: another instance leads');
    this.leading = leading;
    if (!leading) return;
    const config = await this.deps.config.get();
    await this.updateFallback();
    await this.deps.onLeaderCycle?.();
    if (!config.radioEnabled) return;
    await this.topUp(config);
    await this.startDueGenerations(config);
    void warmAnalyses(this.deps.warm).catch((error) => this.deps.log.warn({ err: error }, 'measuring an upcoming master failed'));
  }

  private async updateFallback(): Promise<void> {
    const health = await this.deps.engine.health().catch(() => ({ status: 'down' as const }));
    const fallback = health.status === 'down';
    if (fallback !== this.fallback) {
      this.fallback = fallback;
      await this.deps.slots.updateState({ fallbackActive: fallback });
      this.deps.log.warn({ fallback }, fallback ? 'ML engine down: fallback mode' : 'ML engine back: normal mode');
    }
  }

  /**
   * Keeps QUEUE_TARGET slots planned; catalog slots get their track now, AI slots a generation when due.
   * A catalog slot never repeats a track already planned or just handed out, so while few masters are
   * playable the queue stays shorter (or AI takes the place, once an audio model exists) instead of
   * queueing the same track again.
   */
  private async topUp(config: StationConfigRow): Promise<void> {
    const hasAudioModel = (await this.deps.models.production('audio')) !== null;
    const catalogOnly = config.generationMode === 'catalog_only' || (this.fallback && config.fallbackMode === 'catalog_only');
    if (hasAudioModel && !catalogOnly) await this.restoreAiSlots(config);
    const planned = await this.deps.slots.planned();
    if (planned.length >= QUEUE_TARGET) return;
    const state = await this.deps.slots.state(this.deps.clock.date());
    let credit = state.aiCredit;
    const last = await this.deps.slots.lastHandedOut();
    const taken = [...(last?.trackId ? [last.trackId] : []), ...planned.map((s) => s.trackId).filter((id): id is string => !!id)];
    for (let i = planned.length; i < QUEUE_TARGET; i++) {
      let origin: SlotRow['origin'] = 'catalog';
      if (!catalogOnly && config.generationMode === 'ai_only') origin = 'ai_generated';
      else if (!catalogOnly) ({ origin, credit } = nextOrigin(credit, config.aiGenerationRatio));
      if (origin === 'ai_generated' && hasAudioModel) {
        await this.deps.slots.insert({ origin, sessionId: state.sessionId, durationSec: config.maxTrackLengthSec });
        continue;
      }
      const track = await this.deps.catalogChoice.pick(config, taken, { strict: true });
      if (!track) {
        // Every playable master is planned or just played: AI fills the gap when it can, else wait for more.
        if (hasAudioModel && !catalogOnly) {
          await this.deps.slots.insert({
            origin: 'ai_generated',
            sessionId: state.sessionId,
            durationSec: config.maxTrackLengthSec,
            replacedReason: 'few catalog tracks playable',
          });
          continue;
        }
        break;
      }
      taken.push(track.id);
      await this.deps.slots.insert({
        origin: 'catalog',
        trackId: track.id,
        sessionId: state.sessionId,
        durationSec: track.durationSec,
        replacedReason: origin === 'ai_generated' ? NO_AUDIO_MODEL : null,
      });
    }
    if (credit !== state.aiCredit) await this.deps.slots.updateState({ aiCredit: credit });
  }

  /** Catalog tracks planned in AI's place before an audio model existed become AI slots again once one does. */
  private async restoreAiSlots(config: StationConfigRow): Promise<void> {
    for (const slot of await this.deps.slots.planned()) {
      if (slot.origin === 'catalog' && slot.replacedReason === NO_AUDIO_MODEL) {
        await this.deps.slots.update(slot.id, { origin: 'ai_generated', trackId: null, durationSec: config.maxTrackLengthSec, replacedReason: null });
      }
    }
  }

  /** Starts generations for AI slots that will play within generation_lead_time seconds. */
  private async startDueGenerations(config: StationConfigRow): Promise<void> {
    if (this.fallback) return; // the engine is down: AI slots fall back at play time
    let etaSec = this.deps.onAir.remainingSec();
    const state = await this.deps.slots.state(this.deps.clock.date());
    // The radio never waits for a lyrics model: until one is deployed its AI tracks are instrumental.
    let sing: boolean | null = null;
    for (const slot of await this.deps.slots.planned()) {
      if (slot.origin === 'ai_generated' && !slot.generationId && etaSec <= config.generationLeadTime) {
        sing ??= config.lyricsGeneration && (await this.deps.generations.lyricsDeployed());
        try {
          const generation = await this.deps.generations.create(
            {
              max_duration_sec: config.maxTrackLengthSec,
              quality: config.streamQuality,
              include_lyrics: sing,
              session_id: state.sessionId,
            },
            'scheduler',
          );
          await this.deps.slots.update(slot.id, { generationId: generation.generation_id });
        } catch (error) {
          // At the in-flight limit: try again next cycle. Anything else is logged; the slot falls back at play time.
          if (isDomainError(error, 'RATE_LIMITED')) break;
          this.deps.log.warn({ err: error, slot: slot.id }, 'could not start generation for AI slot');
        }
      }
      etaSec += slot.durationSec ?? config.maxTrackLengthSec;
    }
  }
}
