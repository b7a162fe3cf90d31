/**
 * The live stream on one instance, single or multi-instance (README.md next to this file says why).
 *
 * - One instance, or several without Redis: this instance's broadcaster renders and sends the timeline.
 * - Several on Redis (`relay: true`): the scheduler leader renders and encodes the one timeline and
 *   publishes every tick's frames on the bus; followers render nothing and send those frames, as they
 *   arrive, to their own listeners, so every listener of the station hears the same bytes within the
 *   bus's latency. The role is checked every `checkMs`: when the lead moves, the new leader starts its
 *   playout where the stream is (listeners stay connected; the old leader halts its playout and follows).
 */
import type { EventBus } from '../../infra/pubsub/event-bus.js';
import type { StreamBroadcaster, StreamChunk } from './broadcaster.js';

/** One tick of the leader's stream on the bus. */
export interface RelayMessage {
  run: string;
  kbps: number;
  title: string | null;
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
  onError?(error: unknown, context: string): void;
}

export function relayMessage(chunk: StreamChunk): RelayMessage {
  return {
    run: chunk.run,
    kbps: chunk.bitrateKbps,
    title: chunk.title,
    sizes: chunk.frames.map((frame) => frame.length),
    data: Buffer.concat(chunk.frames).toString('base64'),
  };
}

/** The frames of a relay message; null when it is not one. */
export function relayedFrames(message: unknown): { message: RelayMessage; frames: Buffer[] } | null {
  const m = message as Partial<RelayMessage> | null;
  if (!m || typeof m.run !== 'string' || typeof m.data !== 'string' || !Array.isArray(m.sizes) || typeof m.kbps !== 'number') return null;
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

export class LiveStream {
  private role: 'leader' | 'follower' | null = null;
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => Promise<void>) | null = null;
  private stopPublishing: (() => void) | null = null;
  private switching: Promise<void> = Promise.resolve();
  private stopped = false;
  /** Frames relayed to this instance's listeners (what a follower served). */
  relayedFrames = 0;

  constructor(private readonly options: LiveStreamOptions) {}

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
      if (this.role !== 'leader') return;
      this.options.bus.publish(this.options.channel, relayMessage(chunk)).catch((error: unknown) => this.report(error, 'relaying the stream'));
    });
    this.timer = setInterval(() => void this.checkRole(), this.options.checkMs ?? 500);
    this.timer.unref();
    await this.checkRole();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.stopPublishing?.();
    this.stopPublishing = null;
    await this.switching;
    await this.unsubscribe?.();
    this.unsubscribe = null;
    this.options.broadcaster.stop();
    this.role = null;
  }

  /** Takes the role the election gives: leaders render, followers relay. Role changes never overlap. */
  checkRole(): Promise<void> {
    this.switching = this.switching.then(async () => {
      if (this.stopped) return;
      const leading = this.options.leader.isLeader();
      if (leading && this.role !== 'leader') {
        this.role = 'leader';
        await this.options.broadcaster.start();
      } else if (!leading && this.role !== 'follower') {
        this.role = 'follower';
        this.options.broadcaster.halt();
      }
    }).catch((error: unknown) => this.report(error, 'switching the stream role'));
    return this.switching;
  }

  private onRelayed(raw: unknown): void {
    if (this.role !== 'follower') return; // the leader hears its own frames too
    const relayed = relayedFrames(raw);
    if (!relayed) return;
    const fanout = this.options.broadcaster.fanout;
    fanout.bitrateKbps = relayed.message.kbps;
    fanout.title = relayed.message.title;
    fanout.push(relayed.frames);
    this.relayedFrames += relayed.frames.length;
  }

  private report(error: unknown, context: string): void {
    this.options.onError?.(error, context);
  }
}
