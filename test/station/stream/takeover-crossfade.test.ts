/**
 * A takeover inside a crossfade, deterministic (hand-driven clocks, synthetic tones): a leader renders two
 * tones crossfaded; a second broadcaster takes over from the frames the leader had published up to a point in
 * the overlap, as a follower that took the lead (or played on alone) does. Its frames from that point on,
 * decoded, must be the leader's own timeline there: both tones at the levels the crossfade gives them, neither
 * cut nor brought in again from its start (which would play part of the incoming track twice).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { StreamBroadcaster, resumeSample, type HeldFrame, type ResumePoint, type SourceTrack } from '../../../src/station/stream/broadcaster.js';
import { FRAME_MS } from '../../../src/station/stream/fanout.js';
import { decodeMp3 } from '../playout-support.js';
import { FakeTimers, ListSource, tagged, toneMp3, type TestTrack } from './helpers.js';

/** Continues a track by id, as the scheduler continues a slot: what comes after it plays next. */
class ResumableSource extends ListSource {
  readonly resumed: string[] = [];
  constructor(private readonly all: TestTrack[]) {
    super(all);
  }
  async resume(id: string): Promise<SourceTrack | null> {
    this.resumed.push(id);
    const at = this.all.findIndex((track) => track.id === id);
    while (this.calls < at + 1) await this.next();
    const track = this.all[at];
    return { id: track.id, title: track.title, bitrateKbps: 128, read: async () => track.file };
  }
}

interface Chunk {
  first: number;
  frames: Buffer[];
  markers: ResumePoint[];
  epoch: number;
}

let tracks: TestTrack[];
beforeAll(async () => {
  tracks = [
    { id: 'a', file: tagged(await toneMp3(330, 5), 'a') },
    { id: 'b', file: tagged(await toneMp3(550, 5), 'b') },
    { id: 'c', file: tagged(await toneMp3(440, 5), 'c') },
  ];
});

/** Runs a broadcaster on its own hand-driven clock, recording every frame it hands on, by stream index. */
function recorded(source: ListSource, timers = new FakeTimers()) {
  const broadcaster = new StreamBroadcaster(source, { timers, tickMs: 200, leadMs: 1000, relayAheadMs: 3000, crossfadeSec: 1.5 });
  timers.settle = () => broadcaster.idle();
  const chunks: Chunk[] = [];
  broadcaster.onChunk((chunk) => chunks.push({ first: chunk.first, frames: chunk.frames, markers: chunk.markers, epoch: chunk.epoch }));
  const frames = () => {
    const byIndex = new Map<number, Buffer>();
    for (const chunk of chunks) chunk.frames.forEach((frame, i) => byIndex.set(chunk.first + i, frame));
    return byIndex;
  };
  return { broadcaster, timers, chunks, frames };
}

function consecutive(byIndex: Map<number, Buffer>, from: number, to: number): Buffer {
  const out: Buffer[] = [];
  for (let i = from; i < to; i++) {
    const frame = byIndex.get(i);
    if (!frame) throw new Error(`frame ${i} missing`);
    out.push(frame);
  }
  return Buffer.concat(out);
}

/** The largest RMS difference between `a` and `b` over 50 ms windows of [from, to), relative to `a`'s RMS there. */
function largestDifference(a: Float32Array, b: Float32Array, from: number, to: number): number {
  const window = 2205;
  let worst = 0;
  for (let at = from; at + window <= to; at += window) {
    let signal = 0;
    let error = 0;
    for (let i = at; i < at + window; i++) {
      signal += a[i] * a[i];
      error += (a[i] - b[i]) ** 2;
    }
    worst = Math.max(worst, Math.sqrt(error / Math.max(signal, 1e-12)));
  }
  return worst;
}

describe('a takeover inside a crossfade', () => {
  it.each([
    ['before the audible change', 0.25],
    ['after the audible change', 0.75],
    ["in the outgoing track's last block", 1],
  ])('continues both tones where the last leader left them (%s)', async (_, into) => {
    const leader = recorded(new ListSource(tracks));
    await leader.broadcaster.start();
    await leader.timers.advance(9000);
    // The crossfade of a into b, from the leader's markers: b's first sound to a's end.
    const marked = leader.chunks.at(-1)!.markers;
    const a = marked.find((m) => m.id === 'a')!;
    const b = marked.find((m) => m.id === 'b')!;
    expect(b.changeSample).not.toBeNull();
    const overlapEnd = a.endSample!;
    expect(Math.abs(overlapEnd - b.startSample - 1.5 * 44100)).toBeLessThan(1152);
    // The last case: 2,000 samples before a's end, within the playout's last block (4,608 samples) of it.
    const wanted = into === 1 ? overlapEnd - 2000 : b.startSample + into * (overlapEnd - b.startSample);
    // The leader died after frame end - 1: a follower holds up to there, with the markers that came with it.
    let end = 0;
    while (resumeSample(end) < wanted) end++;
    const last = leader.chunks.find((chunk) => chunk.first + chunk.frames.length >= end)!;
    const resumeAt = resumeSample(end);
    expect(resumeAt > b.startSample && resumeAt < overlapEnd).toBe(true);
    expect(resumeAt < b.changeSample! === into < 0.5).toBe(true);
    const all = leader.frames();
    const nextFrame = end - 40;
    const backlog: HeldFrame[] = [];
    for (let i = nextFrame; i < end; i++) backlog.push({ frame: all.get(i)!, bitrateKbps: 128, title: null });

    const timers = new FakeTimers();
    timers.current = last.epoch + nextFrame * FRAME_MS;
    const source = new ResumableSource(tracks);
    const follower = recorded(source, timers);
    await follower.broadcaster.start({ epoch: last.epoch, nextFrame, backlog, markers: last.markers });
    await follower.timers.advance(4000);
    leader.broadcaster.stop();
    follower.broadcaster.stop();

    // The same mix through a second LAME gives the same decoded audio to within 1e-3 here; before the two-track
    // resume, the incoming tone brought in again measured 1.48 (before the change), the outgoing tail cut 0.14.
    expect(await differenceAfter(end, all, follower.frames())).toBeLessThan(0.02);
    expect(source.resumed).toEqual(['a', 'b']);
  });

  it('continues a run of its own handed over inside a crossfade (a follower that played alone takes the lead)', async () => {
    const reference = recorded(new ListSource(tracks));
    await reference.broadcaster.start();
    await reference.timers.advance(9000);
    const b = reference.chunks.at(-1)!.markers.find((m) => m.id === 'b')!;
    const wanted = b.startSample + 0.4 * 1.5 * 44100;
    // The same timeline on a second run, stepped until what it has rendered and published reaches into the overlap.
    const own = recorded(new ListSource(tracks));
    await own.broadcaster.start();
    let handed = own.broadcaster.handover()!;
    while (resumeSample(handed.nextFrame + handed.backlog.length) < wanted) {
      await own.timers.advance(200);
      handed = own.broadcaster.handover()!;
    }
    own.broadcaster.halt();
    const end = handed.nextFrame + handed.backlog.length;
    expect(resumeSample(end) < b.startSample + 1.5 * 44100).toBe(true);

    const timers = new FakeTimers();
    timers.current = own.timers.current;
    const source = new ResumableSource(tracks);
    const next = recorded(source, timers);
    await next.broadcaster.start(handed);
    await next.timers.advance(4000);
    reference.broadcaster.stop();
    next.broadcaster.stop();

    expect(await differenceAfter(end, reference.frames(), next.frames())).toBeLessThan(0.02);
    expect(source.resumed).toEqual(['a', 'b']);
  });
});

/**
 * Decodes the same 80 frames before frame `end`, then 100 frames of each timeline from there on, and gives the
 * largest difference of the second's audio from the first's (past the new encoder's 5 ms ramp in).
 */
async function differenceAfter(end: number, expectedFrames: Map<number, Buffer>, actualFrames: Map<number, Buffer>): Promise<number> {
  const lead = 80;
  const before = consecutive(expectedFrames, end - lead, end);
  const expected = await decodeMp3(Buffer.concat([before, consecutive(expectedFrames, end, end + 100)]));
  const actual = await decodeMp3(Buffer.concat([before, consecutive(actualFrames, end, end + 100)]));
  const from = lead * 1152 + 2205;
  const to = (lead + 100) * 1152;
  return Math.max(largestDifference(expected.left, actual.left, from, to), largestDifference(expected.right, actual.right, from, to));
}
