/**
 * The live stream on one instance, single or multi-instance (README.md next to this file says why).
 *
 * - One instance, or several without Redis: this instance's broadcaster renders and sends the timeline.
 * - Several on Redis (`relay: true`): the scheduler leader renders and encodes the one timeline and
 *   publishes its frames on the bus `relayAheadMs` before they are due, each with its index on the stream's
 *   clock; followers render nothing, hold those frames and send each to their own listeners when it is due,
 *   so every listener of the station hears the same bytes at the same time. The role is checked every
 *   `checkMs`.
 * - Failover: when the leader dies, followers keep sending the frames they hold (a few seconds of the
 *   timeline) while the lead moves. The new leader sends what it holds, then continues the track that was on
 *   air at the very sample where the last leader's frames end (its position is on the shared clock, its
 *   slot in the database), and publishes from there; the other followers carry on with its frames. The old
 *   leader, if it comes back, halts its playout and follows.
 * - Alone: when a follower's held frames are about to run out and nothing new came (Redis down, so no bus and
 *   no leader; or a leader that died and none yet took over), it continues the same timeline itself, as a new
 *   leader would, but reading the running order without changing it (`alone`: the slots the leader cued and
 *   planned, their masters and analyses in the database). When the leader's frames come back it goes back to
 *   relaying them from the next frame it has not sent, so its listeners get neither a gap nor a stretch twice;
 *   if it is the one that gets the lead, it continues its own timeline as the leader.
 */
import type { EventBus } from '../../infra/pubsub/event-bus.js';
import type { HeldFrame, ResumePoint, StreamBroadcaster, StreamChunk, StreamResume, TrackSource } from './broadcaster.js';
import { FRAME_MS } from './fanout.js';
import { FRAMES_PER_SEGMENT } from './hls-segmenter.js';

/** Frames of the leader's stream on the bus. */
export interface RelayMessage {
  run: string;
  /** The timeline the frames belong to: kept across takeovers, new when a stream starts afresh. */
  timeline?: string;
  /** Stream index of the first frame; frame i is due at epoch + i x FRAME_MS. */
  first: number;
  epoch: number;
  kbps: number;
  title: string | null;
  markers: ResumePoint[];
  /** Byte length of each frame in `data`. */
  sizes: number[];
  /** The frames, base64 (the bus carries JSON). */
  data: string;
}

export interface LiveStreamOptions {
  broadcaster: StreamBroadcaster;
  bus: EventBus;
  leader: { isLeader(): boolean };
  /** Relay the leader's frames to followers over the bus (multi-instance with Redis). */
  relay: boolean;
  channel: string;
  checkMs?: number;
  /** Interval at which a follower sends the frames that came due (default: the broadcaster's tick). */
  tickMs?: number;
  now?: () => number;
  /**
   * A follower whose held frames run out within `aloneBeforeMs` plays on alone from this source (made afresh
   * each time): it reads the running order and changes nothing. Without it, the follower waits for frames.
   */
  alone?: () => TrackSource;
  /** How much held audio is left when a follower starts playing on alone (default 2 s). */
  aloneBeforeMs?: number;
  /**
   * How much further than `aloneBeforeMs` the leader's frames must reach before a follower playing alone hands
   * back to them (default 1 s). Without the margin, a leader whose frames come just under `aloneBeforeMs`
   * ahead (its publisher reconnecting after Redis returns, a loaded machine) flips the follower at every
   * message, and every flip restarts its broadcaster.
   */
  handBackMarginMs?: number;
  /** The least time a follower plays alone before it hands back (default 2 s): bursts of late frames flip it at most once per this. */
  minAloneMs?: number;
  onError?(error: unknown, context: string): void;
}

export function relayMessage(chunk: StreamChunk): RelayMessage {
  return {
    run: chunk.run,
    timeline: chunk.timeline,
    first: chunk.first,
    epoch: chunk.epoch,
    kbps: chunk.bitrateKbps,
    title: chunk.title,
    markers: chunk.markers,
    sizes: chunk.frames.map((frame) => frame.length),
    data: Buffer.concat(chunk.frames).toString('base64'),
  };
}

function isResumePoint(value: unknown): value is ResumePoint {
  const m = value as Partial<ResumePoint> | null;
  if (!m || typeof m.id !== 'string' || !Number.isFinite(m.startSample) || !(m.changeSample === null || Number.isFinite(m.changeSample))) return false;
  // A crossfade's place: optional (a leader of an earlier version sends none), numbers when present.
  const optional = [m.fadeIn, m.fadeOut, m.lift, m.liftLength, m.endSample ?? undefined];
  if (!optional.every((field) => field === undefined || Number.isFinite(field))) return false;
  return m.analysis === undefined || isAnalysis(m.analysis);
}

/** The analysis a leader aired a track with, as it came over the bus. */
function isAnalysis(value: unknown): boolean {
  const a = value as Record<string, unknown> | null;
  if (!a || typeof a !== 'object') return false;
  const numbers = ['durationSec', 'soundStartSec', 'soundEndSec', 'introSec', 'outroSec'].every((key) => Number.isFinite(a[key]));
  return numbers && ['loudnessLufs', 'truePeakDbtp'].every((key) => a[key] === null || Number.isFinite(a[key]));
}

/** The frames of a relay message; null when it is not one. */
export function relayedFrames(message: unknown): { message: RelayMessage; frames: Buffer[] } | null {
  const m = message as Partial<RelayMessage> | null;
  if (m?.timeline !== undefined && typeof m.timeline !== 'string') return null;
  if (!m || typeof m.run !== 'string' || typeof m.data !== 'string' || !Array.isArray(m.sizes) || typeof m.kbps !== 'number') return null;
  if (!Number.isSafeInteger(m.first) || m.first! < 0 || !Number.isFinite(m.epoch)) return null;
  if (!Array.isArray(m.markers) || !m.markers.every(isResumePoint)) return null;
  const bytes = Buffer.from(m.data, 'base64');
  const frames: Buffer[] = [];
  let at = 0;
  for (const size of m.sizes) {
    if (!Number.isInteger(size) || size <= 0 || at + size > bytes.length) return null;
    frames.push(bytes.subarray(at, at + size));
    at += size;
  }
  return { message: m as RelayMessage, frames };
}

/**
 * Frames a follower keeps after sending them: a new leader hands its HLS segmenter the timeline from the
 * start of the segment the last leader had not written yet. That segment began up to one segment before the
 * leader died, and followers go on sending for the 2-4 s the lease takes to move: four segments (~16 s, about
 * 250 KB at 128 kbps) cover both with room for a late write.
 */
export const RECENT_FRAMES = 4 * FRAMES_PER_SEGMENT;

/**
 * What a follower holds of the leader's timeline: frames by stream index, sent when due. A frame lost on the
 * bus (pub/sub delivers at most once) is skipped when the next one is due; a frame already held, or already
 * sent, is never taken twice (a new leader republishes from where the last one's frames ended).
 */
export class RelayHold {
  epoch = 0;
  markers: ResumePoint[] = [];
  timeline: string | undefined;
  /** The last RECENT_FRAMES frames sent, by stream index. */
  private readonly recent: { index: number; held: HeldFrame }[] = [];
  /** Index of the next frame to send; null until the first frames arrive. */
  next: number | null = null;
  private readonly frames = new Map<number, HeldFrame>();
  /** Indexes of held frames this instance rendered itself (playing alone): the leader's frames replace them. */
  private readonly own = new Set<number>();

  add(message: RelayMessage, frames: Buffer[]): void {
    // Frames all sent already (a publish Redis queued while it was down, delivered late) change nothing.
    if (!this.isFresh(message, frames.length)) return;
    this.epoch = message.epoch;
    // A new leader republishes the frames it took over before its playout has marked a track: keep the last ones.
    if (message.markers.length > 0) this.markers = message.markers;
    if (message.timeline !== undefined) this.timeline = message.timeline;
    frames.forEach((frame, i) => {
      const index = message.first + i;
      if ((this.next === null || index >= this.next) && (!this.frames.has(index) || this.own.has(index))) {
        this.frames.set(index, { frame, bitrateKbps: message.kbps, title: message.title });
        this.own.delete(index);
      }
    });
    if (this.next === null && this.frames.size > 0) this.next = Math.min(...this.frames.keys());
  }

  /** Whether a message carries a frame not sent yet. */
  isFresh(message: RelayMessage, count: number): boolean {
    return this.next === null || message.first + count > this.next;
  }

  /** The frames due at `now`, in order. */
  due(now: number): HeldFrame[] {
    const out: HeldFrame[] = [];
    while (this.next !== null && this.epoch + this.next * FRAME_MS <= now) {
      const held = this.frames.get(this.next);
      if (held) {
        this.frames.delete(this.next);
        this.own.delete(this.next);
        out.push(held);
        this.recent.push({ index: this.next, held });
        if (this.recent.length > RECENT_FRAMES) this.recent.shift();
        this.next++;
        continue;
      }
      const later = this.firstAfter(this.next);
      if (later === null) break; // nothing more yet: wait for it (the leader is late, or gone)
      this.next = later;
    }
    return out;
  }

  /** The frames held from `next` on, consecutive (what a follower taking the lead sends first). */
  contiguous(): HeldFrame[] {
    const out: HeldFrame[] = [];
    if (this.next === null) return out;
    for (let index = this.next; this.frames.has(index); index++) out.push(this.frames.get(index)!);
    return out;
  }

  /**
   * How far past `now` the frames held reach, in ms (negative when they ran out). A frame lost on the bus
   * leaves a hole that is skipped; only the end of what is held means the leader's frames stopped coming.
   */
  heldAheadMs(now: number): number {
    if (this.next === null) return 0;
    let end = this.next;
    for (const index of this.frames.keys()) end = Math.max(end, index + 1);
    return this.epoch + end * FRAME_MS - now;
  }

  /** The frames sent just before `next`, consecutive and ending at next - 1 (what a new leader's HLS starts from). */
  history(): HeldFrame[] {
    const out: HeldFrame[] = [];
    if (this.next === null) return out;
    for (let i = this.recent.length - 1, index = this.next - 1; i >= 0 && this.recent[i].index === index; i--, index--) out.unshift(this.recent[i].held);
    return out;
  }

  /**
   * Forgets every frame; the next to send is `next`, and `carried` are the frames from there on that this
   * instance already has (a leader that steps down goes on from its own clock and its own published frames;
   * a follower that played alone, from its own rendered frames: `own`, the leader's replace them).
   */
  reset(next: number | null, epoch: number, carried: HeldFrame[] = [], own = false): void {
    this.frames.clear();
    this.own.clear();
    this.recent.length = 0;
    this.next = next;
    this.epoch = epoch;
    if (next === null) return;
    carried.forEach((held, i) => {
      this.frames.set(next + i, held);
      if (own) this.own.add(next + i);
    });
  }

  private firstAfter(index: number): number | null {
    let best: number | null = null;
    for (const key of this.frames.keys()) if (key > index && (best === null || key < best)) best = key;
    return best;
  }
}

export class LiveStream {
  private role: 'leader' | 'follower' | null = null;
  private timer: NodeJS.Timeout | null = null;
  private sendTimer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => Promise<void>) | null = null;
  private stopPublishing: (() => void) | null = null;
  private switching: Promise<void> = Promise.resolve();
  private stopped = false;
  private readonly hold = new RelayHold();
  private readonly now: () => number;
  /** Frames relayed to this instance's listeners (what a follower served). */
  relayedFrames = 0;
  /** Takeovers that continued the last leader's timeline (rather than starting afresh). */
  resumed = 0;
  /** Times this follower played on alone, and went back to relaying. */
  wentAlone = 0;
  handedBack = 0;
  /** True while this follower renders the timeline itself (no leader's frames). */
  private playingAlone = false;
  /** When it last started playing alone. */
  private aloneSince = 0;
  /** The leader's frames that came while playing alone, not sent yet: held once it hands back. */
  private waiting: { message: RelayMessage; frames: Buffer[] }[] = [];

  constructor(private readonly options: LiveStreamOptions) {
    this.now = options.now ?? Date.now;
  }

  get isFollowing(): boolean {
    return this.role === 'follower';
  }

  async start(): Promise<void> {
    this.stopped = false;
    const { broadcaster, relay } = this.options;
    if (!relay) {
      this.role = 'leader';
      await broadcaster.start();
      return;
    }
    this.unsubscribe = await this.options.bus.subscribe(this.options.channel, (message) => this.onRelayed(message));
    this.stopPublishing = broadcaster.onChunk((chunk) => {
      // The election, not only the role last checked: a leader that lost its lease publishes nothing more.
      if (this.role !== 'leader' || !this.options.leader.isLeader()) return;
      this.options.bus.publish(this.options.channel, relayMessage(chunk)).catch((error: unknown) => this.report(error, 'relaying the stream'));
    });
    this.timer = setInterval(() => void this.checkRole(), this.options.checkMs ?? 250);
    this.timer.unref();
    await this.checkRole();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.stopSending();
    this.stopPublishing?.();
    this.stopPublishing = null;
    await this.switching;
    await this.unsubscribe?.();
    this.unsubscribe = null;
    this.options.broadcaster.stop();
    this.playingAlone = false;
    this.role = null;
  }

  /** Takes the role the election gives: leaders render, followers relay. Role changes never overlap. */
  checkRole(): Promise<void> {
    this.switching = this.switching
      .then(async () => {
        if (this.stopped) return;
        const leading = this.options.leader.isLeader();
        if (leading && this.role !== 'leader') await this.lead();
        else if (!leading && this.role !== 'follower') this.follow();
      })
      .catch((error: unknown) => this.report(error, 'switching the stream role'));
    return this.switching;
  }

  /** Becomes the leader: continues the timeline this instance holds, or starts one (the first instance). */
  private async lead(): Promise<void> {
    const wasFollowing = this.role === 'follower';
    this.role = 'leader';
    this.stopSending();
    const { broadcaster } = this.options;
    if (this.playingAlone) {
      // It played the timeline alone: it goes on from its own run, now as the leader (cueing and counting).
      this.playingAlone = false;
      this.waiting = [];
      const own = broadcaster.handover();
      broadcaster.halt();
      if (own) {
        this.hold.reset(null, 0);
        this.resumed++;
        return broadcaster.start(own);
      }
    }
    if (!wasFollowing || this.hold.next === null) return broadcaster.start();
    const resume: StreamResume = {
      epoch: this.hold.epoch,
      nextFrame: this.hold.next,
      backlog: this.hold.contiguous(),
      markers: this.hold.markers,
      timeline: this.hold.timeline,
      history: this.hold.history(),
    };
    this.hold.reset(null, 0);
    this.resumed++;
    await broadcaster.start(resume);
  }

  /** Becomes a follower: its own playout stops, its listeners get the leader's frames from its own clock on. */
  private follow(): void {
    const { broadcaster } = this.options;
    // A leader that steps down goes on from its own clock, its published frames and its tracks' marks.
    const own = broadcaster.handover();
    this.role = 'follower';
    broadcaster.halt();
    this.hold.reset(own?.nextFrame ?? null, own?.epoch ?? 0, own?.backlog ?? []);
    if (own) {
      this.hold.timeline = own.timeline;
      this.hold.markers = own.markers;
    }
    const tickMs = this.options.tickMs ?? broadcaster.tickMs;
    this.sendTimer = setInterval(() => this.sendDue(), tickMs);
    this.sendTimer.unref();
  }

  private stopSending(): void {
    if (this.sendTimer) clearInterval(this.sendTimer);
    this.sendTimer = null;
  }

  /** A follower's tick: the leader's frames that came due go to this instance's listeners. */
  private sendDue(): void {
    if (this.role !== 'follower' || this.playingAlone) return;
    const now = this.now();
    const due = this.hold.due(now);
    if (this.options.alone && this.hold.next !== null && this.hold.heldAheadMs(now) < (this.options.aloneBeforeMs ?? 2000)) void this.goAlone();
    this.send(due);
  }

  private send(due: HeldFrame[]): void {
    if (due.length === 0) return;
    const fanout = this.options.broadcaster.fanout;
    const last = due[due.length - 1];
    fanout.bitrateKbps = last.bitrateKbps;
    fanout.title = last.title;
    fanout.push(due.map((held) => held.frame));
    this.relayedFrames += due.length;
  }

  private onRelayed(raw: unknown): void {
    if (this.role !== 'follower') return; // the leader hears its own frames too
    const relayed = relayedFrames(raw);
    if (!relayed) return;
    if (this.playingAlone) {
      // Only the leader's frames still to come end playing alone, not a late delivery of old ones.
      const sent = this.options.broadcaster.clock.nextFrame;
      const end = relayed.message.first + relayed.frames.length;
      if (end <= sent) return;
      // ...and only once they lead by a margin over the point where it went alone, after a least stay alone.
      // Until then they are kept: the ones that came before cover the time between its own last rendered frame
      // and the message that hands back.
      const now = this.now();
      const ahead = relayed.message.epoch + end * FRAME_MS - now;
      const { aloneBeforeMs = 2000, handBackMarginMs = 1000, minAloneMs = 2000 } = this.options;
      this.waiting = this.waiting.filter((kept) => kept.message.first + kept.frames.length > sent);
      if (ahead < aloneBeforeMs + handBackMarginMs || now - this.aloneSince < minAloneMs) {
        this.waiting.push(relayed);
        return;
      }
      this.handBack();
    }
    this.hold.add(relayed.message, relayed.frames);
    this.sendDue();
  }

  /**
   * The leader's frames ran out: this follower continues the timeline itself from where they end, as a new
   * leader would (the same clock, the track on air continued at the same sample, then the running order),
   * but changes nothing in the plan and publishes nothing.
   */
  private goAlone(): Promise<void> {
    this.switching = this.switching
      .then(async () => {
        if (this.stopped || this.role !== 'follower' || this.playingAlone || this.hold.next === null || !this.options.alone) return;
        if (this.hold.heldAheadMs(this.now()) >= (this.options.aloneBeforeMs ?? 2000)) return; // frames came meanwhile
        const resume: StreamResume = {
          epoch: this.hold.epoch,
          nextFrame: this.hold.next,
          backlog: this.hold.contiguous(),
          markers: this.hold.markers,
          timeline: this.hold.timeline,
          source: this.options.alone(),
        };
        this.playingAlone = true;
        this.aloneSince = this.now();
        this.waiting = [];
        this.wentAlone++;
        this.hold.reset(null, 0);
        await this.options.broadcaster.start(resume);
      })
      .catch((error: unknown) => this.report(error, 'playing the stream alone'));
    return this.switching;
  }

  /** The leader's frames are back: its own run stops, and what it rendered fills in until theirs begin. */
  private handBack(): void {
    const { broadcaster } = this.options;
    const own = broadcaster.handover();
    broadcaster.halt();
    this.playingAlone = false;
    this.handedBack++;
    if (own) {
      this.hold.reset(own.nextFrame, own.epoch, own.backlog, true);
      this.hold.markers = own.markers;
      this.hold.timeline = own.timeline;
    }
    for (const kept of this.waiting) this.hold.add(kept.message, kept.frames);
    this.waiting = [];
  }

  private report(error: unknown, context: string): void {
    this.options.onError?.(error, context);
  }
}
