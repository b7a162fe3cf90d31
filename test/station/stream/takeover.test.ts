/**
 * A takeover in process (two LiveStreams on one in-process bus, the lead handed by hand, the real clock): the
 * leader hands its frames to the follower ahead of time; it dies; the follower keeps its listener fed from
 * what it holds, then takes the lead and continues the same track at the sample where the last leader's
 * frames end. Its listener hears one continuous tone, no gap in the bytes, and the next track on time.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { InProcessEventBus } from '../../../src/infra/pubsub/in-process-bus.js';
import { parseMp3 } from '../../../src/engine/audio/mp3-frames.js';
import { StreamBroadcaster, type SourceTrack } from '../../../src/station/stream/broadcaster.js';
import { LiveStream, RelayHold, type RelayMessage } from '../../../src/station/stream/live-stream.js';
import { pollUntil } from '../../helpers/poll.js';
import { decodeMp3, longestSilence, toneAmplitude, toneMaster } from '../playout-support.js';
import { ListSource, MemorySink, type TestTrack } from './helpers.js';

/** ListSource that can also continue a track by id (as the scheduler continues a slot). */
class ResumableSource extends ListSource {
  resumedIds: string[] = [];
  constructor(private readonly all: TestTrack[]) {
    super(all, true);
  }
  async resume(id: string): Promise<SourceTrack | null> {
    this.resumedIds.push(id);
    const at = this.all.findIndex((track) => track.id === id);
    // What plays after it comes next.
    for (let i = 0; i <= at; i++) await this.next();
    const track = this.all[at];
    return { id: track.id, title: track.title, bitrateKbps: 128, read: async () => track.file };
  }
}

class TimedSink extends MemorySink {
  readonly at: number[] = [];
  override write(chunk: Buffer): boolean {
    this.at.push(Date.now());
    return super.write(chunk);
  }
}

const streams: LiveStream[] = [];
afterEach(async () => {
  for (const stream of streams.splice(0)) await stream.stop();
});

describe('RelayHold', () => {
  const message = (first: number, count: number): [RelayMessage, Buffer[]] => [
    { run: 'r', first, epoch: 0, kbps: 128, title: null, markers: [], sizes: [], data: '' },
    Array.from({ length: count }, (_, i) => Buffer.from([first + i])),
  ];

  it('sends each frame once when due, skips a lost one, and never takes a frame twice', () => {
    const hold = new RelayHold();
    hold.add(...message(10, 5));
    expect(hold.due(10 * 26.2).map((h) => h.frame[0])).toEqual([10]);
    hold.add(...message(10, 8)); // republished from an earlier index: only 15..17 are new
    hold.add(...message(20, 2)); // 18 and 19 were lost
    expect(hold.contiguous().map((h) => h.frame[0])).toEqual([11, 12, 13, 14, 15, 16, 17]);
    expect(hold.due(30 * 26.2).map((h) => h.frame[0])).toEqual([11, 12, 13, 14, 15, 16, 17, 20, 21]);
    hold.add(...message(5, 3));
    expect(hold.due(1e9)).toEqual([]);
  });
});

describe('a follower taking over the stream', () => {
  it('bridges the dead leader with what it holds and continues the same track at the same sample', async () => {
    const tracks: TestTrack[] = await Promise.all(
      [330, 550, 440].map(async (frequencyHz, i) => ({ id: `t${i}`, title: `Tone ${i}`, file: await toneMaster({ frequencyHz, amplitude: 0.2, seconds: 8 }) })),
    );
    const bus = new InProcessEventBus();
    let leading: 'a' | 'b' | null = 'a';
    const make = (name: 'a' | 'b', source: ResumableSource) => {
      const broadcaster = new StreamBroadcaster(source, { leadMs: 1000, crossfadeSec: 1, relayAheadMs: 2500 });
      const stream = new LiveStream({ broadcaster, bus, leader: { isLeader: () => leading === name }, relay: true, channel: 'frames', checkMs: 50 });
      streams.push(stream);
      return { broadcaster, stream, source };
    };
    const a = make('a', new ResumableSource(tracks));
    const b = make('b', new ResumableSource(tracks));
    const starts: { id: string; at: number }[] = [];
    for (const { broadcaster } of [a, b]) broadcaster.onTrackStart((id, at) => starts.push({ id, at }));
    // What each hands its HLS segmenter while it leads: one timeline, no frame missing across the takeover.
    const chunks: { by: 'a' | 'b'; timeline: string; first: number; count: number }[] = [];
    for (const [name, { broadcaster }] of [
      ['a', a],
      ['b', b],
    ] as const)
      broadcaster.onChunk((chunk) => {
        if (leading === name) chunks.push({ by: name, timeline: chunk.timeline, first: chunk.first, count: chunk.frames.length });
      });
    await a.stream.start();
    await b.stream.start();
    const listener = new TimedSink();
    await pollUntil(
      'the follower holds frames',
      () => b.stream.relayedFrames,
      (n) => n > 0,
      10_000,
    );
    b.broadcaster.addListener(listener);
    await pollUntil(
      '2 s into the first track',
      () => a.broadcaster.position().elapsedMs,
      (ms) => ms > 2000,
      10_000,
    );

    // The leader dies (its playout stops where it is, nothing more is published); the lease lapses a second later.
    const diedAt = Date.now();
    leading = null;
    a.broadcaster.halt();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    leading = 'b';
    await pollUntil('the second track is heard', () => starts.find((s) => s.id === 't1'), Boolean, 15_000);
    await new Promise((resolve) => setTimeout(resolve, 1000));

    expect(b.stream.resumed).toBe(1);
    expect(b.source.resumedIds).toEqual(['t0']);
    // No gap in the bytes longer than issue 20's bound (1 s). A quiet machine shows one tick (400 ms) plus a
    // little; the arrival times are taken in this test's own process, which CI's two suites side by side on two
    // cores starve at times (760 ms seen there, with the product unchanged), so the bound is the target's.
    const after = listener.at.filter((t) => t >= diedAt);
    const gaps = after.slice(1).map((t, i) => t - after[i]);
    expect(Math.max(...gaps)).toBeLessThan(1000);
    // The second track starts where the first one's timeline put it: 8 s less the 1 s crossfade after the first.
    const first = starts.find((s) => s.id === 't0')!;
    const second = starts.find((s) => s.id === 't1')!;
    expect(Math.abs(second.at - first.at - 7000)).toBeLessThan(150);
    // One continuous tone across the join: the first track's, and no silence longer than the new encoder's start.
    const bytes = listener.bytes();
    expect(parseMp3(bytes).skipped.garbageBytes).toBe(0);
    const { left, right } = await decodeMp3(bytes);
    const joinAt = Math.round(((diedAt - listener.at[0]) / 1000 + 2.5) * 44100); // roughly where the held frames ran out
    expect(longestSilence(left, right, 4410, joinAt + 2 * 44100, 0.01)).toBeLessThan(0.05 * 44100);
    expect(toneAmplitude(left, 330, joinAt + 22050, 8192)).toBeGreaterThan(0.05);
    expect(new Set(chunks.map((c) => c.timeline)).size).toBe(1);
    const covered = new Set(chunks.flatMap((c) => Array.from({ length: c.count }, (_, i) => c.first + i)));
    const lastFrame = Math.max(...covered);
    expect(chunks.some((c) => c.by === 'b')).toBe(true);
    expect(Array.from({ length: lastFrame + 1 }, (_, i) => i).filter((i) => !covered.has(i))).toEqual([]);

    // The lead goes back (the first instance, alive again, had been following): the one stepping down still
    // sends its listener the frames it had published ahead, then the new leader's, with no gap either.
    const handBackAt = Date.now();
    leading = 'a';
    await pollUntil(
      'the first instance leads again',
      () => a.stream.resumed,
      (n) => n === 1,
      5_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 4000));
    const later = listener.at.filter((t) => t >= handBackAt);
    expect(Math.max(...later.slice(1).map((t, i) => t - later[i]))).toBeLessThan(700);
    expect(Date.now() - later.at(-1)!).toBeLessThan(700);
  }, 40_000);
});
