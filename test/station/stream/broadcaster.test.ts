import { beforeAll, describe, expect, it } from 'vitest';
import { analyseTrack } from '../../../src/engine/audio/track-analysis.js';
import { StreamBroadcaster, type BroadcasterOptions } from '../../../src/station/stream/broadcaster.js';
import { FRAME_MS } from '../../../src/station/stream/fanout.js';
import { parseMp3 } from '../../../src/engine/audio/mp3-frames.js';
import { decodeMp3, toneAmplitude } from '../playout-support.js';
import { FakeTimers, ListSource, MemorySink, flush, tagged, toneMp3, type TestTrack } from './helpers.js';

let low: TestTrack;
let high: TestTrack;
let long: TestTrack;
let loud192: TestTrack;

beforeAll(async () => {
  low = { id: 'low', file: tagged(await toneMp3(220, 2), 'low') };
  high = { id: 'high', file: tagged(await toneMp3(660, 2), 'high') };
  long = { id: 'long', file: tagged(await toneMp3(440, 4), 'long') };
  loud192 = { id: 'fast', file: tagged(await toneMp3(330, 1, 192), 'fast') };
});

function setup(tracks: TestTrack[], options: BroadcasterOptions & { loop?: boolean } = {}) {
  const timers = new FakeTimers();
  const source = new ListSource(tracks, options.loop);
  const errors: unknown[] = [];
  const broadcaster = new StreamBroadcaster(source, { timers, tickMs: 200, onError: (error) => errors.push(error), ...options });
  timers.settle = () => broadcaster.idle();
  return { timers, source, broadcaster, errors };
}

/** Stream time (ms) covered by a byte run of frames. */
function durationOf(bytes: Buffer): number {
  return parseMp3(bytes).durationMs;
}

/** Level of a tone (left channel) over a decoded stretch. */
async function levelOf(bytes: Buffer, frequencyHz: number, fromSec: number, toSec: number): Promise<number> {
  const { left } = await decodeMp3(bytes);
  const from = Math.round(fromSec * 44100);
  return toneAmplitude(left, frequencyHz, from, Math.min(left.length, Math.round(toSec * 44100)) - from);
}

describe('StreamBroadcaster', () => {
  it('sends the encoded timeline at real-time pace, one write per tick, and announces tracks as they are heard', async () => {
    const { timers, broadcaster } = setup([low, high]);
    const starts: [string, number][] = [];
    broadcaster.onTrackStart((id, at) => starts.push([id, at]));
    const sink = new MemorySink();
    broadcaster.addListener(sink);
    const t0 = timers.now();
    await broadcaster.start();
    // A fresh stream: its first leadMs count as already sent, and arrive at once.
    const primedMs = Math.ceil(broadcaster.leadMs / FRAME_MS) * FRAME_MS;
    expect(durationOf(sink.bytes())).toBeGreaterThanOrEqual(primedMs - 1e-6);
    expect(durationOf(sink.bytes())).toBeLessThan(primedMs + FRAME_MS + 1e-6);
    for (let elapsed = 200; elapsed <= 3000; elapsed += 200) {
      await timers.advance(200);
      const sent = durationOf(sink.bytes());
      expect(sent).toBeGreaterThanOrEqual(primedMs + elapsed);
      expect(sent).toBeLessThan(primedMs + elapsed + FRAME_MS + 1e-6);
      expect(sink.chunks.length).toBe(1 + elapsed / 200); // the lead, then one write per tick
    }
    await timers.advance(2000);
    expect(parseMp3(sink.bytes()).skipped.garbageBytes).toBe(0);
    // 'low' from the start; 'high' crossfaded in a third of low's length (the default 3 s, capped) before low's end.
    const lowSec = (await analyseTrack(low.file, 'mp3')).soundEndSec - (await analyseTrack(low.file, 'mp3')).soundStartSec;
    expect(starts.map(([id]) => id)).toEqual(['low', 'high']);
    expect(Math.abs(starts[0][1] - t0)).toBeLessThan(60); // the codec's own delay
    expect(Math.abs(starts[1][1] - starts[0][1] - (lowSec * 1000 * 2) / 3)).toBeLessThan(60);
    // Heard in that order: low alone at first, high alone at the end.
    const bytes = sink.bytes();
    expect(await levelOf(bytes, 220, 0.3, 1.0)).toBeGreaterThan(0.1);
    expect(await levelOf(bytes, 660, 0.3, 1.0)).toBeLessThan(0.01);
    expect(await levelOf(bytes, 660, 2.0, 2.9)).toBeGreaterThan(0.1);
    expect(await levelOf(bytes, 220, 2.0, 2.9)).toBeLessThan(0.01);
  });

  it('reports the track listeners hear now and how far into it they are', async () => {
    const { timers, broadcaster } = setup([low, high]);
    expect(broadcaster.position()).toEqual({ trackId: null, elapsedMs: 0 });
    await broadcaster.start();
    await timers.advance(1000);
    const first = broadcaster.position();
    expect(first.trackId).toBe('low');
    expect(Math.abs(first.elapsedMs - 1000)).toBeLessThan(FRAME_MS + 30);
    await timers.advance(1600);
    expect(broadcaster.position().trackId).toBe('high');
  });

  it('fans one buffer per tick out to every listener, and gives a late one the last leadMs, byte-identical', async () => {
    const { timers, broadcaster } = setup([low, high], { leadMs: 1500 });
    await broadcaster.start();
    const early = new MemorySink();
    broadcaster.addListener(early);
    await timers.advance(2400);
    const late = new MemorySink();
    broadcaster.addListener(late);
    const lead = late.bytes();
    expect(durationOf(lead)).toBeGreaterThanOrEqual(1500);
    expect(durationOf(lead)).toBeLessThan(1500 + FRAME_MS);
    const before = early.chunks.length;
    await timers.advance(1000);
    // The very same Buffer went to both: the work per tick does not grow with listeners.
    expect(early.chunks.slice(before).every((chunk, i) => chunk === late.chunks[1 + i])).toBe(true);
    const all = early.bytes();
    const tail = late.bytes();
    expect(all.subarray(all.length - tail.length).equals(tail)).toBe(true);
    expect(parseMp3(tail).skipped.garbageBytes).toBe(0);
  });

  it('loads the next track ahead of time, only once the current one nears its end', async () => {
    const { timers, source, broadcaster } = setup([long, low], { prefetchMs: 2000, leadMs: 500, aheadMs: 300 });
    await broadcaster.start(); // renders lead + ahead (0.8 s) of the 4 s track
    expect(source.calls).toBe(1);
    await timers.advance(800);
    expect(source.calls).toBe(1);
    await timers.advance(800); // rendered to ~2.4 s: under 2 s left
    expect(source.calls).toBe(2);
  });

  it('dropUpcoming() lets the track on air finish and forgets the one loaded ahead', async () => {
    const tracks: TestTrack[] = [long, high];
    const { timers, source, broadcaster } = setup(tracks, { prefetchMs: 5000, retryMs: 500, leadMs: 500, aheadMs: 300 });
    await broadcaster.start();
    const sink = new MemorySink();
    broadcaster.addListener(sink);
    await timers.advance(200);
    expect(source.calls).toBe(2); // 'high' is loaded (and placed) ahead: 'long' has less than prefetchMs left
    broadcaster.dropUpcoming();
    tracks.length = 0; // the source has nothing more (the radio is off)
    await timers.advance(5000);
    expect(broadcaster.position().trackId).toBe(null);
    const bytes = sink.bytes();
    expect(await levelOf(bytes, 440, 1, 3)).toBeGreaterThan(0.1);
    expect(await levelOf(bytes, 660, 0, durationOf(bytes) / 1000)).toBeLessThan(0.005); // nothing of 'high'
    expect(source.calls).toBeGreaterThan(2); // asked again once it had nothing ahead
  });

  it('keeps the encoder running on silence when there is nothing to play, asks again, then resumes at the new bitrate', async () => {
    const tracks: TestTrack[] = [loud192];
    const { timers, source, broadcaster } = setup(tracks, { retryMs: 500, leadMs: 500, aheadMs: 500 });
    await broadcaster.start();
    const sink = new MemorySink();
    broadcaster.addListener(sink);
    await timers.advance(2000);
    expect(broadcaster.bitrateKbps()).toBe(192);
    expect(broadcaster.position().trackId).toBe(null);
    const silent = await decodeMp3(sink.bytes());
    expect(Math.max(...silent.left.subarray(silent.left.length - 22050).map(Math.abs))).toBeLessThan(1e-4);
    const askedWhileIdle = source.calls;
    expect(askedWhileIdle).toBeGreaterThanOrEqual(2);
    tracks.push(low);
    // Asked again within retryMs, placed where the timeline is rendered to, heard lead + aheadMs later.
    await timers.advance(2500);
    expect(source.calls).toBeGreaterThan(askedWhileIdle);
    expect(broadcaster.position().trackId).toBe('low');
    expect(broadcaster.bitrateKbps()).toBe(128);
    // Bitrates change frame by frame: every byte is still a valid frame.
    const parsed = parseMp3(sink.bytes());
    expect(parsed.skipped.garbageBytes).toBe(0);
    expect(new Set(parsed.frames.map((f) => f.bitrateKbps))).toEqual(new Set([128, 192]));
  });

  it('keeps streaming when a track cannot be loaded, and reports it', async () => {
    const broken = { id: 'broken', file: Buffer.from('this is not an mp3 file') };
    const { timers, broadcaster, errors } = setup([broken, low], { retryMs: 300, leadMs: 500, aheadMs: 500 });
    await broadcaster.start();
    const sink = new MemorySink();
    broadcaster.addListener(sink);
    await timers.advance(2500);
    expect(errors).toHaveLength(1);
    expect(broadcaster.position().trackId).toBe('low');
    expect(parseMp3(sink.bytes()).skipped.garbageBytes).toBe(0);
  });

  it('drops a listener whose backlog passes maxBacklogMs while the others go on; counts go up and down', async () => {
    const { timers, broadcaster } = setup([low, high], { maxBacklogMs: 5000 });
    const counts: number[] = [];
    broadcaster.onListenerCountChange((count) => counts.push(count));
    await broadcaster.start();
    const healthy = new MemorySink();
    const stuck = new MemorySink();
    broadcaster.addListener(healthy);
    broadcaster.addListener(stuck);
    expect(broadcaster.listenerCount()).toBe(2);
    await timers.advance(400);
    stuck.backlog = 79_000; // just under 5 s at 128 kbps (80,000 bytes)
    await timers.advance(200);
    expect(stuck.destroyed).toBe(false);
    stuck.backlog = 80_500;
    await timers.advance(200);
    expect(stuck.destroyed).toBe(true);
    expect(broadcaster.listenerCount()).toBe(1);
    const before = healthy.chunks.length;
    await timers.advance(1000);
    expect(healthy.chunks.length).toBe(before + 5);
    healthy.close(); // the client hangs up
    expect(broadcaster.listenerCount()).toBe(0);
    expect(counts).toEqual([1, 2, 1, 0]);
  });

  it('counts unsent bytes itself for a sink without writableLength', async () => {
    const { timers, broadcaster } = setup([long], { maxBacklogMs: 1000, leadMs: 100 });
    await broadcaster.start();
    let ended = false;
    const writes: Buffer[] = [];
    const handlers: (() => void)[] = [];
    broadcaster.addListener({
      write: (chunk) => (writes.push(chunk), false), // never drains
      end: () => void (ended = true),
      once: (_event, handler) => handlers.push(handler as () => void),
      destroyed: false,
    });
    await timers.advance(600);
    expect(broadcaster.listenerCount()).toBe(1);
    await timers.advance(800);
    expect(broadcaster.listenerCount()).toBe(0);
    expect(ended).toBe(true);
  });

  it('skips ahead after a long stall instead of bursting, and stop() ends every listener', async () => {
    const { timers, broadcaster } = setup([low, high], { maxCatchUpMs: 3000, leadMs: 500 });
    await broadcaster.start();
    const sink = new MemorySink();
    broadcaster.addListener(sink);
    await timers.advance(400);
    timers.stall(60_000); // the event loop was blocked for a minute
    await timers.advance(200);
    expect(durationOf(sink.bytes())).toBeLessThan(1500);
    broadcaster.stop();
    expect(sink.ended).toBe(true);
    expect(broadcaster.listenerCount()).toBe(0);
    expect(broadcaster.running).toBe(false);
    await flush();
  });
});
