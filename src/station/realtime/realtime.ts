/**
 * What the four channels carry, fed from the event bus. Every instance subscribes for itself and fans out
 * to its own clients, so with Redis a message published on any instance reaches every instance's clients.
 *
 *   NOW_PLAYING_CHANNEL (bare NowPlayingCard)  -> now-playing         {event:'now_playing', data, server_time_utc}
 *   ListenerCounter, every listenerBroadcastSec -> listeners           {event:'listener_count', count, peak_today}
 *     (count: distinct listeners, listener-presence.ts)
 *   GENERATION_PROGRESS_CHANNEL                -> generation-progress (relayed as published)
 *   TRAINING_PROGRESS_CHANNEL                  -> training-progress   (relayed as published)
 *
 * A new now-playing client gets the current card at once: the last card this instance saw on the bus, or,
 * before any (cold start), the one the `currentCard` port returns (the scheduler's). A new listeners client gets the
 * current count at once rather than after up to one period.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import type { LiveAccess } from '../../auth/connection-guard.js';
import type { Principal } from '../../auth/principal.js';
import type { Scope } from '../../auth/scopes.js';
import type { Clock } from '../../infra/clock/clock.js';
import { systemTimers, type IntervalTimers } from '../../infra/clock/timers.js';
import type { EventBus } from '../../infra/pubsub/event-bus.js';
import { GENERATION_PROGRESS_CHANNEL, TRAINING_PROGRESS_CHANNEL } from '../events/station-events.js';
import { NOW_PLAYING_CHANNEL, type NowPlayingCard } from '../events/now-playing.js';
import type { LeaseStore } from '../../infra/leases/lease-store.js';
import { CREDENTIAL_REVOKED_CLOSE, ChannelHub, SCOPE_LOST_CLOSE, type Channel, type ChannelHubOptions } from './hub.js';
import { ListenerCounter } from './listener-counter.js';
import { ListenerPresence, listenerKeyOf } from './listener-presence.js';

export type CurrentCardProvider = () => NowPlayingCard | null | Promise<NowPlayingCard | null>;

export interface ListenersDeps {
  bus: EventBus;
  clock: Clock;
  listenerBroadcastSec: number;
  /** Where every instance keeps its listeners (ListenerPresence). */
  leases: LeaseStore;
  log: FastifyBaseLogger;
  /** Period of this instance's count report on the bus (default: the broadcast period, at most 5 s). */
  countPublishMs?: number;
  instanceId?: string;
}

/** Who listens, on every instance, and how many they are. */
export interface Listeners {
  /** Distinct listeners of every instance: the channels' WebSocket clients and the radio's stream listeners. */
  presence: ListenerPresence;
  counter: ListenerCounter;
}

/**
 * Built before the radio and the channels, which both count their listeners here (so neither needs the
 * other to exist first).
 */
export function buildListeners(deps: ListenersDeps): Listeners {
  const instanceId = deps.instanceId ?? randomUUID();
  const presence = new ListenerPresence(deps.leases, instanceId, (error) => deps.log.warn({ err: error }, 'listener presence not updated'));
  const counter = new ListenerCounter({
    bus: deps.bus,
    clock: deps.clock,
    presence,
    publishEveryMs: deps.countPublishMs ?? Math.min(5000, deps.listenerBroadcastSec * 1000),
    instanceId,
  });
  return { presence, counter };
}

export interface RealtimeDeps {
  bus: EventBus;
  clock: Clock;
  listenerBroadcastSec: number;
  /** Drives the listener_count broadcast (tests fire it by hand); real timers by default. */
  timers?: IntervalTimers;
  /**
   * Closes a client when its credential is revoked, its user banned or its role loses the channel's scope,
   * and counts the credential's open WebSockets (`admit`, before the upgrade).
   */
  access: Pick<LiveAccess, 'hold' | 'admit'>;
  listeners: Listeners;
  /** The scheduler's current card, asked only while no card has come over the bus yet. */
  currentCard: CurrentCardProvider;
  log: FastifyBaseLogger;
}

/** Who opened a connection and the scope its channel needs. */
export interface ConnectionGrant {
  principal: Principal;
  scope: Scope;
}

export type RealtimeOptions = ChannelHubOptions;

function isCard(message: unknown): message is NowPlayingCard {
  return typeof message === 'object' && message !== null && typeof (message as NowPlayingCard).station_track_id === 'string';
}

/** Channels whose clients are listeners of the radio (the progress channels are staff tools). */
const LISTENER_CHANNELS: ReadonlySet<Channel> = new Set(['now-playing', 'listeners']);

export class StationRealtime {
  readonly hub: ChannelHub;
  readonly counter: ListenerCounter;
  /** Distinct listeners of every instance: this module's WebSocket clients and the radio's stream listeners. */
  readonly presence: ListenerPresence;
  private lastCard: NowPlayingCard | null = null;
  private unsubscribes: Array<() => Promise<void>> = [];
  private readonly timers: IntervalTimers;
  private countTimer: unknown = null;

  constructor(
    private readonly deps: RealtimeDeps,
    options: RealtimeOptions = {},
  ) {
    this.timers = deps.timers ?? systemTimers;
    this.hub = new ChannelHub({
      ...options,
      onDrop: (channel, reason) => {
        deps.log.warn({ channel, reason }, 'websocket client dropped');
        options.onDrop?.(channel, reason);
      },
    });
    this.presence = deps.listeners.presence;
    this.counter = deps.listeners.counter;
  }

  /** Takes one of the credential's WebSocket slots before the upgrade (429 when they are all taken). */
  admit(principal: Principal): Promise<() => void> {
    return this.deps.access.admit('websocket', principal);
  }

  /** The station-wide listener count: distinct listeners of every instance's streams and WebSockets. */
  listenerTotal(): number {
    return this.counter.total();
  }

  /** The last card seen on the bus (null before the first track change this instance saw). */
  currentCard(): NowPlayingCard | null {
    return this.lastCard;
  }

  async start(): Promise<void> {
    const { bus } = this.deps;
    this.unsubscribes.push(
      await bus.subscribe(NOW_PLAYING_CHANNEL, (message) => {
        if (!isCard(message)) return;
        this.lastCard = message;
        this.hub.broadcast('now-playing', this.nowPlayingMessage(message));
      }),
      await bus.subscribe(GENERATION_PROGRESS_CHANNEL, (message) => {
        this.hub.broadcast('generation-progress', message);
      }),
      await bus.subscribe(TRAINING_PROGRESS_CHANNEL, (message) => {
        this.hub.broadcast('training-progress', message);
      }),
    );
    await this.counter.start();
    this.countTimer = this.timers.setInterval(() => this.broadcastCount(), this.deps.listenerBroadcastSec * 1000);
    this.hub.startHeartbeat();
  }

  async stop(): Promise<void> {
    if (this.countTimer !== null) this.timers.clearInterval(this.countTimer);
    this.countTimer = null;
    this.hub.closeAll();
    const unsubscribes = this.unsubscribes;
    this.unsubscribes = [];
    await Promise.all(unsubscribes.map((unsubscribe) => unsubscribe().catch(() => undefined)));
    await this.counter.stop();
  }

  /** A client passed authentication: register it and send what a newcomer needs. */
  async connect(channel: Channel, socket: WebSocket, grant: ConnectionGrant | null): Promise<void> {
    if (!this.hub.add(channel, socket)) return;
    if (grant) {
      const release = this.deps.access.hold(grant.principal, grant.scope, (reason) => {
        const code = reason === 'revoked' ? CREDENTIAL_REVOKED_CLOSE : SCOPE_LOST_CLOSE;
        this.hub.disconnect(socket, code, reason === 'revoked' ? 'credential revoked' : 'scope withdrawn');
      });
      socket.once('close', release);
      if (LISTENER_CHANNELS.has(channel)) socket.once('close', this.presence.enter(listenerKeyOf(grant.principal)));
    }
    if (channel === 'listeners') {
      this.hub.send(socket, this.countMessage());
    } else if (channel === 'now-playing') {
      const card = this.lastCard ?? (await this.deps.currentCard()) ?? null;
      if (card) this.hub.send(socket, this.nowPlayingMessage(this.withElapsed(card)));
    }
  }

  /** One listener_count message to every listeners client (the timer calls it every period). */
  broadcastCount(): void {
    if (this.hub.size('listeners') === 0) {
      this.counter.total(); // keeps the peak current even when nobody watches the channel
      return;
    }
    this.hub.broadcast('listeners', this.countMessage());
  }

  private countMessage() {
    return { event: 'listener_count', count: this.counter.total(), peak_today: this.counter.peakToday() };
  }

  private nowPlayingMessage(card: NowPlayingCard) {
    return { event: 'now_playing', data: card, server_time_utc: this.deps.clock.date().toISOString() };
  }

  /** The card as of now for a client joining mid-track: elapsed_sec from started_at. */
  private withElapsed(card: NowPlayingCard): NowPlayingCard {
    const started = Date.parse(card.started_at);
    if (!Number.isFinite(started)) return card;
    const elapsed = Math.floor((this.deps.clock.now() - started) / 1000);
    return { ...card, elapsed_sec: Math.max(0, Math.min(card.duration_sec, elapsed)) };
  }
}
