/**
 * A takeover on a starved machine (issue 20): the track it continues is not measured again (the last leader's
 * markers carry the analysis it aired it with), so its first frames are ready before the held ones run out;
 * and if they are late all the same, its clock stays the shared timeline's, so the tracks after them are not.
 */
import { describe, expect, it } from 'vitest';
import { silentFrame } from '../../../src/engine/audio/mp3-frames.js';
import { StreamBroadcaster } from '../../../src/station/stream/broadcaster.js';
import { FRAME_MS } from '../../../src/station/stream/fanout.js';
import { Playout, type SourceTrack, type TrackSource } from '../../../src/station/stream/playout.js';
import { toneMaster } from '../playout-support.js';
import { FakeTimers, MemorySink, flush } from './helpers.js';

const options = {
  bitrateKbps: 128,
  prefetchMs: 15_000,
  retryMs: 1000,
  crossfadeSec: 1,
  targetLufs: -14,
  ceilingDbtp: -1,
  now: () => 0,
  onError: (error: unknown) => {
    throw error;
  },
  yieldTurn: async () => {},
};

class Tracks implements TrackSource {
  measured = 0;
  private index = 0;
  constructor(private readonly files: Buffer[]) {}
  track(i: number): SourceTrack {
    return { id: `t${i}`, bitrateKbps: 128, read: async () => this.files[i], analysis: this.measure };
  }
  async next(): Promise<SourceTrack | null> {
    return this.index < this.files.length ? this.track(this.index++) : null;
  }
  private readonly measure = async (bytes: Buffer) => {
    this.measured++;
    const { analyseTrack } = await import('../../../src/engine/audio/track-analysis.js');
    return analyseTrack(bytes, 'mp3');
  };
}

describe('a takeover prepared ahead', () => {
  it('continues the track with the analysis the last leader aired it with', async () => {
    const files = await Promise.all([330, 550].map((frequencyHz) => toneMaster({ frequencyHz, amplitude: 0.2, seconds: 4 })));
    const leader = new Playout(new Tracks(files), options);
    await leader.requestLoad();
    await leader.pump(40, 0);
    const [point] = leader.resumePoints().filter((p) => p.id === 't0');
    expect(point.analysis?.loudnessLufs).toEqual(expect.any(Number));

    const source = new Tracks(files);
    const follower = new Playout(source, { ...options, firstFrame: 60 });
    expect(await follower.resume([{ track: source.track(0), point }])).toBe(true);
    expect(source.measured).toBe(0);
  });

  it("keeps the shared clock when the takeover's first frames are rendered late", async () => {
    const file = await toneMaster({ frequencyHz: 440, amplitude: 0.2, seconds: 6 });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const source: TrackSource = {
      next: async () => {
        await gate; // the machine is starved: the track comes after the held frames ran out
        return { id: 'late', bitrateKbps: 128, read: async () => file };
      },
    };
    const timers = new FakeTimers();
    const broadcaster = new StreamBroadcaster(source, { timers, leadMs: 1000, firstTrackWaitMs: 60_000 });
    const listener = new MemorySink();
    broadcaster.addListener(listener);
    const epoch = timers.now() - 100 * FRAME_MS;
    const backlog = Array.from({ length: 10 }, () => ({ frame: Buffer.from(silentFrame(128)), bitrateKbps: 128, title: null }));
    const started = broadcaster.start({ epoch, nextFrame: 100, backlog, markers: [] });
    await timers.advance(2000); // the ten held frames (261 ms) ran out long ago
    release();
    await started;
    await timers.advance(1200);
    await flush();
    // Frame i is still sent at epoch + i x FRAME_MS: the frames the clock passed went out together once rendered.
    expect(broadcaster.clock.epoch).toBe(epoch);
    expect(broadcaster.clock.nextFrame).toBe(Math.floor((timers.now() - epoch) / FRAME_MS) + 1);
    broadcaster.stop();
  });
});
