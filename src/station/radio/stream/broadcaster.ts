/**
 * The live stream: one clock-driven loop cuts MP3 tracks into frames and sends them, in real time, to every
 * listener. Every listener gets the same bytes for the same stream position (one buffer per tick, shared).
 *
 *   TrackSource.next() -> read() -> parseMp3() -> frames ──tick (every ~200 ms)──> ring buffer (the lead)
 *                                                                               └─> listeners (fan-out)
 *
 * - Pacing: stream time advances by each frame's duration; a tick sends every frame whose start time has
 *   come. A new listener first gets the last `leadMs` of frames from the ring, so playback starts at once.
 * - Gapless: the next track is loaded `prefetchMs` before the current one ends and its first frame follows
 *   the last frame of the current one; tags and the Xing/Info frame never reach the wire. (The encoder's own
 *   priming/padding samples at each end of a file stay: they are inside the audio frames.)
 * - Nothing to play: hand-built silent frames at the current bitrate keep connections alive.
 * - Bitrate changes happen at track boundaries (tracks come already encoded at the target bitrate). Mixing
 *   bitrates in one MP3 stream is fine: every frame header carries its own bitrate, as in any VBR file.
 *   Sample rate and mono/stereo should stay the same; some decoders do not follow a change mid-stream.
 * - Slow listeners: one loop writes to every listener without awaiting any; a listener whose unsent
 *   backlog exceeds `maxBacklogMs` of audio is dropped, so it never holds the others back. (The backlog is
 *   what Node still buffers: the kernel's socket buffers, up to megabytes, come on top and absorb first.)
 */
import { parseMp3, silentFrame, type Mp3Frame } from './mp3-frames.js';

export interface SourceTrack {
  id: string;
  bitrateKbps: number;
  /** Shown by players that ask for ICY metadata ("Artist - Title"). */
  title?: string;
  /** The whole MP3 file. */
  read(): Promise<Buffer>;
}

/** Port to the scheduler: the track to play after the current one; null when there is nothing to play now. */
export interface TrackSource {
  next(): Promise<SourceTrack | null>;
}

/** Time and a repeating timer, injected so tests drive the clock themselves. */
export interface StreamTimers {
  now(): number;
  setInterval(callback: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

/** What the broadcaster needs of a listener's output: a Node Writable or an http.ServerResponse. */
export interface ListenerSink {
  write(chunk: Buffer): boolean;
  end(): void;
  destroy?(error?: Error): void;
  once(event: 'close' | 'error', listener: (...args: unknown[]) => void): unknown;
  readonly destroyed: boolean;
  /** Bytes accepted but not yet handed to the OS. */
  readonly writableLength?: number;
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
  /** Bitrate of silence before the first track. */
  bitrateKbps?: number;
  onError?(error: unknown, context: string): void;
}

export interface StreamPosition {
  trackId: string | null;
  elapsedMs: number;
}

interface LoadedTrack {
  id: string;
  title: string | null;
  bytes: Buffer;
  frames: Mp3Frame[];
  durationMs: number;
  next: number; // index of the next frame to send
  startMs: number; // stream time of its first frame
}

interface SentFrame {
  bytes: Buffer;
  startMs: number;
  endMs: number;
}

interface Listener {
  sink: ListenerSink;
  /** Bytes written since write() last returned false, when the sink does not report writableLength. */
  congestedBytes: number;
}

const systemTimers: StreamTimers = {
  now: () => Date.now(),
  setInterval: (callback, ms) => setInterval(callback, ms),
  clearInterval: (handle) => clearInterval(handle as NodeJS.Timeout),
};

type TrackStartCallback = (trackId: string, startedAtMs: number) => void;
type CountCallback = (count: number) => void;

export class StreamBroadcaster {
  readonly tickMs: number;
  readonly leadMs: number;
  readonly maxBacklogMs: number;
  private readonly timers: StreamTimers;
  private readonly prefetchMs: number;
  private readonly retryMs: number;
  private readonly maxCatchUpMs: number;
  private readonly onError: (error: unknown, context: string) => void;

  private handle: unknown = null;
  private epoch = 0; // wall time of stream time 0
  private streamMs = 0; // stream time of the next frame to send
  private bitrate: number;
  private silence: { bytes: Buffer; durationMs: number };
  private current: LoadedTrack | null = null;
  private upcoming: LoadedTrack | null = null;
  private loading: Promise<void> | null = null;
  private retryAt = 0;
  private generation = 0; // bumped by stop() and dropUpcoming(): late loads of an earlier run are ignored
  private readonly ring: SentFrame[] = [];
  private readonly listeners = new Set<Listener>();
  private readonly trackStartCallbacks = new Set<TrackStartCallback>();
  private readonly countCallbacks = new Set<CountCallback>();

  constructor(
    private readonly source: TrackSource,
    options: BroadcasterOptions = {},
  ) {
    this.timers = options.timers ?? systemTimers;
    this.tickMs = options.tickMs ?? 200;
    this.leadMs = options.leadMs ?? 2000;
    this.maxBacklogMs = options.maxBacklogMs ?? 5000;
    this.prefetchMs = options.prefetchMs ?? 15_000;
    this.retryMs = options.retryMs ?? 1000;
    this.maxCatchUpMs = options.maxCatchUpMs ?? 5000;
    this.onError = options.onError ?? (() => {});
    this.bitrate = options.bitrateKbps ?? 128;
    this.silence = this.silenceAt(this.bitrate);
  }

  get running(): boolean {
    return this.handle !== null;
  }

  /** Starts the clock; resolves when the first track is loaded (or the source had none). */
  start(): Promise<void> {
    if (this.handle !== null) return this.loading ?? Promise.resolve();
    this.epoch = this.timers.now();
    this.streamMs = 0;
    this.handle = this.timers.setInterval(() => this.tick(), this.tickMs);
    return this.prefetch(this.epoch) ?? Promise.resolve();
  }

  /** Stops the clock and ends every listener's response. */
  stop(): void {
    if (this.handle !== null) this.timers.clearInterval(this.handle);
    this.handle = null;
    this.generation++;
    this.current = this.upcoming = null;
    this.loading = null;
    this.ring.length = 0;
    for (const listener of [...this.listeners]) this.detach(listener, 'end');
  }

  /** One step of the loop: sends every frame whose time has come. Called by the timer; public for tests. */
  tick(): void {
    const now = this.timers.now();
    const behindMs = now - this.epoch - this.streamMs;
    // The process stalled (or the machine slept): move on rather than flood listeners with a burst.
    if (behindMs > this.maxCatchUpMs) this.epoch += behindMs;
    const chunk: Buffer[] = [];
    const starts: [string, number][] = [];
    while (now - this.epoch >= this.streamMs) {
      const frame = this.nextFrame(starts);
      chunk.push(frame.bytes);
      const startMs = this.streamMs;
      this.streamMs += frame.durationMs;
      this.ring.push({ bytes: frame.bytes, startMs, endMs: this.streamMs });
    }
    this.trimRing();
    if (chunk.length > 0) this.broadcast(chunk.length === 1 ? chunk[0] : Buffer.concat(chunk));
    for (const [trackId, streamMs] of starts) this.emitTrackStart(trackId, this.epoch + streamMs);
    this.prefetch(now);
  }

  /**
   * Forgets the track loaded ahead (and any load in progress) without touching the one on air: used when
   * the radio is switched off, so the current track completes and nothing follows it. The source is asked
   * again at the next prefetch.
   */
  dropUpcoming(): void {
    this.generation++;
    this.upcoming = null;
    this.loading = null;
  }

  /** The track at the live edge and how far into it the stream is (listeners hear it about leadMs later). */
  position(): StreamPosition {
    const track = this.current;
    if (!track) return { trackId: null, elapsedMs: 0 };
    const elapsed = this.timers.now() - this.epoch - track.startMs;
    return { trackId: track.id, elapsedMs: Math.max(0, Math.min(track.durationMs, elapsed)) };
  }

  /** Title of the track at the live edge (null between tracks or when it has none). */
  currentTitle(): string | null {
    return this.current?.title ?? null;
  }

  bitrateKbps(): number {
    return this.bitrate;
  }

  /** Adds a listener: it gets the lead at once, then every tick's frames. Returns a function that removes it. */
  addListener(sink: ListenerSink): () => void {
    const listener: Listener = { sink, congestedBytes: 0 };
    this.listeners.add(listener);
    const remove = () => this.detach(listener, null);
    sink.once('close', remove);
    sink.once('error', remove);
    const since = this.streamMs - this.leadMs;
    const lead = this.ring.filter((frame) => frame.endMs > since).map((frame) => frame.bytes);
    this.emitCount();
    if (lead.length > 0) this.send(listener, Buffer.concat(lead));
    return remove;
  }

  listenerCount(): number {
    return this.listeners.size;
  }

  onTrackStart(callback: TrackStartCallback): () => void {
    this.trackStartCallbacks.add(callback);
    return () => this.trackStartCallbacks.delete(callback);
  }

  onListenerCountChange(callback: CountCallback): () => void {
    this.countCallbacks.add(callback);
    return () => this.countCallbacks.delete(callback);
  }

  private nextFrame(starts: [string, number][]): { bytes: Buffer; durationMs: number } {
    let track = this.current;
    if (track && track.next >= track.frames.length) track = this.current = null;
    if (!track && this.upcoming) {
      track = this.current = this.upcoming;
      this.upcoming = null;
      track.startMs = this.streamMs;
      if (track.frames[0].bitrateKbps !== this.bitrate) {
        this.bitrate = track.frames[0].bitrateKbps;
        this.silence = this.silenceAt(this.bitrate);
      }
      starts.push([track.id, track.startMs]);
    }
    if (!track) return this.silence;
    const frame = track.frames[track.next++];
    return { bytes: track.bytes.subarray(frame.offset, frame.offset + frame.length), durationMs: frame.durationMs };
  }

  /** Starts loading the next track when it is time to; returns the load in progress, if any. */
  private prefetch(now: number): Promise<void> | null {
    if (this.loading || this.upcoming || now < this.retryAt || this.handle === null) return this.loading;
    const current = this.current;
    if (current) {
      const remainingMs = current.startMs + current.durationMs - (now - this.epoch);
      if (remainingMs > this.prefetchMs) return null;
    }
    const generation = this.generation;
    this.loading = this.load()
      .then((track) => {
        if (generation !== this.generation) return;
        if (track) this.upcoming = track;
        else this.retryAt = this.timers.now() + this.retryMs;
      })
      .catch((error: unknown) => {
        if (generation !== this.generation) return;
        this.retryAt = this.timers.now() + this.retryMs;
        this.onError(error, 'loading the next track');
      })
      .finally(() => {
        if (generation === this.generation) this.loading = null;
      });
    return this.loading;
  }

  private async load(): Promise<LoadedTrack | null> {
    const track = await this.source.next();
    if (!track) return null;
    const bytes = await track.read();
    const { frames, durationMs } = parseMp3(bytes);
    if (frames.length === 0) throw new Error(`track ${track.id} has no MP3 frames`);
    return { id: track.id, title: track.title ?? null, bytes, frames, durationMs, next: 0, startMs: 0 };
  }

  private silenceAt(bitrateKbps: number): { bytes: Buffer; durationMs: number } {
    return { bytes: silentFrame(bitrateKbps), durationMs: (1152 * 1000) / 44100 };
  }

  private trimRing(): void {
    const keepFrom = this.streamMs - this.leadMs - this.tickMs;
    let drop = 0;
    while (drop < this.ring.length && this.ring[drop].endMs <= keepFrom) drop++;
    if (drop > 0) this.ring.splice(0, drop);
  }

  private broadcast(chunk: Buffer): void {
    for (const listener of this.listeners) this.send(listener, chunk);
  }

  private send(listener: Listener, chunk: Buffer): void {
    const { sink } = listener;
    if (sink.destroyed) {
      this.detach(listener, null);
      return;
    }
    let drained: boolean;
    try {
      drained = sink.write(chunk);
    } catch (error) {
      this.onError(error, 'writing to a listener');
      this.detach(listener, 'destroy');
      return;
    }
    listener.congestedBytes = drained ? 0 : listener.congestedBytes + chunk.length;
    const backlogBytes = typeof sink.writableLength === 'number' ? sink.writableLength : listener.congestedBytes;
    if (backlogBytes > (this.maxBacklogMs * this.bitrate) / 8) this.detach(listener, 'destroy');
  }

  private detach(listener: Listener, action: 'end' | 'destroy' | null): void {
    if (!this.listeners.delete(listener)) return;
    const { sink } = listener;
    try {
      if (action === 'end' && !sink.destroyed) sink.end();
      if (action === 'destroy' && !sink.destroyed) (sink.destroy ? sink.destroy() : sink.end());
    } catch (error) {
      this.onError(error, 'closing a listener');
    }
    this.emitCount();
  }

  private emitTrackStart(trackId: string, startedAtMs: number): void {
    for (const callback of this.trackStartCallbacks) {
      try {
        callback(trackId, startedAtMs);
      } catch (error) {
        this.onError(error, 'a track-start callback');
      }
    }
  }

  private emitCount(): void {
    const count = this.listeners.size;
    for (const callback of this.countCallbacks) {
      try {
        callback(count);
      } catch (error) {
        this.onError(error, 'a listener-count callback');
      }
    }
  }
}
