/**
 * The radio's status read model: the card on air (with the time elapsed), the slots planned next, the
 * listener count and the fallback flag, for module H's listener API, module A's status and the WebSocket feed.
 * The leader's track source records each track it puts on air (on-air.ts); every instance also hears the
 * cards the leader publishes on the bus, and shows the newest start it knows of.
 */
import type { Clock } from '../../infra/clock/clock.js';
import type { EventBus } from '../../infra/pubsub/event-bus.js';
import type { ConfigRepository } from '../admin/config.repository.js';
import { NOW_PLAYING_CHANNEL, type NowPlayingCard, type RadioStatus } from '../events/now-playing.js';
import type { RadioPlanner } from './planning-cycle.js';
import type { OnAirTrack } from './on-air.js';
import { QUEUE_TARGET } from './slot-planner.js';
import type { SlotRow, SlotsRepository } from './slots.repository.js';

export interface StatusViewDeps {
  config: Pick<ConfigRepository, 'get'>;
  slots: Pick<SlotsRepository, 'planned'>;
  bus: Pick<EventBus, 'subscribe'>;
  clock: Pick<Clock, 'now'>;
  /** What this instance put on air as leader. */
  onAir: Pick<OnAirTrack, 'get'>;
  /** Whether the planner is in fallback mode (the ML engine down). */
  planner: Pick<RadioPlanner, 'fallbackActive'>;
  /** The station's total listener count (stream and WebSocket listeners of every instance). */
  listeners: () => Promise<number>;
}

export class RadioStatusView implements RadioStatus {
  private lastCard: NowPlayingCard | null = null;
  private unsubscribe: (() => Promise<void>) | null = null;

  constructor(private readonly deps: StatusViewDeps) {}

  async start(): Promise<void> {
    this.unsubscribe = await this.deps.bus.subscribe(NOW_PLAYING_CHANNEL, (card) => (this.lastCard = card as NowPlayingCard));
  }

  async stop(): Promise<void> {
    await this.unsubscribe?.();
    this.unsubscribe = null;
  }

  /** The card of what is on air now, with elapsed time; null when nothing plays. */
  async nowPlaying(): Promise<NowPlayingCard | null> {
    const config = await this.deps.config.get();
    const card = this.latestCard();
    if (!card) return null;
    const startedAtMs = Date.parse(card.started_at);
    const elapsed = Math.floor((this.deps.clock.now() - startedAtMs) / 1000);
    if (elapsed > card.duration_sec + 5 && !config.radioEnabled) return null;
    return { ...card, elapsed_sec: Math.max(0, Math.min(card.duration_sec, elapsed)) };
  }

  /**
   * The card of the latest track start this instance knows of: its own (as leader) or the one the leader
   * published. An instance that led once keeps the last track it put on air, but once another instance
   * leads (after a Redis outage, say) the cards that one publishes are newer, and what every instance shows.
   */
  private latestCard(): Omit<NowPlayingCard, 'elapsed_sec'> | null {
    const onAir = this.deps.onAir.get();
    if (!onAir) return this.lastCard;
    if (this.lastCard && Date.parse(this.lastCard.started_at) > onAir.startedAtMs) return this.lastCard;
    return { ...onAir.card, started_at: new Date(onAir.startedAtMs).toISOString() };
  }

  /** The slots planned next, in order (the listener API's queue). */
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
    return this.deps.planner.fallbackActive();
  }
}
