/**
 * The radio's track source: what the live stream plays next, and what happens when listeners hear it.
 *
 *   stream asks next() -> (leader) plan topped up -> resolve the head slot (AI ready? else catalog) -> cue it
 *                      -> (follower without relay) the track the leader put on air
 *   stream takes over   -> resume(): the slot the last leader had on air, at the same sample
 *   listeners hear it   -> trackStarted(): mark on air, count the play, publish the now-playing card
 */
import type { Clock } from '../../infra/clock/clock.js';
import type { EventBus } from '../../infra/pubsub/event-bus.js';
import type { CatalogRepository } from '../../platform/catalog/catalog.repository.js';
import type { ConfigRepository, StationConfigRow } from '../admin/config.repository.js';
import { NOW_PLAYING_CHANNEL, type NowPlayingCard } from '../events/now-playing.js';
import type { StationEvents } from '../events/station-events.js';
import type { RegistryService } from '../registry/registry.service.js';
import type { SourceTrack, TrackSource } from '../stream/broadcaster.js';
import type { CardBuilder } from './cards.js';
import type { LeaderElection } from './leader.js';
import type { OnAirTrack } from './on-air.js';
import type { RadioPlanner } from './planning-cycle.js';
import type { SchedulerDeps } from './scheduler-deps.js';
import type { SlotResolver } from './slot-resolver.js';
import type { SlotRow, SlotsRepository } from './slots.repository.js';

export interface TrackSourceDeps {
  slots: SlotsRepository;
  config: Pick<ConfigRepository, 'get'>;
  resolver: Pick<SlotResolver, 'resolve' | 'standIn' | 'source' | 'readyTrack'>;
  /** The plan is topped up before and after each track is taken; AI slots fall back while the engine is down. */
  planner: Pick<RadioPlanner, 'cycle' | 'fallbackActive' | 'betweenCycles'>;
  /** Where the track put on air is recorded (the now-playing card, and when the next slots play). */
  onAir: Pick<OnAirTrack, 'put'>;
  registry: Pick<RegistryService, 'get' | 'countPlayback'>;
  catalog: Pick<CatalogRepository, 'findTrack' | 'recordPlay'>;
  cards: Pick<CardBuilder, 'forSlot'>;
  events: Pick<StationEvents, 'emit'>;
  bus: Pick<EventBus, 'publish'>;
  clock: Pick<Clock, 'now'>;
  leader: Pick<LeaderElection, 'isLeader'>;
  /** The station's total listener count, recorded with each play. */
  listeners: () => Promise<number>;
  recordPlay?: SchedulerDeps['recordPlay'];
  /** Where a start that could not be recorded, even late, is told. */
  log?: Pick<SchedulerDeps['log'], 'warn'>;
}

/** Starts kept while not leading: an outage of several tracks; older ones a leader has long recorded or replaced. */
const MAX_UNRECORDED = 16;
/** Tries of a start kept because recording it failed (the database out): a few cycles of the stream. */
const MAX_ATTEMPTS = 5;

export class RadioTrackSource implements TrackSource {
  /** The last on-air slot this (follower) instance's stream took. */
  private followed = 0;
  /**
   * The track starts this instance's stream announced while it did not lead (playing alone through a Redis
   * outage: no instance leads, so none records them) or while the database was out, in the order heard. Recorded once this instance leads,
   * before anything else: otherwise a slot that aired then stays cued for good while the ones after it start, or
   * a takeover returns it to the plan and it airs twice. More than one: an outage can outlast a track.
   */
  private unrecordedStarts: { slotId: string; startedAtMs: number; attempts: number }[] = [];

  constructor(private readonly deps: TrackSourceDeps) {}

  /** TrackSource: the stream asks for what plays next. Null keeps the stream silent (radio off, nothing ready). */
  async next(): Promise<SourceTrack | null> {
    const config = await this.deps.config.get();
    if (!config.radioEnabled) return null;
    if (!this.deps.leader.isLeader()) return this.follow(config);
    await this.recordUnrecordedStarts();
    await this.deps.planner.cycle();
    // The cycle may have waited out a Redis outage that cost this instance the lead: only a leader cues.
    if (!this.deps.leader.isLeader()) return this.follow(config);
    // Read, resolved and cued between cycles (planning-cycle.ts, betweenCycles): a cycle reading the plan meanwhile
    // would plan around the slot handed out before this one.
    const { head, cued } = await this.deps.planner.betweenCycles(async () => {
      const [head] = await this.deps.slots.planned();
      if (!head) return { head, cued: await this.deps.resolver.standIn(config) };
      return { head, cued: await this.deps.resolver.resolve(head, config, this.deps.planner.fallbackActive()) };
    });
    if (!head || !cued) return cued;
    void this.deps.planner.cycle();
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
   * TrackSource: this instance takes over the stream (live-stream.ts) and continues slot `id`, one the last
   * leader had on air where its frames end (`continued`: all of them, two inside a crossfade). Slots it had
   * cued beyond those never aired: they go back to the front of the plan, so nothing is skipped; a continued
   * slot keeps its start, so nothing is doubled.
   */
  async resume(id: string, continued: readonly string[] = [id]): Promise<SourceTrack | null> {
    const slotId = Number(id);
    if (!Number.isSafeInteger(slotId)) return null;
    const keep = [slotId, ...continued.map(Number).filter((other) => Number.isSafeInteger(other) && other !== slotId)];
    // What aired while no instance led is recorded first: returned to the plan, a slot that aired would air again.
    if (this.deps.leader.isLeader()) await this.recordUnrecordedStarts();
    await this.deps.slots.returnCued(keep);
    let slot = await this.deps.slots.find(slotId);
    // A slot a follower put on air alone while there was no leader (live-stream.ts) may still be planned: it is
    // cued with what that follower played (an AI slot's finished track, as plan-reader.ts read it).
    if (slot?.status === 'planned') slot = await this.deps.slots.cue(slotId, await this.aloneFields(slot));
    // The outgoing track of a crossfade is closed once the incoming one's start is recorded: it still airs its tail.
    const fadingOut = continued.length > 1 && continued[0] === id && slot?.status === 'played';
    if (!slot || (slot.status !== 'playing' && !fadingOut)) return null;
    if (slot.startedAt) {
      const card = await this.deps.cards.forSlot(slot);
      if (card) this.deps.onAir.put({ slot, card, startedAtMs: slot.startedAt.getTime() });
    }
    const source = await this.sourceOf(slot, await this.deps.config.get());
    // Not playable after all (its master is gone): if it never aired, it goes back to the plan as well.
    if (!source && !slot.startedAt) await this.deps.slots.returnCued(keep.slice(1));
    return source;
  }

  /** What cueing a planned slot records of the track a follower played alone in it. */
  private async aloneFields(slot: SlotRow): Promise<{ stationTrackId?: string; generationId?: string; durationSec?: number }> {
    if (slot.origin !== 'ai_generated' || slot.stationTrackId) return {};
    const ready = await this.deps.resolver.readyTrack(slot);
    return ready ? { stationTrackId: ready.record.stationTrackId, generationId: ready.generationId, durationSec: ready.record.durationSec } : {};
  }

  /**
   * The master of a slot that has one (also what a follower playing alone reads: plan-reader.ts); an AI slot not
   * resolved yet plays the finished track the leader would give it (read only).
   */
  async sourceOf(slot: SlotRow, config: StationConfigRow): Promise<SourceTrack | null> {
    if (slot.origin === 'ai_generated') {
      const record = slot.stationTrackId ? await this.deps.registry.get(slot.stationTrackId) : (await this.deps.resolver.readyTrack(slot))?.record;
      return record ? this.deps.resolver.source(slot, record.audioBlobKey, record.title, config) : null;
    }
    const track = slot.trackId ? await this.deps.catalog.findTrack(slot.trackId, 'live') : null;
    return track?.playoutAudioKey ? this.deps.resolver.source(slot, track.playoutAudioKey, track.title, config) : null;
  }

  /**
   * Records the starts this instance could not record when heard (it did not lead, or the database was out), in
   * order, all but `current`'s (recorded next). A slot its stream played alone from the plan is cued first, with
   * what it played (as a takeover cues it). The slots repository starts only a slot still cued, so one a leader
   * already started stays as it was. One that fails stays for the next call (a few times); none holds up the
   * others, nor the stream that asked for its next track.
   */
  private async recordUnrecordedStarts(current?: string): Promise<void> {
    for (const start of this.unrecordedStarts.slice()) {
      // Taken by a call running meanwhile (the stream's next track and a start may overlap).
      if (!this.unrecordedStarts.includes(start)) continue;
      this.unrecordedStarts = this.unrecordedStarts.filter((other) => other !== start);
      if (start.slotId === current) continue;
      try {
        const slot = await this.deps.slots.find(Number(start.slotId));
        if (slot?.status === 'planned') await this.deps.slots.cue(slot.id, await this.aloneFields(slot));
        await this.record(start.slotId, start.startedAtMs);
      } catch (error) {
        if (start.attempts < MAX_ATTEMPTS) this.unrecordedStarts.unshift({ ...start, attempts: start.attempts + 1 });
        this.deps.log?.warn({ err: error, slot: start.slotId }, 'recording a track start heard earlier failed');
      }
    }
  }

  /** A start to record once this instance leads and the database answers. */
  private remember(slotId: string, startedAtMs: number): void {
    // A takeover announces the start of the track it continues again: one entry a slot.
    const others = this.unrecordedStarts.filter((heard) => heard.slotId !== slotId);
    this.unrecordedStarts = [...others, { slotId, startedAtMs, attempts: 0 }].slice(-MAX_UNRECORDED);
  }

  /**
   * Listeners now hear the track (the stream's audible change); they heard its first sound at `startedAtMs`.
   * A start this instance cannot record now (it does not lead, or the database is out) is kept for later.
   */
  async trackStarted(slotId: string, startedAtMs: number): Promise<void> {
    if (!this.deps.leader.isLeader()) return this.remember(slotId, startedAtMs);
    try {
      await this.recordUnrecordedStarts(slotId);
      await this.record(slotId, startedAtMs);
    } catch (error) {
      this.remember(slotId, startedAtMs);
      throw error;
    }
  }

  /** Marks the slot on air, counts the play and publishes the card (a start recorded late: counted only). */
  private async record(slotId: string, startedAtMs: number): Promise<void> {
    const listeners = await this.deps.listeners().catch(() => 0);
    const slot = await this.deps.slots.start(Number(slotId), new Date(startedAtMs), listeners);
    if (!slot) return;
    const card = await this.deps.cards.forSlot(slot);
    if (!card) return;
    // Recorded late, after the slot that followed it started: it aired and counts, but is no longer on air.
    const onAir = slot.status === 'playing';
    if (onAir) this.deps.onAir.put({ slot, card, startedAtMs });
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
    if (!onAir) return;
    // The stream calls this when listeners hear the change; in a crossfade they heard its first sound earlier.
    const elapsed = Math.max(0, Math.min(card.duration_sec, Math.floor((this.deps.clock.now() - startedAtMs) / 1000)));
    const full: NowPlayingCard = { ...card, elapsed_sec: elapsed, started_at: new Date(startedAtMs).toISOString() };
    // The card to this station's sockets (the bus) and the event to webhooks (recorded in the database first)
    // fail apart: Redis down must not lose the webhook event, nor a database hiccup the card. The start itself is
    // recorded by now, so a failure here is reported, not thrown (a retry would find the slot started).
    // now_playing keeps emit() (recorded on its own, then published) rather than the transactional outbox: it is
    // raised when listeners hear the change, from the playout, not by a database change's transaction (the
    // start's record is written apart, and while no instance leads, late).
    const [published, emitted] = await Promise.allSettled([
      this.deps.bus.publish(NOW_PLAYING_CHANNEL, full),
      // Station events take a Record<string, unknown> payload; NowPlayingCard is an interface (no index signature).
      this.deps.events.emit('station.track.now_playing', full as unknown as Record<string, unknown>),
    ]);
    if (published.status === 'rejected') this.deps.log?.warn({ err: published.reason, slot: slotId }, 'publishing the now-playing card failed');
    if (emitted.status === 'rejected') this.deps.log?.warn({ err: emitted.reason, slot: slotId }, 'emitting the now-playing event failed');
    void this.deps.planner.cycle();
  }
}
