/**
 * GET /v1/analytics/stream's engine: Server-Sent Events of live counters, the same on every instance.
 *
 * Where events come from: the database. Every play event and order appends a numbered event (with the day's
 * counters after it) in its own transaction (migration 0020_analytics), numbered in commit order without
 * gaps. The event bus only says "look again": on-demand plays publish ANALYTICS_FEED_CHANNEL, the radio's
 * scheduler publishes now-playing after recording its play, the store publishes payment.success after the
 * order. Each instance then reads the events after the last one it saw, once for all of its clients, and
 * each client gets those of its environment. A lost wake-up only delays: every heartbeat reads again.
 *
 * Event ids are the feed numbers, so a client may resume on any instance: Last-Event-ID N replays the
 * client's events after N from the buffer (the last `retain` events, 10,000 by default). An id the buffer no
 * longer covers, or one the feed never issued, gets a fresh `snapshot` instead (counters to start over from).
 *
 * Frames: `snapshot` (id: head; today's counters and the listener count), `play` and `order` (id: their
 * number; the event and its day's counters), `listeners` (no id: a gauge, never replayed; sent when the
 * station's listener total changes), `close` (reason revoked/forbidden/shutdown/slow) before the server
 * ends a stream, and a `: heartbeat` comment every heartbeat.
 */
import type { Clock } from '../../infra/clock/clock.js';
import { systemTimers, type IntervalTimers } from '../../infra/clock/timers.js';
import type { EventBus } from '../../infra/pubsub/event-bus.js';
import { LISTENER_COUNTS_CHANNEL, NOW_PLAYING_CHANNEL } from '../../station/events/now-playing.js';
import { PLATFORM_EVENTS_CHANNEL } from '../webhooks/platform-events.js';
import type { Environment } from '../../kernel/environment.js';
import type { FeedEvent, FeedSync, LiveFeedRepository } from './live-feed.repository.js';

/** Published (with no payload that matters) after a play is recorded outside the radio. */
export const ANALYTICS_FEED_CHANNEL = 'analytics.feed';
export const DEFAULT_HEARTBEAT_MS = 15_000;
const READ_BATCH = 500;
/** A client that lets this much pile up unread is dropped rather than held in memory. */
const MAX_BUFFERED_BYTES = 1 << 20;
/** What a browser's EventSource waits before reconnecting. */
const RETRY_MS = 3000;
const EVENT_ID = /^\d{1,15}$/;

export type CloseReason = 'revoked' | 'forbidden' | 'shutdown' | 'slow';

/** Where a connection's frames go: the hijacked HTTP response. */
export interface FrameSink {
  write(chunk: string): boolean;
  end(): void;
  readonly writableLength: number;
}

export interface LiveFeedOptions {
  repo: LiveFeedRepository;
  bus: EventBus;
  clock: Clock;
  /** The station's listener total now (stream and WebSocket listeners of every instance). */
  listeners: () => number;
  heartbeatMs?: number;
  timers?: IntervalTimers;
  onError?: (error: unknown) => void;
}

export function frame(event: string, data: unknown, id?: number): string {
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** A Last-Event-ID header as a feed number; anything else starts over with a snapshot. */
export function parseEventId(value: string | undefined): number | null {
  return value !== undefined && EVENT_ID.test(value.trim()) ? Number(value.trim()) : null;
}

export class LiveConnection {
  /** The last feed number this client is past (sent, or skipped as another environment's). */
  private cursor = 0;
  /** Events that arrived before the client's first frames were written. */
  private pending: FeedEvent[] | null = [];
  private initial: string[] = [];
  private sink: FrameSink | null = null;
  private closed = false;
  private readonly onClose: Array<() => void> = [];

  constructor(
    readonly environment: Environment,
    private readonly feed: LiveFeed,
  ) {}

  /** The client's first frames from its sync: the replay, or a snapshot. */
  start(sync: FeedSync, listeners: number, now: Date, resumeAsked: boolean): void {
    this.cursor = sync.head;
    const frames = [`retry: ${RETRY_MS}\n\n`];
    if (sync.replay) {
      for (const event of sync.replay) frames.push(eventFrame(event));
      frames.push(frame('listeners', { listeners, at: now.toISOString() }));
    } else {
      // A Last-Event-ID that cannot be resumed: the client's counters start over from this snapshot.
      const reset = resumeAsked ? 'unknown_or_expired_event_id' : null;
      frames.push(frame('snapshot', { type: 'snapshot', counters: sync.counters, listeners, at: now.toISOString(), reset }, sync.head));
    }
    this.initial = frames;
  }

  /** Starts writing: the first frames, what arrived meanwhile, then live events. */
  attach(sink: FrameSink): void {
    if (this.closed) {
      sink.end();
      return;
    }
    this.sink = sink;
    for (const chunk of this.initial) this.write(chunk);
    this.initial = [];
    const pending = this.pending ?? [];
    this.pending = null;
    for (const event of pending) this.deliver(event);
  }

  deliver(event: FeedEvent): void {
    if (this.closed) return;
    if (this.pending !== null) {
      this.pending.push(event);
      return;
    }
    if (event.id <= this.cursor) return;
    this.cursor = event.id;
    if (event.environment === this.environment) this.write(eventFrame(event));
  }

  send(chunk: string): void {
    if (this.sink && !this.closed) this.write(chunk);
  }

  /** Ends the stream, telling the client why. */
  close(reason: CloseReason): void {
    if (this.closed) return;
    if (this.sink) this.sink.write(frame('close', { reason }));
    this.end();
  }

  /** The client went away (or close() ended it): forget it. */
  end(): void {
    if (this.closed) return;
    this.closed = true;
    this.sink?.end();
    this.feed.remove(this);
    for (const callback of this.onClose.splice(0)) callback();
  }

  whenClosed(callback: () => void): void {
    if (this.closed) callback();
    else this.onClose.push(callback);
  }

  private write(chunk: string): void {
    const sink = this.sink!;
    if (!sink.write(chunk) && sink.writableLength > MAX_BUFFERED_BYTES) this.close('slow');
  }
}

function eventFrame(event: FeedEvent): string {
  return frame(event.kind, { id: event.id, ...event.data }, event.id);
}

export class LiveFeed {
  private readonly connections = new Set<LiveConnection>();
  /** The last feed number this instance read; null while nobody listens (the next client sets it). */
  private lastSeen: number | null = null;
  private reading: Promise<void> | null = null;
  private readAgain = false;
  private heartbeat: unknown = null;
  private listenersSent: number | null = null;
  private unsubscribes: Array<() => Promise<void>> = [];
  private readonly timers: IntervalTimers;
  private readonly heartbeatMs: number;
  private readonly onError: (error: unknown) => void;

  constructor(private readonly options: LiveFeedOptions) {
    this.timers = options.timers ?? systemTimers;
    this.heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
    this.onError = options.onError ?? (() => undefined);
  }

  async start(): Promise<void> {
    const wake = () => this.wake();
    const { bus } = this.options;
    this.unsubscribes.push(
      await bus.subscribe(ANALYTICS_FEED_CHANNEL, wake),
      await bus.subscribe(NOW_PLAYING_CHANNEL, wake),
      await bus.subscribe(PLATFORM_EVENTS_CHANNEL, (message) => {
        if ((message as { event?: unknown } | null)?.event === 'payment.success') wake();
      }),
      await bus.subscribe(LISTENER_COUNTS_CHANNEL, () => this.sendListeners()),
    );
  }

  async stop(): Promise<void> {
    this.closeAll('shutdown');
    const unsubscribes = this.unsubscribes;
    this.unsubscribes = [];
    await Promise.all(unsubscribes.map((unsubscribe) => unsubscribe().catch(() => undefined)));
    await this.reading;
  }

  closeAll(reason: CloseReason): void {
    for (const connection of [...this.connections]) connection.close(reason);
  }

  /** How many clients this instance serves. */
  size(): number {
    return this.connections.size;
  }

  /** Registers a client and computes its first frames; it buffers live events until attached to a sink. */
  async open(environment: Environment, lastEventId: string | undefined): Promise<LiveConnection> {
    const connection = new LiveConnection(environment, this);
    this.connections.add(connection);
    this.startHeartbeat();
    try {
      const requested = parseEventId(lastEventId);
      const now = this.options.clock.date();
      const sync = await this.options.repo.sync(environment, now.toISOString().slice(0, 10), requested);
      const listeners = this.options.listeners();
      this.listenersSent ??= listeners;
      connection.start(sync, listeners, now, lastEventId !== undefined);
      if (this.lastSeen === null) this.lastSeen = sync.head;
      this.wake();
      return connection;
    } catch (error) {
      connection.end();
      throw error;
    }
  }

  remove(connection: LiveConnection): void {
    this.connections.delete(connection);
    if (this.connections.size > 0) return;
    this.lastSeen = null;
    this.listenersSent = null;
    if (this.heartbeat !== null) this.timers.clearInterval(this.heartbeat);
    this.heartbeat = null;
  }

  /** Reads what the feed gained since this instance last looked; one read at a time, again if asked meanwhile. */
  wake(): void {
    if (this.reading) {
      this.readAgain = true;
      return;
    }
    this.reading = this.catchUp()
      .catch(this.onError)
      .finally(() => {
        this.reading = null;
        if (this.readAgain) {
          this.readAgain = false;
          this.wake();
        }
      });
  }

  private async catchUp(): Promise<void> {
    for (;;) {
      const after = this.lastSeen;
      if (after === null || this.connections.size === 0) return;
      const events = await this.options.repo.since(after, READ_BATCH);
      for (const event of events) for (const connection of [...this.connections]) connection.deliver(event);
      if (events.length > 0 && this.lastSeen !== null) this.lastSeen = Math.max(this.lastSeen, events[events.length - 1].id);
      if (events.length < READ_BATCH) return;
    }
  }

  private startHeartbeat(): void {
    if (this.heartbeat !== null) return;
    this.heartbeat = this.timers.setInterval(() => {
      const comment = `: heartbeat ${this.options.clock.date().toISOString()}\n\n`;
      for (const connection of [...this.connections]) connection.send(comment);
      this.sendListeners();
      this.wake();
    }, this.heartbeatMs);
  }

  /** The station's listener total, to every client, when it changed since last sent. */
  private sendListeners(): void {
    if (this.connections.size === 0) return;
    let listeners: number;
    try {
      listeners = this.options.listeners();
    } catch (error) {
      this.onError(error);
      return;
    }
    if (listeners === this.listenersSent) return;
    this.listenersSent = listeners;
    const chunk = frame('listeners', { listeners, at: this.options.clock.date().toISOString() });
    for (const connection of [...this.connections]) connection.send(chunk);
  }
}
