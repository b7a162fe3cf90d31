/**
 * The live stream's clock: every tick (400 ms) it takes the frames whose time has come from the playout (one
 * continuous timeline, encoded once: playout.ts) and hands them to the fan-out (every listener, fanout.ts)
 * and to whoever relays them to other instances (`onChunk`).
 *
 *   TrackSource -> Playout (decode, normalise, crossfade, limit, encode) ──tick──> StreamFanout -> listeners
 *                                                                          └──> onChunk (relay.ts)
 *
 * - Pacing: stream time advances by each frame's duration; a tick sends every frame whose start has come.
 *   After a stall of the event loop longer than `maxCatchUpMs` it skips ahead instead of sending a burst; if
 *   the playout ever has nothing rendered, the send edge waits for it (listeners' leads absorb that).
 * - Start: on a fresh stream the first `leadMs` of the timeline counts as already sent, so every listener,
 *   from the first, hears stream time s at epoch + s + leadMs (see the fan-out's lead).
 * - Now playing: the playout marks, in stream samples, where each track's first sound is and where it
 *   becomes the louder one (the audible change of a crossfade). `onTrackStart` fires when listeners reach
 *   that change (a one-shot timer set at the tick before), with the time they heard the track's first
 *   sound: that is the now-playing card's `started_at`, so its `elapsed_sec` is what they hear.
 */
import { randomUUID } from 'node:crypto';
import { SAMPLES_PER_FRAME } from './encoder.js';
import { FRAME_MS, StreamFanout, type ListenerSink } from './fanout.js';
import { FRAMES_PER_BLOCK, Playout, type TrackMarker, type TrackSource } from './playout.js';
import { TIMELINE_RATE } from './track-reader.js';

export type { ListenerSink } from './fanout.js';
export type { SourceTrack, TrackSource } from './playout.js';

/** Time, a repeating timer and (optionally) one-shot timers, injected so tests drive the clock themselves. */
export interface StreamTimers {
  now(): number;
  setInterval(callback: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
  /** Without these, track changes are announced at the nearest tick instead of on time. */
  setTimeout?(callback: () => void, ms: number): unknown;
  clearTimeout?(handle: unknown): void;
}

export interface BroadcasterOptions {
  timers?: StreamTimers;
  /** Interval of the send loop. */
  tickMs?: number;
  /** Audio sent at once to a new listener (from the most recent frames). */
  leadMs?: number;
  /** A listener whose unsent backlog exceeds this much audio is dropped. */
  maxBacklogMs?: number;
  /** Load the next track when the current one has this much left. */
  prefetchMs?: number;
  /** After next() answered null or failed, ask again after this long. */
  retryMs?: number;
  /** After a stall of the event loop longer than this, skip ahead instead of sending a burst. */
  maxCatchUpMs?: number;
  /** How far ahead of the send edge the timeline is rendered. */
  aheadMs?: number;
  /** Bitrate of the stream before the first track says otherwise. */
  bitrateKbps?: number;
  /** Overlap between tracks that do not carry their own crossfadeSec. */
  crossfadeSec?: number;
  /** The station's level on air, and the true-peak ceiling no track is boosted past. */
  targetLufs?: number;
  ceilingDbtp?: number;
  /** At most this long the first start() waits for the first track before the clock starts on silence. */
  firstTrackWaitMs?: number;
  /** Shared with the relay on a multi-instance station; one of its own otherwise. */
  fanout?: StreamFanout;
  onError?(error: unknown, context: string): void;
}

export interface StreamPosition {
  trackId: string | null;
  elapsedMs: number;
}

/** A tick's frames as the relay publishes them. */
export interface StreamChunk {
  run: string;
  frames: Buffer[];
  bitrateKbps: number;
  title: string | null;
}

const systemTimers: StreamTimers = {
  now: () => Date.now(),
  setInterval: (callback, ms) => setInterval(callback, ms),
  clearInterval: (handle) => clearInterval(handle as NodeJS.Timeout),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

type TrackStartCallback = (trackId: string, startedAtMs: number) => void;
type ChunkCallback = (chunk: StreamChunk) => void;

/**
 * 400 ms: each listener costs one socket write per tick, so the tick sets the fan-out's cost; listeners
 * hold a 2 s lead, and track changes are announced by their own timers, so a longer tick costs nothing else.
 */
export const DEFAULT_TICK_MS = 400;
export const STATION_TARGET_LUFS = -14;
export const STATION_CEILING_DBTP = -1;

export class StreamBroadcaster {
  readonly tickMs: number;
  readonly leadMs: number;
  readonly fanout: StreamFanout;
  private readonly timers: StreamTimers;
  private readonly options: BroadcasterOptions;
  private readonly maxCatchUpMs: number;
  private readonly onError: (error: unknown, context: string) => void;

  private handle: unknown = null;
  private playout: Playout | null = null;
  private run = '';
  private epoch = 0; // wall time at which stream time 0 is sent
  private sentFrames = 0;
  private readonly fired = new WeakSet<TrackMarker>();
  /** One-shot timers of track changes due before the next tick. */
  private readonly pending = new Map<TrackMarker, unknown>();
  private readonly trackStartCallbacks = new Set<TrackStartCallback>();
  private readonly chunkCallbacks = new Set<ChunkCallback>();

  constructor(
    private readonly source: TrackSource,
    options: BroadcasterOptions = {},
  ) {
    this.options = options;
    this.timers = options.timers ?? systemTimers;
    this.tickMs = options.tickMs ?? DEFAULT_TICK_MS;
    this.maxCatchUpMs = options.maxCatchUpMs ?? 5000;
    this.onError = options.onError ?? (() => {});
    this.fanout = options.fanout ?? new StreamFanout({ leadMs: options.leadMs, maxBacklogMs: options.maxBacklogMs, now: () => this.timers.now(), onError: this.onError });
    this.leadMs = this.fanout.leadMs;
    this.fanout.bitrateKbps = options.bitrateKbps ?? 128;
  }

  get running(): boolean {
    return this.handle !== null;
  }

  get maxBacklogMs(): number {
    return this.fanout.maxBacklogMs;
  }

  /**
   * Starts the clock; resolves once the first track is loaded (or the source had none, or it took longer
   * than firstTrackWaitMs) and the start of the timeline is rendered.
   */
  async start(): Promise<void> {
    if (this.handle !== null || this.playout) return;
    const playout = new Playout(this.source, {
      bitrateKbps: this.fanout.bitrateKbps,
      prefetchMs: this.options.prefetchMs ?? 15_000,
      retryMs: this.options.retryMs ?? 1000,
      crossfadeSec: this.options.crossfadeSec ?? 3,
      targetLufs: this.options.targetLufs ?? STATION_TARGET_LUFS,
      ceilingDbtp: this.options.ceilingDbtp ?? STATION_CEILING_DBTP,
      now: () => this.timers.now(),
      onError: this.onError,
    });
    this.playout = playout;
    this.run = randomUUID();
    this.sentFrames = 0;
    const fresh = !this.fanout.hasHistory;
    await Promise.race([playout.requestLoad(), delay(this.options.firstTrackWaitMs ?? 5000)]);
    if (this.playout !== playout) return; // stopped meanwhile
    const primed = Math.ceil((fresh ? this.leadMs : 0) / FRAME_MS);
    await playout.pump(primed + this.aheadFrames(), primed + FRAMES_PER_BLOCK);
    if (this.playout !== playout) return;
    // A fresh stream: its first leadMs are due at once. Taking over a running one: it goes on from here.
    this.epoch = this.timers.now() - primed * FRAME_MS;
    this.handle = this.timers.setInterval(() => this.tick(), this.tickMs);
    this.tick();
  }

  /** Stops the clock and ends every listener's response. */
  stop(): void {
    this.halt();
    this.fanout.endAll();
  }

  /** Stops the clock and the playout; listeners stay (another instance's frames may come to them). */
  halt(): void {
    if (this.handle !== null) this.timers.clearInterval(this.handle);
    this.handle = null;
    for (const timer of this.pending.values()) this.timers.clearTimeout?.(timer);
    this.pending.clear();
    this.playout?.stop();
    this.playout = null;
  }

  /** One step of the loop: sends every frame whose time has come. Called by the timer; public for tests. */
  tick(): void {
    const playout = this.playout;
    if (!playout) return;
    const now = this.timers.now();
    const behindMs = now - this.epoch - this.sentFrames * FRAME_MS;
    // The process stalled (or the machine slept): move on rather than flood listeners with a burst.
    if (behindMs > this.maxCatchUpMs) this.epoch += behindMs;
    const frames: Buffer[] = [];
    while (now - this.epoch >= this.sentFrames * FRAME_MS) {
      const frame = playout.takeFrame();
      if (!frame) {
        // Nothing rendered yet: the send edge waits (listeners' leads cover it) rather than send silence.
        this.epoch = now - this.sentFrames * FRAME_MS;
        break;
      }
      frames.push(frame);
      this.sentFrames++;
    }
    this.fanout.bitrateKbps = playout.bitrateKbps;
    this.fanout.title = this.titleAt(this.sentFrames * SAMPLES_PER_FRAME);
    this.fanout.push(frames);
    if (frames.length > 0) this.emitChunk({ run: this.run, frames, bitrateKbps: this.fanout.bitrateKbps, title: this.fanout.title });
    this.fireMarkers(playout, now);
    // A load still in progress where a crossfade should begin may hold rendering while a tick's worth is left.
    void playout.pump(this.aheadFrames(), Math.ceil((this.tickMs + 200) / FRAME_MS));
  }

  /** Resolves once the playout renders and loads nothing (tests step the clock with it). */
  idle(): Promise<void> {
    return this.playout?.idle() ?? Promise.resolve();
  }

  /**
   * Forgets the track loaded ahead (and any load in progress) without touching what is on air: used when
   * the radio is switched off, so the current track completes and nothing follows it. The source is asked
   * again at the next prefetch.
   */
  dropUpcoming(): void {
    this.playout?.dropUpcoming();
  }

  /** The track listeners hear now and how far into it they are. */
  position(): StreamPosition {
    const playout = this.playout;
    if (!playout) return { trackId: null, elapsedMs: 0 };
    const heard = this.sampleAt(this.timers.now() - this.leadMs);
    const marker = this.markerAt(playout.markers, heard);
    if (!marker) return { trackId: null, elapsedMs: 0 };
    return { trackId: marker.id, elapsedMs: Math.max(0, ((heard - marker.startSample) / TIMELINE_RATE) * 1000) };
  }

  /** The latest track in the rendered timeline: on air, or to be heard within the lead and render-ahead. */
  scheduledTrackId(): string | null {
    return this.playout?.lastScheduledId() ?? null;
  }

  /** Title of the track at the send edge (null between tracks or when it has none). */
  currentTitle(): string | null {
    return this.fanout.title;
  }

  bitrateKbps(): number {
    return this.fanout.bitrateKbps;
  }

  addListener(sink: ListenerSink): () => void {
    return this.fanout.addListener(sink);
  }

  listenerCount(): number {
    return this.fanout.listenerCount();
  }

  onListenerCountChange(callback: (count: number) => void): () => void {
    return this.fanout.onListenerCountChange(callback);
  }

  onTrackStart(callback: TrackStartCallback): () => void {
    this.trackStartCallbacks.add(callback);
    return () => this.trackStartCallbacks.delete(callback);
  }

  /** Every tick's frames, for the relay to other instances. */
  onChunk(callback: ChunkCallback): () => void {
    this.chunkCallbacks.add(callback);
    return () => this.chunkCallbacks.delete(callback);
  }

  private aheadFrames(): number {
    return Math.ceil((this.options.aheadMs ?? 1500) / FRAME_MS);
  }

  /** The stream sample sent at wall time `at`. */
  private sampleAt(at: number): number {
    return ((at - this.epoch) / 1000) * TIMELINE_RATE;
  }

  /** Wall time at which listeners hear stream sample `sample`. */
  private heardAt(sample: number): number {
    return this.epoch + (sample / TIMELINE_RATE) * 1000 + this.leadMs;
  }

  private markerAt(markers: readonly TrackMarker[], sample: number): TrackMarker | null {
    for (let i = markers.length - 1; i >= 0; i--) {
      const marker = markers[i];
      if (marker.changeSample === null || marker.changeSample > sample) continue;
      return marker.endSample !== null && marker.endSample <= sample ? null : marker;
    }
    return null;
  }

  private titleAt(sample: number): string | null {
    return this.playout ? (this.markerAt(this.playout.markers, sample)?.title ?? null) : null;
  }

  /** Announces the track changes listeners hear now, and sets a timer for those they hear before the next tick. */
  private fireMarkers(playout: Playout, now: number): void {
    for (const marker of playout.markers) {
      if (marker.changeSample === null || this.fired.has(marker) || this.pending.has(marker)) continue;
      const dueIn = this.heardAt(marker.changeSample) - now;
      if (dueIn <= 0) this.fire(marker);
      else if (dueIn < this.tickMs && this.timers.setTimeout) {
        this.pending.set(
          marker,
          this.timers.setTimeout(() => {
            this.pending.delete(marker);
            if (this.playout === playout) this.fire(marker);
          }, dueIn),
        );
      } else if (!this.timers.setTimeout && dueIn <= this.tickMs / 2) this.fire(marker);
    }
  }

  private fire(marker: TrackMarker): void {
    this.fired.add(marker);
    const startedAtMs = Math.round(this.heardAt(marker.startSample));
    for (const callback of this.trackStartCallbacks) {
      try {
        callback(marker.id, startedAtMs);
      } catch (error) {
        this.onError(error, 'a track-start callback');
      }
    }
  }

  private emitChunk(chunk: StreamChunk): void {
    for (const callback of this.chunkCallbacks) {
      try {
        callback(chunk);
      } catch (error) {
        this.onError(error, 'a stream-chunk callback');
      }
    }
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
