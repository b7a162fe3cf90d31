/**
 * The live stream as a listener hears it: four tone masters (4 s each, alternately 8 dB apart) through the
 * broadcaster on a hand-driven clock; one listener's bytes, decoded back to PCM, across three track changes.
 * Each tone has its own frequency, so each track's level is measured apart from the others (Goertzel), even
 * inside a crossfade. The listener plays from its first byte, so capture sample k is heard at join + k / rate.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { StreamBroadcaster, type SourceTrack, type TrackSource } from '../../src/station/stream/broadcaster.js';
import { FakeTimers, MemorySink } from './stream/helpers.js';
import { encodeWav } from '../../src/engine/audio/encode.js';
import { RATE, decodeMp3, largestStep, longestSilence, loudnessOf, toneMaster, tonePcm, toneTrack } from './playout-support.js';

const HOP = 256;
const TICK_MS = 200;
const LEAD_MS = 1000;
const TONES = [
  { id: 'a', frequencyHz: 330, amplitude: 0.25 },
  { id: 'b', frequencyHz: 440, amplitude: 0.1 }, // 8 dB under a and c
  { id: 'c', frequencyHz: 550, amplitude: 0.25 },
  { id: 'd', frequencyHz: 660, amplitude: 0.1 },
];

class Tones implements TrackSource {
  private index = 0;
  constructor(
    private readonly files: Buffer[],
    private readonly crossfadeSec: number,
  ) {}
  async next(): Promise<SourceTrack | null> {
    const i = this.index++;
    if (i >= this.files.length) return null;
    return { id: TONES[i].id, title: `Tone ${TONES[i].id}`, bitrateKbps: 128, crossfadeSec: this.crossfadeSec, read: async () => this.files[i] };
  }
}

interface Capture {
  left: Float32Array;
  right: Float32Array;
  /** Wall time at which the listener hears capture sample 0. */
  joinedAt: number;
  /** onTrackStart calls: when (clock), which track, and its startedAtMs. */
  starts: { at: number; id: string; startedAtMs: number }[];
  /** Each tone's amplitude every HOP samples (window centred at k * HOP + 1024). */
  levels: Float64Array[];
}

async function capture(masters: Buffer[], crossfadeSec: number): Promise<Capture> {
  const timers = new FakeTimers();
  const broadcaster = new StreamBroadcaster(new Tones(masters, crossfadeSec), { timers, tickMs: TICK_MS, leadMs: LEAD_MS, aheadMs: 600 });
  timers.settle = () => broadcaster.idle();
  const starts: Capture['starts'] = [];
  broadcaster.onTrackStart((id, startedAtMs) => starts.push({ at: timers.now(), id, startedAtMs }));
  await broadcaster.start();
  await timers.advance(3 * TICK_MS);
  const sink = new MemorySink();
  const joinedAt = timers.now();
  broadcaster.addListener(sink);
  await timers.advance(16_000 - 3 * TICK_MS);
  broadcaster.stop();
  const { left, right } = await decodeMp3(sink.bytes());
  return { left, right, joinedAt, starts, levels: TONES.map((tone) => toneTrack(left, tone.frequencyHz, HOP)) };
}

/** Capture sample at the centre of level window k, and its wall time. */
const sampleOf = (k: number) => k * HOP + 1024;
const timeOf = (c: Capture, sample: number) => c.joinedAt + (sample / RATE) * 1000;

/**
 * The capture's first ~100 ms are left out: a listener joins mid-stream, and the decoder's first frame
 * lacks the bit-reservoir bytes of the frames before it (as for any player joining a radio stream).
 */
const WARM_UP = Math.ceil(4096 / HOP);

/** Windows where tone i is above `fraction` of its steady on-air level: first and last. */
function span(c: Capture, i: number, fraction: number): { first: number; last: number; steady: number } {
  const levels = c.levels[i];
  let steady = 0;
  for (let k = WARM_UP; k < levels.length; k++) steady = Math.max(steady, levels[k]);
  let first = -1;
  let last = -1;
  for (let k = WARM_UP; k < levels.length; k++) {
    if (levels[k] >= steady * fraction) {
      if (first < 0) first = k;
      last = k;
    }
  }
  return { first, last, steady };
}

/** First window (from `after`) where tone b is at least as loud as tone a: the audible change. */
function crossing(c: Capture, a: number, b: number, after: number): number {
  for (let k = after; k < c.levels[a].length; k++) if (c.levels[b][k] >= c.levels[a][k] && c.levels[b][k] > 0.01) return k;
  return -1;
}

describe('playout: one continuous timeline, crossfaded and loudness-normalised', () => {
  let c: Capture;
  beforeAll(async () => {
    c = await capture(await Promise.all(TONES.map((tone) => toneMaster({ ...tone, seconds: 4 }))), 1);
  }, 30_000);

  it('overlaps consecutive tracks by crossfade_sec', () => {
    for (let i = 0; i < 3; i++) {
      // Both tones above -26 dB of their steady level: the equal-power fades pass that 3 % into the overlap.
      const overlapSec = ((span(c, i, 0.05).last - span(c, i + 1, 0.05).first) * HOP) / RATE;
      expect(overlapSec).toBeGreaterThan(0.9);
      expect(overlapSec).toBeLessThan(1.1);
    }
  });

  it('airs every track at the station level whatever its master level (within 1 LU of the next)', () => {
    const onAir: number[] = [];
    for (let i = 0; i < 4; i++) {
      const own = span(c, i, 0.95); // the steady part, away from the fades
      const lufs = loudnessOf(c.left, c.right, sampleOf(own.first), sampleOf(own.last));
      expect(lufs).not.toBeNull();
      onAir.push(lufs!);
    }
    for (let i = 0; i < 3; i++) expect(Math.abs(onAir[i] - onAir[i + 1])).toBeLessThan(1);
    for (const lufs of onAir) expect(Math.abs(lufs - -14)).toBeLessThan(1);
  });

  it('has no silence and no click at any join', () => {
    const from = sampleOf(span(c, 0, 0.95).first);
    const to = sampleOf(span(c, 3, 0.95).last);
    // No 20 ms (882 samples) under -60 dBFS from the first track's steady part to the last one's.
    expect(longestSilence(c.left, c.right, from, to, 0.001)).toBeLessThan(882);
    // A tone's own steepest step at its on-air level; a click is a step well beyond what the tones make.
    const steadySteps = TONES.map((_, i) => largestStep(c.left, sampleOf(span(c, i, 0.95).first), sampleOf(span(c, i, 0.95).last)));
    for (let i = 0; i < 3; i++) {
      const join = largestStep(c.left, sampleOf(span(c, i + 1, 0.02).first) - 2048, sampleOf(span(c, i, 0.02).last) + 2048);
      expect(join).toBeLessThan(1.5 * Math.max(steadySteps[i], steadySteps[i + 1]));
    }
  });

  it('announces each track within 250 ms of the audible change, with started_at when its first sound was heard', () => {
    expect(c.starts.map((s) => s.id)).toEqual(['a', 'b', 'c', 'd']);
    for (let i = 1; i < 4; i++) {
      const change = timeOf(c, sampleOf(crossing(c, i - 1, i, span(c, i - 1, 0.95).first)));
      const start = c.starts[i];
      expect(Math.abs(start.at - change)).toBeLessThan(250);
      // Its first sound: the fade-in passes -26 dB 3 % into the overlap (a lower bar would hear the other tones' leakage).
      const firstSound = timeOf(c, sampleOf(span(c, i, 0.05).first));
      expect(Math.abs(start.startedAtMs - firstSound)).toBeLessThan(250);
    }
  });
});

describe('playout with crossfade_sec 0', () => {
  let c: Capture;
  beforeAll(async () => {
    // b and d are WAV masters (d at 48 kHz) that start and end on a peak: a digital step at both ends.
    const onPeak = { seconds: 4, phase: Math.PI / 2 };
    c = await capture(
      [
        await toneMaster({ ...TONES[0], seconds: 4 }),
        encodeWav(tonePcm({ ...TONES[1], ...onPeak }), tonePcm({ ...TONES[1], ...onPeak })),
        await toneMaster({ ...TONES[2], seconds: 4 }),
        encodeWav(tonePcm({ ...TONES[3], ...onPeak }, 48_000), tonePcm({ ...TONES[3], ...onPeak }, 48_000), 48_000),
      ],
      0,
    );
  }, 30_000);

  it('splices tracks end to start (MP3 and WAV, 44.1 and 48 kHz): no overlap, no gap, no click', () => {
    for (let i = 0; i < 3; i++) {
      const gapSec = ((span(c, i + 1, 0.5).first - span(c, i, 0.5).last) * HOP) / RATE;
      expect(Math.abs(gapSec)).toBeLessThan(0.06); // the analysis windows' own smear
    }
    const from = sampleOf(span(c, 0, 0.95).first);
    const to = sampleOf(span(c, 3, 0.95).last);
    expect(longestSilence(c.left, c.right, from, to, 0.001)).toBeLessThan(882);
    const steadySteps = TONES.map((_, i) => largestStep(c.left, sampleOf(span(c, i, 0.95).first), sampleOf(span(c, i, 0.95).last)));
    for (let i = 0; i < 3; i++) {
      const join = largestStep(c.left, sampleOf(span(c, i, 0.5).last) - 1024, sampleOf(span(c, i + 1, 0.5).first) + 2048);
      expect(join).toBeLessThan(1.5 * Math.max(steadySteps[i], steadySteps[i + 1]));
    }
    for (let i = 1; i < 4; i++) {
      const change = timeOf(c, sampleOf(crossing(c, i - 1, i, span(c, i - 1, 0.95).first)));
      expect(Math.abs(c.starts[i].at - change)).toBeLessThan(250);
    }
  });
});
