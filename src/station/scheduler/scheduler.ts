/**
 * The radio scheduler. The leader keeps at least QUEUE_TARGET slots planned (catalog or AI by the
 * configured ratio), starts AI generations `generation_lead_time` seconds before their slot, and hands the
 * stream its next track, replacing an AI slot whose generation failed, was blocked or is late with a
 * catalog track. When a track starts it counts the play and broadcasts the now-playing card.
 *
 *   cycle (every STATION_SCHEDULER_CYCLE_SEC, and at once on radio control messages)
 *     -> top up the plan -> start due generations -> rotate the context
 *   stream asks for the next track -> resolve the head slot (AI ready? else catalog) -> cue it
 *   listeners hear it (the stream's audible change) -> mark on air, count the play, publish the card
 */
import { isDomainError } from '../../errors.js';
import { TRACK_CHANGED_CHANNEL } from '../../platform/catalog/catalog.service.js';
import { isUuid } from '../../infra/db/ids.js';
import type { StationConfigRow } from '../admin/config.repository.js';
import { NOW_PLAYING_CHANNEL, RADIO_CONTROL_CHANNEL, type NowPlayingCard, type RadioStatus } from '../events/now-playing.js';
import type { SourceTrack, TrackSource } from '../stream/broadcaster.js';
import type { CardWithoutTiming } from './cards.js';
import { SlotResolver } from './slot-resolver.js';
import type { SchedulerDeps } from './scheduler-deps.js';
import { warmAnalyses } from './stream-source.js';
import { nextOrigin } from './slot-planner.js';
import { NO_AUDIO_MODEL, newRadioSessionId, type SlotRow } from './slots.repository.js';

export type { SchedulerDeps };

export const QUEUE_TARGET = 5;

interface OnAir {
  slot: SlotRow;
  card: CardWithoutTiming;
  startedAtMs: number;
}

export class RadioScheduler implements RadioStatus, TrackSource {
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => Promise<void>) | null = null;
  private running: Promise<void> = Promise.resolve();
  private onAir: OnAir | null = null;
  private lastCard: NowPlayingCard | null = null;
  private fallback = false;
  /** The last on-air slot this (follower) instance's stream took. */
  private followed = 0;

  private readonly slotResolver: SlotResolver;

  constructor(private readonly deps: SchedulerDeps) {
    this.slotResolver = new SlotResolver(deps);
  }

  async start(): Promise<void> {
    await this.deps.leader.start();
    if (this.deps.leader.isLeader()) await this.deps.slots.resetAfterRestart(this.deps.clock.date());
    const stopControl = await this.deps.bus.subscribe(RADIO_CONTROL_CHANNEL, (message) => void this.onControl(message));
    const stopCards = await this.deps.bus.subscribe(NOW_PLAYING_CHANNEL, (card) => (this.lastCard = card as NowPlayingCard));
    const stopTracks = await this.deps.bus.subscribe(TRACK_CHANGED_CHANNEL, (id) => void this.onTrackChanged(id));
    this.unsubscribe = async () => {
      await stopControl();
      await stopCards();
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
    await this.running.catch(() => undefined);
    await this.deps.leader.stop();
  }

  /** One scheduler cycle; cycles never overlap. */
  cycle(): Promise<void> {
    this.running = this.running.then(() => this.runCycle()).catch((error) => this.deps.log.error({ err: error }, 'scheduler cycle failed'));
    return this.running;
  }

  private async onControl(message: unknown): Promise<void> {
    const type = (message as { type?: string }).type;
    if (type === 'enable' && this.deps.leader.isLeader()) {
      const now = this.deps.clock.date();
      await this.deps.slots.updateState({ sessionId: newRadioSessionId(now), sessionStartedAt: now });
    }
    await this.cycle();
  }

  /** A catalog track changed (taken down, say): the leader drops its planned slots and tops the plan up, in cycle order. */
  private onTrackChanged(id: unknown): Promise<void> {
    if (typeof id !== 'string' || !isUuid(id)) return this.running;
    this.running = this.running
      .then(async () => {
        if (this.deps.leader.isLeader() && (await this.deps.slots.withdrawTrack(id)) > 0) await this.runCycle();
      })
      .catch((error) => this.deps.log.error({ err: error }, 'withdrawing a catalog track from the plan failed'));
    return this.running;
  }

  private async runCycle(): Promise<void> {
    if (!this.deps.leader.isLeader()) return;
    const config = await this.deps.config.get();
    await this.updateFallback();
    await this.deps.onLeaderCycle?.();
    if (!config.radioEnabled) return;
    await this.topUp(config);
    await this.startDueGenerations(config);
    void warmAnalyses(this.deps).catch((error) => this.deps.log.warn({ err: error }, 'measuring an upcoming master failed'));
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
      const track = await this.slotResolver.pick(config, taken, true);
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
    let etaSec = this.remainingOnAirSec();
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

  private remainingOnAirSec(): number {
    if (!this.onAir) return 0;
    const elapsed = (this.deps.clock.now() - this.onAir.startedAtMs) / 1000;
    return Math.max(0, (this.onAir.slot.durationSec ?? 0) - elapsed);
  }

  /** TrackSource: the stream asks for what plays next. Null keeps the stream silent (radio off, nothing ready). */
  async next(): Promise<SourceTrack | null> {
    const config = await this.deps.config.get();
    if (!config.radioEnabled) return null;
    if (!this.deps.leader.isLeader()) return this.follow(config);
    await this.cycle();
    // The cycle may have waited out a Redis outage that cost this instance the lead: only a leader cues.
    if (!this.deps.leader.isLeader()) return this.follow(config);
    const [head] = await this.deps.slots.planned();
    if (!head) return this.slotResolver.standIn(config);
    const cued = await this.slotResolver.resolve(head, config, this.fallback);
    if (!cued) return null;
    void this.cycle();
    return cued;
  }

  /**
   * On an instance that does not lead and has no Redis to relay the leader's stream (live-stream.ts), the
   * stream follows the leader's running order: it plays each track the leader put on air, from its start,
   * as soon as it sees it (within the stream's retry interval).
   */
  private async follow(config: StationConfigRow): Promise<SourceTrack | null> {
    const slot = await this.deps.slots.onAir();
    if (!slot || slot.id <= this.followed) return null;
    this.followed = slot.id;
    return this.sourceOf(slot, config);
  }

  /**
   * TrackSource: this instance takes over the stream (live-stream.ts) and continues slot `id`, the one the last
   * leader had on air where its frames end. Slots it had cued beyond that one never aired: they go back to
   * the front of the plan, so nothing is skipped; the continued slot keeps its start, so nothing is doubled.
   */
  async resume(id: string): Promise<SourceTrack | null> {
    const slotId = Number(id);
    if (!Number.isSafeInteger(slotId)) return null;
    await this.deps.slots.returnCued(slotId);
    let slot = await this.deps.slots.find(slotId);
    // A slot a follower put on air alone while there was no leader (live-stream.ts) may still be planned.
    if (slot?.status === 'planned') slot = await this.deps.slots.cue(slotId, {});
    if (!slot || slot.status !== 'playing') return null;
    if (slot.startedAt) {
      const card = await this.deps.cards.forSlot(slot);
      if (card) this.onAir = { slot, card, startedAtMs: slot.startedAt.getTime() };
    }
    const source = await this.sourceOf(slot, await this.deps.config.get());
    // Not playable after all (its master is gone): if it never aired, it goes back to the plan as well.
    if (!source && !slot.startedAt) await this.deps.slots.returnCued();
    return source;
  }

  /** The master of a slot that has one (also what a follower playing alone reads: PlanReader). */
  async sourceOf(slot: SlotRow, config: StationConfigRow): Promise<SourceTrack | null> {
    if (slot.origin === 'ai_generated' && slot.stationTrackId) {
      const record = await this.deps.registry.get(slot.stationTrackId);
      return this.slotResolver.source(slot, record.audioBlobKey, record.title, config);
    }
    const track = slot.trackId ? await this.deps.catalog.findTrack(slot.trackId, 'live') : null;
    return track?.audioBlobKey ? this.slotResolver.source(slot, track.audioBlobKey, track.title, config) : null;
  }

  /** Listeners now hear the track (the stream's audible change); they heard its first sound at `startedAtMs`. */
  async trackStarted(slotId: string, startedAtMs: number): Promise<void> {
    if (!this.deps.leader.isLeader()) return;
    const listeners = await this.deps.listeners().catch(() => 0);
    const slot = await this.deps.slots.start(Number(slotId), new Date(startedAtMs), listeners);
    if (!slot) return;
    const card = await this.deps.cards.forSlot(slot);
    if (!card) return;
    this.onAir = { slot, card, startedAtMs };
    if (slot.origin === 'ai_generated' && slot.stationTrackId) await this.deps.registry.countPlayback(slot.stationTrackId);
    else if (slot.trackId) await this.deps.catalog.recordPlay({ trackId: slot.trackId, userId: null, source: 'radio', sessionId: slot.sessionId });
    await this.deps.recordPlay?.({
      origin: slot.origin,
      trackId: slot.origin === 'catalog' ? slot.trackId : null,
      stationTrackId: slot.origin === 'ai_generated' ? slot.stationTrackId : null,
      sessionId: slot.sessionId,
      startedAt: new Date(startedAtMs),
      durationSec: card.duration_sec,
      listenerCount: listeners,
    });
    // The stream calls this when listeners hear the change; in a crossfade they heard its first sound earlier.
    const elapsed = Math.max(0, Math.min(card.duration_sec, Math.floor((this.deps.clock.now() - startedAtMs) / 1000)));
    const full: NowPlayingCard = { ...card, elapsed_sec: elapsed, started_at: new Date(startedAtMs).toISOString() };
    await this.deps.bus.publish(NOW_PLAYING_CHANNEL, full);
    // Station events take a Record<string, unknown> payload; NowPlayingCard is an interface (no index signature).
    await this.deps.events.emit('station.track.now_playing', full as unknown as Record<string, unknown>);
    void this.cycle();
  }

  /** The card of what is on air now, with elapsed time; null when nothing plays. */
  async nowPlaying(): Promise<NowPlayingCard | null> {
    const config = await this.deps.config.get();
    const card = this.onAir ? { ...this.onAir.card, started_at: new Date(this.onAir.startedAtMs).toISOString() } : this.lastCard;
    if (!card) return null;
    const startedAtMs = Date.parse(card.started_at);
    const elapsed = Math.floor((this.deps.clock.now() - startedAtMs) / 1000);
    if (elapsed > card.duration_sec + 5 && !config.radioEnabled) return null;
    return { ...card, elapsed_sec: Math.max(0, Math.min(card.duration_sec, elapsed)) };
  }

  /** GET /scheduler/next-track?source=catalog: the catalog track the picker would choose now (the queue is not changed). */
  async suggestCatalogTrack() {
    return this.slotResolver.suggest(await this.deps.config.get());
  }

  async upcoming(): Promise<SlotRow[]> {
    return (await this.deps.slots.planned()).slice(0, QUEUE_TARGET);
  }

  // RadioStatus (module A's status)
  async currentTrack() {
    const card = await this.nowPlaying();
    if (!card) return null;
    return {
      station_track_id: card.station_track_id,
      track_origin: card.track_origin,
      title: card.title,
      progress_pct: card.duration_sec > 0 ? Math.round((card.elapsed_sec / card.duration_sec) * 100) : 0,
    };
  }

  async queueDepth(): Promise<number> {
    return (await this.deps.slots.planned()).length;
  }

  listenerCount(): Promise<number> {
    return this.deps.listeners();
  }

  async fallbackActive(): Promise<boolean> {
    return this.fallback;
  }
}
