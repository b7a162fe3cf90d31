/**
 * A takeover on a starved machine (issue 20): the track it continues is not measured again (the last leader's
 * markers carry the analysis it aired it with), so its first frames are ready before the held ones run out.
 */
import { describe, expect, it } from 'vitest';
import { Playout, type SourceTrack, type TrackSource } from '../../../src/station/stream/playout.js';
import { toneMaster } from '../playout-support.js';

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
});
