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
import { CODEC_DELAY_SAMPLES, SAMPLES_PER_FRAME } from './encoder.js';
import { FRAME_MS, StreamFanout, type ListenerSink } from './fanout.js';
import { LIMITER_LOOKAHEAD } from './limiter.js';
import { FRAMES_PER_BLOCK, Playout, type ResumedTrack, type ResumePoint, type TrackMarker, type TrackSource } from './playout.js';
import { TIMELINE_RATE } from './track-reader.js';

export type { ListenerSink } from './fanout.js';
export type { ResumePoint, SourceTrack, TrackSource } from './playout.js';

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
  /**
   * How far ahead of the send edge frames are handed to `onChunk` (at most `aheadMs`): followers hold that
   * much of the timeline, which carries their listeners while a new leader takes over. 0: at the send edge.
   */
  relayAheadMs?: number;
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

/** Frames as the relay publishes them: consecutive frames of the timeline, from frame index `first`. */
export interface StreamChunk {
  run: string;
  /** The timeline: one id from a fresh start on, across takeovers (the HLS playlist continues it). */
  timeline: string;
  /** Stream index of the first frame (frames count from the stream's start, across takeovers). */
  first: number;
  /** Wall time (ms since the epoch) at which frame 0 is sent: frame i is sent at epoch + i x FRAME_MS. */
  epoch: number;
  frames: Buffer[];
  bitrateKbps: number;
  title: string | null;
  /** The latest tracks on the timeline (where a takeover continues). */
  markers: ResumePoint[];
}

/** One frame a follower holds, with the stream's bitrate and title where it falls. */
export interface HeldFrame {
  frame: Buffer;
  bitrateKbps: number;
  title: string | null;
}

/** What a follower that takes the lead carries over: the last leader's clock and the frames it still holds. */
export interface StreamResume {
  epoch: number;
  /** Index of the first frame this instance's listeners have not been sent. */
  nextFrame: number;
  /** Frames from `nextFrame` on, rendered by the last leader: sent before anything rendered here. */
  backlog: HeldFrame[];
  /** The last leader's latest markers: the track on air after the backlog is continued mid-way. */
  markers: ResumePoint[];
  /** The last leader's timeline id (a new one when unknown). */
  timeline?: string;
  /**
   * Frames already sent before `nextFrame` (consecutive, ending at nextFrame - 1): not sent again, only handed
   * to `onChunk` with the backlog, so the HLS segmenter can finish the segment the last leader had not written.
   */
  history?: HeldFrame[];
  /**
   * Where the tracks come from for this run (the broadcaster's own source when absent): a follower that plays
   * on alone reads the running order without changing it (live-stream.ts).
   */
  source?: TrackSource;
}

/** Stream sample (as heard) of the first sample encoded into frame `frame` by a fresh encoder. */
export function resumeSample(frame: number): number {
  return frame * SAMPLES_PER_FRAME + CODEC_DELAY_SAMPLES + LIMITER_LOOKAHEAD;
}

/**
 * The tracks a takeover continues at stream sample `sample`: the latest one whose first sound is before it,
 * and, inside a crossfade, the one it fades out of as well (when the last leader's markers say where that one
 * ends: a takeover there continues both). Without those ends, the rule before them: the outgoing one alone
 * until the incoming one becomes the louder (the incoming then comes in again from its start).
 */
export function tracksToResume(markers: readonly ResumePoint[], sample: number): ResumePoint[] {
  const live = markers.filter((m) => m.startSample <= sample);
  const incoming = live.at(-1);
  if (!incoming) return [];
  const outgoing = live.at(-2);
  if (outgoing && typeof outgoing.endSample === 'number') return outgoing.endSample > sample ? [outgoing, incoming] : [incoming];
  for (let i = live.length - 1; i >= 0; i--) {
    const marker = live[i];
    if (marker.changeSample !== null && marker.changeSample <= sample) return [marker];
    if (i === 0) return [marker];
  }
  return [];
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
  private timeline = '';
  private epoch = 0; // wall time at which stream time 0 is sent
  private sentFrames = 0;
  /** Frames handed to onChunk so far (ahead of sentFrames by up to relayAheadMs). */
  private publishedFrames = 0;
  /** A takeover's frames from the last leader, sent before this playout's. */
  private backlog: HeldFrame[] = [];
  /** A takeover's markers from the last leader (where the tracks in its backlog start). */
  private carriedMarkers: ResumePoint[] = [];
  /**
   * The run continues a timeline other instances share (a takeover): its clock never waits for frames
   * rendered late, so the tracks after them start where the last leader's timeline had them.
   */
  private anchored = false;
  /** While a takeover loads the track it continues, nothing is rendered (the backlog is being sent). */
  private resuming = false;
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
    this.fanout =
      options.fanout ?? new StreamFanout({ leadMs: options.leadMs, maxBacklogMs: options.maxBacklogMs, now: () => this.timers.now(), onError: this.onError });
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
  async start(resume?: StreamResume): Promise<void> {
    if (this.handle !== null || this.playout) return;
    if (resume) return this.takeOver(resume);
    const playout = this.newPlayout(0);
    this.playout = playout;
    this.run = randomUUID();
    this.timeline = randomUUID();
    this.sentFrames = 0;
    this.publishedFrames = 0;
    this.backlog = [];
    this.carriedMarkers = [];
    this.anchored = false;
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

  /**
   * Takes over a stream another instance was rendering: the clock goes on from the last leader's (frame i is
   * still sent at epoch + i x FRAME_MS), its frames this instance holds are sent first, and the playout
   * continues the track on air right after them at the same sample (the scheduler's `resume`), or, without
   * one, starts with the next track there. Listeners hear no gap as long as the backlog lasts longer than
   * loading that track takes.
   */
  private async takeOver(resume: StreamResume): Promise<void> {
    const firstFrame = resume.nextFrame + resume.backlog.length;
    const source = resume.source ?? this.source;
    const playout = this.newPlayout(firstFrame, source);
    this.playout = playout;
    this.run = randomUUID();
    this.timeline = resume.timeline ?? randomUUID();
    this.epoch = resume.epoch;
    this.sentFrames = resume.nextFrame;
    this.publishedFrames = firstFrame;
    this.backlog = resume.backlog.slice();
    this.carriedMarkers = resume.markers.slice();
    this.anchored = true;
    this.resuming = true;
    // What this instance took over, for onChunk (the HLS segmenter; followers hold these frames already).
    const taken = [...(resume.history ?? []), ...resume.backlog];
    if (taken.length > 0) {
      const last = taken[taken.length - 1];
      this.emitChunk({
        run: this.run,
        timeline: this.timeline,
        first: resume.nextFrame - (resume.history?.length ?? 0),
        epoch: this.epoch,
        frames: taken.map((held) => held.frame),
        bitrateKbps: last.bitrateKbps,
        title: last.title,
        markers: resume.markers,
      });
    }
    this.handle = this.timers.setInterval(() => this.tick(), this.tickMs);
    this.tick();
    try {
      const resumed = await this.resumedTracks(source, tracksToResume(resume.markers, resumeSample(firstFrame)));
      if (this.playout !== playout) return;
      if (!(resumed.length > 0 && (await playout.resume(resumed)))) await Promise.race([playout.requestLoad(), delay(this.options.firstTrackWaitMs ?? 5000)]);
    } catch (error) {
      this.onError(error, 'resuming the stream');
    } finally {
      if (this.playout === playout) this.resuming = false;
    }
    if (this.playout !== playout) return;
    await playout.pump(this.aheadFrames(), FRAMES_PER_BLOCK);
  }

  /**
   * The source's tracks for a takeover's points, in order, each told which tracks the takeover continues (a
   * scheduler returns to its plan the slots cued beyond them). Inside a crossfade, if the source can no longer
   * play one of the two, the other goes on alone (the playout plans its segue again).
   */
  private async resumedTracks(source: TrackSource, points: ResumePoint[]): Promise<ResumedTrack[]> {
    if (!source.resume) return [];
    const ids = points.map((point) => point.id);
    const resumed: ResumedTrack[] = [];
    for (const point of points) {
      const track = await source.resume(point.id, ids);
      if (track) resumed.push({ track, point });
    }
    return resumed;
  }

  private newPlayout(firstFrame: number, source: TrackSource = this.source): Playout {
    return new Playout(source, {
      bitrateKbps: this.fanout.bitrateKbps,
      prefetchMs: this.options.prefetchMs ?? 15_000,
      retryMs: this.options.retryMs ?? 1000,
      crossfadeSec: this.options.crossfadeSec ?? 3,
      targetLufs: this.options.targetLufs ?? STATION_TARGET_LUFS,
      ceilingDbtp: this.options.ceilingDbtp ?? STATION_CEILING_DBTP,
      now: () => this.timers.now(),
      onError: this.onError,
      firstFrame,
    });
  }

  /** The stream's clock as a follower carries it on: frame index of the next frame to send, and frame 0's send time. */
  get clock(): { nextFrame: number; epoch: number; timeline: string } {
    return { nextFrame: this.sentFrames, epoch: this.epoch, timeline: this.timeline };
  }

  /**
   * Frames handed to onChunk but not yet sent here (from `clock.nextFrame` on): a leader that steps down still
   * owes them to its own listeners, as followers hold them.
   */
  publishedUnsent(): HeldFrame[] {
    const playout = this.playout;
    if (!playout) return [];
    const frames: HeldFrame[] = [...this.backlog];
    for (let k = 0; this.sentFrames + frames.length < this.publishedFrames; k++) {
      const frame = playout.peek(k);
      if (!frame) break;
      frames.push({ frame, bitrateKbps: playout.bitrateKbps, title: this.titleAt((this.sentFrames + frames.length) * SAMPLES_PER_FRAME) });
    }
    return frames;
  }

  /**
   * What another run continues this one from (null when not running): the clock, the frames rendered and not
   * yet sent here, and where the tracks on the timeline start. A follower that played on alone hands this to
   * its own next run when it takes the lead, or to its relay hold when the leader's frames come back.
   */
  handover(): StreamResume | null {
    const playout = this.playout;
    if (!playout || this.handle === null) return null;
    return {
      epoch: this.epoch,
      nextFrame: this.sentFrames,
      backlog: this.publishedUnsent(),
      markers: this.resumePoints(playout),
      timeline: this.timeline,
    };
  }

  /** The latest tracks on this run's timeline, those it took over first (its own marks come once it renders them). */
  private resumePoints(playout: Playout): ResumePoint[] {
    const byId = new Map<string, ResumePoint>();
    for (const point of [...this.carriedMarkers, ...playout.resumePoints(16)]) {
      byId.delete(point.id);
      byId.set(point.id, point);
    }
    return [...byId.values()].slice(-3);
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
    this.backlog = [];
    this.resuming = false;
  }

  /** One step of the loop: sends every frame whose time has come. Called by the timer; public for tests. */
  tick(): void {
    const playout = this.playout;
    if (!playout) return;
    const now = this.timers.now();
    const behindMs = now - this.epoch - this.sentFrames * FRAME_MS;
    // The process stalled (or the machine slept): move on rather than flood listeners with a burst.
    if (behindMs > this.maxCatchUpMs) this.epoch += behindMs;
    this.publishAhead(playout, now);
    const frames: Buffer[] = [];
    let held: HeldFrame | null = null;
    while (now - this.epoch >= this.sentFrames * FRAME_MS) {
      const fromBacklog = this.backlog.shift();
      const frame = fromBacklog?.frame ?? playout.takeFrame();
      if (!frame) {
        // Nothing rendered yet. A fresh run's send edge waits (listeners' leads cover it) rather than send
        // silence; a takeover's clock is the timeline every instance shares: it stays, and the late frames go
        // out together as soon as they are rendered (listeners' leads cover that too).
        if (!this.anchored) this.epoch = now - this.sentFrames * FRAME_MS;
        break;
      }
      held = fromBacklog ?? null;
      frames.push(frame);
      this.sentFrames++;
    }
    this.fanout.bitrateKbps = held ? held.bitrateKbps : playout.bitrateKbps;
    this.fanout.title = held ? held.title : this.titleAt(this.sentFrames * SAMPLES_PER_FRAME);
    this.fanout.push(frames);
    this.publishAhead(playout, now);
    this.fireMarkers(playout, now);
    // A load still in progress where a crossfade should begin may hold rendering while a tick's worth is left.
    if (!this.resuming) void playout.pump(this.aheadFrames(), Math.ceil((this.tickMs + 200) / FRAME_MS));
  }

  /**
   * Hands onChunk every frame rendered up to relayAheadMs past the send edge (at the send edge without it),
   * each once, with where it falls on the clock, so followers can hold the timeline ahead.
   */
  private publishAhead(playout: Playout, now: number): void {
    if (this.chunkCallbacks.size === 0) return;
    const horizon = now - this.epoch + (this.options.relayAheadMs ?? 0);
    const frames: Buffer[] = [];
    const first = Math.max(this.publishedFrames, this.sentFrames);
    for (let index = first; index * FRAME_MS <= horizon; index++) {
      const k = index - this.sentFrames;
      const frame = k < this.backlog.length ? null : playout.peek(k - this.backlog.length);
      if (!frame) break;
      frames.push(frame);
    }
    if (frames.length === 0) return;
    this.publishedFrames = first + frames.length;
    const title = this.titleAt((this.publishedFrames - 1) * SAMPLES_PER_FRAME);
    const markers = playout.resumePoints();
    this.emitChunk({ run: this.run, timeline: this.timeline, first, epoch: this.epoch, frames, bitrateKbps: playout.bitrateKbps, title, markers });
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
    return Math.ceil(Math.max(this.options.aheadMs ?? 1500, (this.options.relayAheadMs ?? 0) + this.tickMs) / FRAME_MS);
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
