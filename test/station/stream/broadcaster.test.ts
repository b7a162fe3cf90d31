import { beforeAll, describe, expect, it } from 'vitest';
import { StreamBroadcaster, type BroadcasterOptions } from '../../../src/station/radio/stream/broadcaster.js';
import { parseMp3, silentFrame } from '../../../src/station/radio/stream/mp3-frames.js';
import { FakeTimers, ListSource, MemorySink, audioBytes, flush, tagged, toneMp3, type TestTrack } from './helpers.js';

const FRAME_MS = 1152_000 / 44100;
let low: TestTrack;
let high: TestTrack;
let loud192: TestTrack;

beforeAll(async () => {
  low = { id: 'low', file: tagged(await toneMp3(220, 2), 'low') };
  high = { id: 'high', file: tagged(await toneMp3(660, 2), 'high') };
  loud192 = { id: 'fast', file: tagged(await toneMp3(330, 1, 192), 'fast') };
});

function setup(tracks: TestTrack[], options: BroadcasterOptions & { loop?: boolean } = {}) {
  const timers = new FakeTimers();
  const source = new ListSource(tracks, options.loop);
  const errors: unknown[] = [];
  const broadcaster = new StreamBroadcaster(source, { timers, onError: (error) => errors.push(error), ...options });
  return { timers, source, broadcaster, errors };
}

/** Stream time (ms) covered by a byte run of frames. */
function durationOf(bytes: Buffer): number {
  return parseMp3(bytes).durationMs;
}

describe('StreamBroadcaster', () => {
  it('sends frames at real-time pace in ticks, gapless from one track to the next, with no tag bytes', async () => {
    const { timers, broadcaster } = setup([low, high]);
    const starts: [string, number][] = [];
    broadcaster.onTrackStart((id, at) => starts.push([id, at]));
    const t0 = timers.now();
    await broadcaster.start();
    const sink = new MemorySink();
    broadcaster.addListener(sink);
    for (let elapsed = 200; elapsed <= 3000; elapsed += 200) {
      await timers.advance(200);
      // Every frame whose start time has come is out, and no more.
      const sent = durationOf(sink.bytes());
      expect(sent).toBeGreaterThanOrEqual(elapsed);
      expect(sent).toBeLessThan(elapsed + FRAME_MS + 1e-6);
      expect(sink.chunks.length).toBe(elapsed / 200); // one write per tick
    }
    await timers.advance(2000);
    const expected = Buffer.concat([audioBytes(low.file), audioBytes(high.file)]);
    const received = sink.bytes();
    expect(received.subarray(0, expected.length).equals(expected)).toBe(true);
    const lowMs = parseMp3(low.file).durationMs;
    expect(starts).toEqual([
      ['low', t0],
      ['high', t0 + lowMs],
    ]);
  });

  it('reports the track at the live edge and how far into it the stream is', async () => {
    const { timers, broadcaster } = setup([low, high]);
    expect(broadcaster.position()).toEqual({ trackId: null, elapsedMs: 0 });
    await broadcaster.start();
    await timers.advance(1000);
    expect(broadcaster.position()).toEqual({ trackId: 'low', elapsedMs: 1000 });
    const lowMs = parseMp3(low.file).durationMs;
    await timers.advance(1600);
    const position = broadcaster.position();
    expect(position.trackId).toBe('high');
    expect(position.elapsedMs).toBeGreaterThan(2600 - lowMs - 200);
    expect(position.elapsedMs).toBeLessThanOrEqual(2600 - lowMs);
  });

  it('gives a late listener the last leadMs at once, byte-identical to what earlier listeners got at those positions', async () => {
    const { timers, broadcaster } = setup([low, high], { leadMs: 1500 });
    await broadcaster.start();
    const early = new MemorySink();
    broadcaster.addListener(early);
    await timers.advance(2400); // past the first track's middle
    const late = new MemorySink();
    broadcaster.addListener(late);
    const lead = late.bytes();
    expect(durationOf(lead)).toBeGreaterThanOrEqual(1500);
    expect(durationOf(lead)).toBeLessThan(1500 + FRAME_MS);
    await timers.advance(1000);
    const all = early.bytes();
    const tail = late.bytes();
    // The late listener's bytes are exactly the end of the early listener's.
    expect(all.subarray(all.length - tail.length).equals(tail)).toBe(true);
    expect(parseMp3(tail).skipped.garbageBytes).toBe(0);
  });

  it('loads the next track ahead of time, only once the current one nears its end', async () => {
    const long = { id: 'long', file: tagged(await toneMp3(440, 6), 'long') };
    const { timers, source, broadcaster } = setup([long, low], { prefetchMs: 2000 });
    await broadcaster.start();
    expect(source.calls).toBe(1);
    await timers.advance(3000);
    expect(source.calls).toBe(1);
    await timers.advance(1400); // ~1.7 s left
    expect(source.calls).toBe(2);
  });

  it('dropUpcoming() lets the track on air finish and forgets the one loaded ahead', async () => {
    const tracks: TestTrack[] = [low, high];
    const { timers, source, broadcaster } = setup(tracks, { prefetchMs: 5000, retryMs: 500 });
    await broadcaster.start();
    const sink = new MemorySink();
    broadcaster.addListener(sink);
    await timers.advance(200);
    expect(source.calls).toBe(2); // 'high' is loaded ahead: 'low' has less than prefetchMs left
    broadcaster.dropUpcoming();
    tracks.length = 0; // the source has nothing more (the radio is off)
    await timers.advance(3000);
    expect(broadcaster.position().trackId).toBe(null);
    // Everything 'low' had, nothing of 'high', then silence.
    const sent = sink.bytes();
    expect(sent.subarray(0, audioBytes(low.file).length).equals(audioBytes(low.file))).toBe(true);
    expect(sent.includes(audioBytes(high.file).subarray(0, 4096))).toBe(false);
    expect(source.calls).toBeGreaterThan(2); // asked again once it had nothing ahead
  });

  it('plays silent frames of the current bitrate when there is nothing to play, asks again, then resumes', async () => {
    const tracks: TestTrack[] = [loud192];
    const { timers, source, broadcaster } = setup(tracks, { retryMs: 500 });
    await broadcaster.start();
    const sink = new MemorySink();
    broadcaster.addListener(sink);
    await timers.advance(2000);
    const afterTrack = sink.bytes().subarray(audioBytes(loud192.file).length);
    const silence = silentFrame(192);
    expect(afterTrack.length % silence.length).toBe(0);
    for (let at = 0; at < afterTrack.length; at += silence.length) expect(afterTrack.subarray(at, at + silence.length).equals(silence)).toBe(true);
    expect(broadcaster.bitrateKbps()).toBe(192);
    expect(broadcaster.position().trackId).toBe(null);
    const askedWhileIdle = source.calls;
    expect(askedWhileIdle).toBeGreaterThanOrEqual(2);
    tracks.push(low);
    await timers.advance(1000);
    expect(source.calls).toBeGreaterThan(askedWhileIdle);
    expect(broadcaster.position().trackId).toBe('low');
    expect(broadcaster.bitrateKbps()).toBe(128);
    // Bitrates mix frame by frame: every byte is still a valid frame.
    const parsed = parseMp3(sink.bytes());
    expect(parsed.skipped.garbageBytes).toBe(0);
    expect(new Set(parsed.frames.map((f) => f.bitrateKbps))).toEqual(new Set([128, 192]));
  });

  it('keeps streaming when a track cannot be loaded, and reports it', async () => {
    const broken = { id: 'broken', file: Buffer.from('this is not an mp3 file') };
    const { timers, broadcaster, errors } = setup([broken, low], { retryMs: 300 });
    await broadcaster.start();
    const sink = new MemorySink();
    broadcaster.addListener(sink);
    await timers.advance(1000);
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
    const { timers, broadcaster } = setup([low], { maxBacklogMs: 1000 });
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
    await timers.advance(600);
    expect(broadcaster.listenerCount()).toBe(0);
    expect(ended).toBe(true);
  });

  it('skips ahead after a long stall instead of bursting, and stop() ends every listener', async () => {
    const { timers, broadcaster } = setup([low, high], { maxCatchUpMs: 3000 });
    await broadcaster.start();
    const sink = new MemorySink();
    broadcaster.addListener(sink);
    await timers.advance(400);
    timers.stall(60_000); // the event loop was blocked for a minute
    await timers.advance(200);
    expect(durationOf(sink.bytes())).toBeLessThan(1000);
    broadcaster.stop();
    expect(sink.ended).toBe(true);
    expect(broadcaster.listenerCount()).toBe(0);
    expect(broadcaster.running).toBe(false);
    await flush();
  });
});
