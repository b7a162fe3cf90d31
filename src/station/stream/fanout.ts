/**
 * Fan-out of encoded frames to every listener of this instance: one buffer per push, written to each
 * listener without awaiting any, so the cost is one write per listener per tick whatever the encoding cost.
 * Frames come from this instance's playout (the broadcaster) or, on a follower, from the leader's (relay.ts).
 *
 * - The lead: a new listener first gets the most recent `leadMs` of frames, so playback starts at once. A
 *   listener joining between two pushes gets that much less, so that every listener, whenever it joined,
 *   hears the frames sent at wall time t at t + leadMs: the clock now-playing is timed by.
 * - Slow listeners: one whose unsent backlog exceeds `maxBacklogMs` of audio is dropped, so it never holds
 *   the others back. (The backlog is what Node still buffers; the kernel's socket buffers come on top.)
 */
import { SAMPLES_PER_FRAME } from './encoder.js';
import { TIMELINE_RATE } from './track-reader.js';

export const FRAME_MS = (SAMPLES_PER_FRAME * 1000) / TIMELINE_RATE;

/** What the fan-out needs of a listener's output: a Node Writable or an http.ServerResponse. */
export interface ListenerSink {
  write(chunk: Buffer): boolean;
  end(): void;
  destroy?(error?: Error): void;
  once(event: 'close' | 'error', listener: (...args: unknown[]) => void): unknown;
  readonly destroyed: boolean;
  /** Bytes accepted but not yet handed to the OS. */
  readonly writableLength?: number;
}

export interface FanoutOptions {
  leadMs?: number;
  maxBacklogMs?: number;
  now?: () => number;
  onError?(error: unknown, context: string): void;
}

interface SentFrame {
  bytes: Buffer;
  endMs: number;
}

interface Listener {
  sink: ListenerSink;
  /** Bytes written since write() last returned false, when the sink does not report writableLength. */
  congestedBytes: number;
}

type CountCallback = (count: number) => void;

export class StreamFanout {
  readonly leadMs: number;
  readonly maxBacklogMs: number;
  /** Bitrate and title of what is being sent (stream headers, ICY metadata, the backlog limit). */
  bitrateKbps = 128;
  title: string | null = null;
  private readonly now: () => number;
  private readonly onError: (error: unknown, context: string) => void;
  private readonly ring: SentFrame[] = [];
  private edgeMs = 0; // stream time sent so far
  private lastPushAt = 0;
  private readonly listeners = new Set<Listener>();
  private readonly countCallbacks = new Set<CountCallback>();

  constructor(options: FanoutOptions = {}) {
    this.leadMs = options.leadMs ?? 2000;
    this.maxBacklogMs = options.maxBacklogMs ?? 5000;
    this.now = options.now ?? Date.now;
    this.onError = options.onError ?? (() => {});
  }

  /** Whether anything was ever sent (a stream that takes over goes on from it rather than starting afresh). */
  get hasHistory(): boolean {
    return this.edgeMs > 0;
  }

  /** Sends frames to every listener and keeps the last leadMs of them for newcomers. */
  push(frames: readonly Buffer[]): void {
    this.lastPushAt = this.now();
    if (frames.length === 0) return;
    for (const bytes of frames) {
      this.edgeMs += FRAME_MS;
      this.ring.push({ bytes, endMs: this.edgeMs });
    }
    const keepFrom = this.edgeMs - this.leadMs - FRAME_MS;
    let drop = 0;
    while (drop < this.ring.length && this.ring[drop].endMs <= keepFrom) drop++;
    if (drop > 0) this.ring.splice(0, drop);
    const chunk = frames.length === 1 ? frames[0] : Buffer.concat(frames as Buffer[]);
    for (const listener of this.listeners) this.send(listener, chunk);
  }

  /** Adds a listener: it gets the lead at once, then every push. Returns a function that removes it. */
  addListener(sink: ListenerSink): () => void {
    const listener: Listener = { sink, congestedBytes: 0 };
    this.listeners.add(listener);
    const remove = () => this.detach(listener, null);
    sink.once('close', remove);
    sink.once('error', remove);
    const sinceLastPush = Math.max(0, Math.min(this.now() - this.lastPushAt, this.leadMs));
    const since = this.edgeMs - this.leadMs + sinceLastPush;
    const lead = this.ring.filter((frame) => frame.endMs > since).map((frame) => frame.bytes);
    this.emitCount();
    if (lead.length > 0) this.send(listener, Buffer.concat(lead));
    return remove;
  }

  listenerCount(): number {
    return this.listeners.size;
  }

  onListenerCountChange(callback: CountCallback): () => void {
    this.countCallbacks.add(callback);
    return () => this.countCallbacks.delete(callback);
  }

  /** Ends every listener's response (the stream stops). */
  endAll(): void {
    for (const listener of [...this.listeners]) this.detach(listener, 'end');
    this.ring.length = 0;
    this.edgeMs = 0;
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
    if (backlogBytes > (this.maxBacklogMs * this.bitrateKbps) / 8) this.detach(listener, 'destroy');
  }

  private detach(listener: Listener, action: 'end' | 'destroy' | null): void {
    if (!this.listeners.delete(listener)) return;
    const { sink } = listener;
    try {
      if (action === 'end' && !sink.destroyed) sink.end();
      if (action === 'destroy' && !sink.destroyed) {
        if (sink.destroy) sink.destroy();
        else sink.end();
      }
    } catch (error) {
      this.onError(error, 'closing a listener');
    }
    this.emitCount();
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
