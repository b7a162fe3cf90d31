/**
 * Fan-out of the four WebSocket channels to this instance's clients. A message is serialised once per
 * broadcast and the same Buffer is handed to every socket; a send never waits for a client, and a client
 * whose outgoing buffer passed the bound is dropped instead of growing the server's memory (STYLE: fan-out
 * fails per target). A heartbeat pings every client and terminates the ones that did not answer the
 * previous ping.
 *
 * A broadcast to many clients goes out in batches (`batchSize` sockets each, the first at once, the rest
 * each on its own turn of the event loop), so 10,000 writes do not hold the loop for tens of milliseconds:
 * requests, stream ticks and pongs run between batches. Broadcasts are delivered in the order they were
 * made: a second one waits until the first has reached its last client, so every client sees them in order.
 */
import type { Duplex } from 'node:stream';
import { WebSocket } from 'ws';

export const CHANNELS = ['now-playing', 'listeners', 'generation-progress', 'training-progress'] as const;
export type Channel = (typeof CHANNELS)[number];

/** Close code for a client that does not read what it is sent (4000-4999: application codes). */
export const SLOW_CONSUMER_CLOSE = 4008;
/** Close codes of a client whose credential ended (revoked, banned) or lost the channel's scope (contract.md). */
export const CREDENTIAL_REVOKED_CLOSE = 4401;
export const SCOPE_LOST_CLOSE = 4403;
export const GOING_AWAY_CLOSE = 1001;
export const DEFAULT_MAX_BUFFERED_BYTES = 1024 * 1024;
export const DEFAULT_HEARTBEAT_MS = 30_000;
/** Sockets written per turn of the event loop (~5 ms of work on the 2-core bench VM, bench/ws-fanout.ts). */
export const DEFAULT_BATCH_SIZE = 1000;

export type DropReason = 'slow_consumer' | 'no_pong';

export interface ChannelHubOptions {
  /** A client with more than this many bytes waiting to be written is dropped (default 1 MiB). */
  maxBufferedBytes?: number;
  /** Ping period; a client that did not pong since the previous ping is terminated (default 30 s). */
  heartbeatMs?: number;
  /** How long a dropped slow client gets to receive its close frame before its socket is destroyed. */
  closeGraceMs?: number;
  /** Sockets written per turn of the event loop by one broadcast (default 1000). */
  batchSize?: number;
  onDrop?: (channel: Channel, reason: DropReason) => void;
}

/** One serialised message: the complete WebSocket text frame and, inside it, the payload. */
interface Frame {
  frame: Buffer;
  payload: Buffer;
}

/** The parts of a ws socket the fast path touches (private to ws 8; see `deliver`). */
interface WsInternals {
  _socket?: Duplex;
  _sender?: { _bufferedBytes?: number };
}

/** An unmasked (server-to-client) text frame, FIN set: RFC 6455 section 5.2. */
export function textFrame(json: string): Frame {
  const payloadLength = Buffer.byteLength(json);
  const headerLength = payloadLength < 126 ? 2 : payloadLength < 65536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(headerLength + payloadLength);
  frame[0] = 0x81;
  if (payloadLength < 126) {
    frame[1] = payloadLength;
  } else if (payloadLength < 65536) {
    frame[1] = 126;
    frame.writeUInt16BE(payloadLength, 2);
  } else {
    frame[1] = 127;
    frame.writeUInt32BE(Math.floor(payloadLength / 2 ** 32), 2);
    frame.writeUInt32BE(payloadLength >>> 0, 6);
  }
  frame.write(json, headerLength);
  return { frame, payload: frame.subarray(headerLength) };
}

/** A broadcast not yet handed to every socket of its snapshot. */
interface PendingBroadcast {
  sockets: WebSocket[];
  next: number;
  frame: Frame;
}

export interface HubStats {
  /** Frames handed to sockets by `broadcast` and `send`. */
  sent: number;
  droppedSlow: number;
  droppedNoPong: number;
}

export class ChannelHub {
  private readonly byChannel = new Map<Channel, Set<WebSocket>>(CHANNELS.map((channel) => [channel, new Set()]));
  /** Every registered socket and its channel (one channel per connection: the path chooses it). */
  private readonly channelOf = new Map<WebSocket, Channel>();
  /** Pinged at the last heartbeat and not answered yet. */
  private readonly awaitingPong = new Set<WebSocket>();
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private readonly maxBufferedBytes: number;
  private readonly closeGraceMs: number;
  private readonly onDrop: ChannelHubOptions['onDrop'];
  private heartbeatMs: number;
  private readonly batchSize: number;
  /** Broadcasts in order; the first is being written, batch by batch. */
  private readonly pending: PendingBroadcast[] = [];
  private drainScheduled = false;
  private idleWaiters: Array<() => void> = [];
  readonly stats: HubStats = { sent: 0, droppedSlow: 0, droppedNoPong: 0 };

  // Shared listeners (`this` is the socket) rather than two closures per client: less memory per connection.
  private readonly onPong: (this: WebSocket) => void;
  private readonly onClose: (this: WebSocket) => void;

  constructor(options: ChannelHubOptions = {}) {
    this.maxBufferedBytes = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
    this.heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
    this.closeGraceMs = options.closeGraceMs ?? 1000;
    this.batchSize = Math.max(1, options.batchSize ?? DEFAULT_BATCH_SIZE);
    this.onDrop = options.onDrop;
    // The handlers' own `this` is the socket: one function shared by every socket, not a closure per socket.
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const hub = this;
    this.onPong = function onPong(this: WebSocket) {
      hub.awaitingPong.delete(this);
    };
    this.onClose = function onClose(this: WebSocket) {
      hub.remove(this);
    };
  }

  /** Registers an open socket on a channel; it is forgotten by itself when it closes. */
  add(channel: Channel, socket: WebSocket): boolean {
    if (socket.readyState !== WebSocket.OPEN || this.channelOf.has(socket)) return false;
    this.byChannel.get(channel)!.add(socket);
    this.channelOf.set(socket, channel);
    socket.on('pong', this.onPong);
    socket.once('close', this.onClose);
    return true;
  }

  remove(socket: WebSocket): void {
    const channel = this.channelOf.get(socket);
    if (channel === undefined) return;
    this.channelOf.delete(socket);
    this.byChannel.get(channel)!.delete(socket);
    this.awaitingPong.delete(socket);
    socket.off('pong', this.onPong);
    socket.off('close', this.onClose);
  }

  /** Connected clients of one channel, or of all of them. */
  size(channel?: Channel): number {
    return channel === undefined ? this.channelOf.size : this.byChannel.get(channel)!.size;
  }

  /**
   * Sends `message` to every client of the channel as of now; returns how many sockets it will be handed to.
   * The first batch is written before this returns, the rest on the following turns of the event loop
   * (`idle()` resolves once every broadcast reached its last socket).
   */
  broadcast(channel: Channel, message: unknown): number {
    const clients = this.byChannel.get(channel)!;
    if (clients.size === 0) return 0;
    // A snapshot: clients that join meanwhile get the current state from their own first message instead.
    this.pending.push({ sockets: [...clients], next: 0, frame: textFrame(JSON.stringify(message)) });
    if (this.pending.length === 1) this.drain();
    return clients.size;
  }

  /** Resolves when every broadcast made so far has been handed to all its sockets. */
  idle(): Promise<void> {
    if (this.pending.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Writes one batch of the oldest broadcast and schedules the next turn while any is left. */
  private drain(): void {
    let budget = this.batchSize;
    while (budget > 0 && this.pending.length > 0) {
      const current = this.pending[0];
      const { sockets, frame } = current;
      const end = Math.min(sockets.length, current.next + budget);
      for (let i = current.next; i < end; i++) {
        const socket = sockets[i];
        // Still registered: a socket dropped or disconnected after the snapshot gets nothing more.
        if (this.channelOf.has(socket)) this.deliver(socket, frame);
      }
      budget -= end - current.next;
      current.next = end;
      if (end === sockets.length) this.pending.shift();
    }
    if (this.pending.length > 0) {
      if (!this.drainScheduled) {
        this.drainScheduled = true;
        setImmediate(() => {
          this.drainScheduled = false;
          this.drain();
        });
      }
      return;
    }
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  /** One message to one registered client (its first card or count on connect). */
  send(socket: WebSocket, message: unknown): boolean {
    if (!this.channelOf.has(socket)) return false;
    return this.deliver(socket, textFrame(JSON.stringify(message)));
  }

  /** Starts the heartbeat, or restarts it with another period (tests use short ones). */
  startHeartbeat(periodMs = this.heartbeatMs): void {
    this.stopHeartbeat();
    this.heartbeatMs = periodMs;
    this.heartbeatTimer = setInterval(() => this.heartbeat(), periodMs);
    this.heartbeatTimer.unref();
  }

  stopHeartbeat(): void {
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = null;
  }

  /** One heartbeat: terminate whoever missed the previous ping, then ping everyone else. */
  heartbeat(): void {
    for (const socket of this.awaitingPong) {
      const channel = this.channelOf.get(socket);
      this.remove(socket);
      socket.terminate();
      this.stats.droppedNoPong++;
      if (channel) this.onDrop?.(channel, 'no_pong');
    }
    this.awaitingPong.clear();
    for (const socket of this.channelOf.keys()) {
      if (socket.readyState !== WebSocket.OPEN) continue;
      this.awaitingPong.add(socket);
      try {
        socket.ping();
      } catch {
        // A socket that cannot take a ping is terminated at the next heartbeat.
      }
    }
  }

  /** Shutdown: every client gets 1001 (going away) and its socket is closed now, not after a handshake. */
  closeAll(code = GOING_AWAY_CLOSE, reason = 'server shutting down'): void {
    this.stopHeartbeat();
    // Broadcasts not yet written are abandoned with their clients.
    this.pending.length = 0;
    for (const socket of [...this.channelOf.keys()]) {
      this.remove(socket);
      try {
        socket.close(code, reason);
      } catch {
        // Already closing.
      }
      socket.terminate();
    }
  }

  /** Closes one client with `code` (its credential ended); the socket is destroyed if the close frame does not go out in time. */
  disconnect(socket: WebSocket, code: number, reason: string): void {
    if (!this.channelOf.has(socket)) return;
    this.remove(socket);
    try {
      socket.close(code, reason);
    } catch {
      // Already closing.
    }
    setTimeout(() => socket.terminate(), this.closeGraceMs).unref();
  }

  private deliver(socket: WebSocket, { frame, payload }: Frame): boolean {
    if (socket.readyState !== WebSocket.OPEN) return false;
    if (socket.bufferedAmount > this.maxBufferedBytes) {
      this.dropSlow(socket);
      return false;
    }
    try {
      // Fast path: the frame built once is written to the TCP socket as is, one write per client instead of
      // ws's header allocation + cork + two writes (a third less time per client at 10,000 clients, see
      // bench/ws-fanout.ts). Safe only while ws has nothing queued (no compression, which the server turns
      // off, and no pending Blob): frames then go out in call order either way. Otherwise, ws sends it.
      const internals = socket as unknown as WsInternals;
      if (internals._socket && internals._sender?._bufferedBytes === 0) internals._socket.write(frame);
      else socket.send(payload, { binary: false });
    } catch {
      return false;
    }
    this.stats.sent++;
    return true;
  }

  private dropSlow(socket: WebSocket): void {
    const channel = this.channelOf.get(socket);
    this.remove(socket);
    this.stats.droppedSlow++;
    if (channel) this.onDrop?.(channel, 'slow_consumer');
    try {
      socket.close(SLOW_CONSUMER_CLOSE, 'slow consumer');
    } catch {
      // Already closing.
    }
    // The close frame waits behind everything the client has not read; do not hold that memory for long.
    setTimeout(() => socket.terminate(), this.closeGraceMs).unref();
  }
}
