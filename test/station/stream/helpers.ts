/** Stream test helpers: real MP3 tones, a track source over them, a hand-driven clock and an in-memory sink. */
import { createMp3Encoder } from 'wasm-media-encoders';
import { buildId3Tag } from '../../../src/engine/audio/id3.js';
import type { ListenerSink, SourceTrack, StreamTimers, TrackSource } from '../../../src/station/stream/broadcaster.js';
import { parseMp3, silentFrame } from '../../../src/engine/audio/mp3-frames.js';

/** Raw LAME output (no tags) of a stereo sine tone. */
export async function toneMp3(frequencyHz: number, seconds: number, bitrateKbps: 128 | 192 | 320 = 128): Promise<Buffer> {
  const encoder = await createMp3Encoder();
  encoder.configure({ sampleRate: 44100, channels: 2, bitrate: bitrateKbps });
  const samples = Math.round(seconds * 44100);
  const left = new Float32Array(samples);
  const right = new Float32Array(samples);
  for (let i = 0; i < samples; i++) {
    left[i] = 0.3 * Math.sin((2 * Math.PI * frequencyHz * i) / 44100);
    right[i] = 0.3 * Math.sin((2 * Math.PI * frequencyHz * 1.5 * i) / 44100);
  }
  return Buffer.concat([encoder.encode([left, right]).slice(), encoder.finalize().slice()]);
}

/** An "Info" header frame as LAME writes for CBR files (no audio; describes the whole file). */
export function infoFrame(bitrateKbps: number): Buffer {
  const frame = Buffer.from(silentFrame(bitrateKbps));
  frame.write('Info', 36, 'latin1');
  frame.writeUInt32BE(0x0f, 40); // flags: frames, bytes, TOC, quality present
  return frame;
}

export function id3v1(title: string): Buffer {
  const tag = Buffer.alloc(128);
  tag.write('TAG', 0, 'latin1');
  tag.write(title, 3, 'latin1');
  return tag;
}

/** A file as a library would hold it: ID3v2.4 tag, Info frame, audio, ID3v1 tag. */
export function tagged(audio: Buffer, title: string): Buffer {
  const bitrate = parseMp3(audio).frames[0].bitrateKbps;
  const tag = buildId3Tag({ title, stationName: 'Station', modelVersion: 'test-1' });
  return Buffer.concat([tag, infoFrame(bitrate), audio, id3v1(title)]);
}

/** The audio frames of a file, concatenated (what the stream should carry of it). */
export function audioBytes(file: Buffer): Buffer {
  return Buffer.concat(parseMp3(file).frames.map((f) => file.subarray(f.offset, f.offset + f.length)));
}

export interface TestTrack {
  id: string;
  file: Buffer;
  title?: string;
}

/** Plays the tracks in order (looping when asked); null once they run out. Counts next() calls. */
export class ListSource implements TrackSource {
  calls = 0;
  private index = 0;
  constructor(
    private readonly tracks: TestTrack[],
    private readonly loop = false,
  ) {}
  async next(): Promise<SourceTrack | null> {
    this.calls++;
    if (this.index >= this.tracks.length) {
      if (!this.loop) return null;
      this.index = 0;
    }
    const track = this.tracks[this.index++];
    const bitrateKbps = parseMp3(track.file).frames[0].bitrateKbps;
    return { id: track.id, title: track.title, bitrateKbps, read: async () => track.file };
  }
}

/**
 * A clock that moves only when told; advance() runs the interval callback at each interval it crosses and
 * every one-shot timer at its time, in time order.
 */
export class FakeTimers implements StreamTimers {
  current = 1_700_000_000_000;
  /** Awaited after every callback as well: the broadcaster's idle(), so renders and loads settle in step. */
  settle: (() => Promise<void>) | null = null;
  private callback: (() => void) | null = null;
  private everyMs = 0;
  private nextAt = 0;
  private timeouts: { at: number; callback: () => void; id: number }[] = [];
  private ids = 0;
  now(): number {
    return this.current;
  }
  setInterval(callback: () => void, ms: number): unknown {
    this.callback = callback;
    this.everyMs = ms;
    this.nextAt = this.current + ms;
    return 1;
  }
  clearInterval(): void {
    this.callback = null;
  }
  setTimeout(callback: () => void, ms: number): unknown {
    const id = ++this.ids;
    this.timeouts.push({ at: this.current + Math.max(0, ms), callback, id });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.timeouts = this.timeouts.filter((timeout) => timeout.id !== handle);
  }
  /** The event loop was blocked for `ms`: a real interval then fires once, late, and goes on from there. */
  stall(ms: number): void {
    this.current += ms;
    this.nextAt = this.current;
  }
  /** Moves time forward, firing timers, and lets pending promises (track loads, renders) settle after each. */
  async advance(ms: number): Promise<void> {
    const until = this.current + ms;
    for (;;) {
      const timeout = this.timeouts.reduce<(typeof this.timeouts)[number] | null>((first, t) => (!first || t.at < first.at ? t : first), null);
      const intervalAt = this.callback ? this.nextAt : Infinity;
      if (timeout && timeout.at <= until && timeout.at < intervalAt) {
        this.timeouts = this.timeouts.filter((t) => t !== timeout);
        this.current = timeout.at;
        timeout.callback();
      } else if (intervalAt <= until) {
        this.current = this.nextAt;
        this.nextAt += this.everyMs;
        this.callback!();
      } else break;
      await flush();
      await this.settle?.();
    }
    this.current = until;
  }
}

export async function flush(): Promise<void> {
  for (let i = 0; i < 10; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** A listener in memory: keeps every chunk; `backlog` plays the socket's unsent bytes. */
export class MemorySink implements ListenerSink {
  chunks: Buffer[] = [];
  destroyed = false;
  ended = false;
  backlog = 0;
  private handlers: Record<string, ((...args: unknown[]) => void)[]> = {};
  get writableLength(): number {
    return this.backlog;
  }
  write(chunk: Buffer): boolean {
    this.chunks.push(chunk);
    return true;
  }
  end(): void {
    this.ended = true;
    this.close();
  }
  destroy(): void {
    this.destroyed = true;
    this.close();
  }
  once(event: string, handler: (...args: unknown[]) => void): this {
    (this.handlers[event] ??= []).push(handler);
    return this;
  }
  /** The client went away. */
  close(): void {
    for (const handler of this.handlers.close ?? []) handler();
    this.handlers.close = [];
  }
  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

/** Splits an ICY stream into its audio bytes and its metadata blocks (with the audio offset of each). */
export function deinterleave(bytes: Buffer, metaint: number): { audio: Buffer; blocks: { at: number; text: string }[] } {
  const audio: Buffer[] = [];
  const blocks: { at: number; text: string }[] = [];
  let at = 0;
  let audioLength = 0;
  while (at < bytes.length) {
    const take = Math.min(metaint, bytes.length - at);
    audio.push(bytes.subarray(at, at + take));
    audioLength += take;
    at += take;
    if (take < metaint || at >= bytes.length) break;
    const length = bytes[at] * 16;
    blocks.push({
      at: audioLength,
      text: bytes
        .subarray(at + 1, at + 1 + length)
        .toString('utf8')
        .replace(/\0+$/, ''),
    });
    at += 1 + length;
  }
  return { audio: Buffer.concat(audio), blocks };
}
