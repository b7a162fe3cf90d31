/**
 * One track placed on the playout timeline: where it starts, its on-air gain (loudness normalisation), the
 * lift of its quiet intro, its fades, where it is cut (a segue, a skip) and its silence detector.
 * Positions are timeline samples (44.1 kHz); `start` is where its first sound plays.
 */
import { HOLE_LEVEL, type TrackAnalysis } from '../../engine/audio/track-analysis.js';
import { DECLICK_SEC } from './crossfade.js';
import { TIMELINE_RATE, type TrackReader } from './track-reader.js';

const HALF_PI = Math.PI / 2;
const DECLICK = Math.round(DECLICK_SEC * TIMELINE_RATE);
/** A hole this long (after the track's first sound) takes the track off the air. */
export const HOLE_SKIP_SEC = 2;
/** The lift of a quiet intro returns to 0 dB over the intro's last second (or its last half, if shorter). */
const LIFT_RAMP_SEC = 1;

export interface VoiceInfo {
  id: string;
  title: string | null;
  bitrateKbps: number;
  /** The overlap asked for between the track before it and this one (crossfade_sec when it was cued). */
  crossfadeSec: number;
  analysis: TrackAnalysis;
}

export class Voice {
  start = 0;
  /** Samples of equal-power fade at the start and at the end (0: none beyond the declick ramps). */
  fadeIn = 0;
  fadeOut = 0;
  /** Timeline sample where it became louder than the track before it (the audible change); null until then. */
  changeAt: number | null = null;
  /** Whether any of it has been mixed (it is on the air from then on). */
  started = false;
  /** Where it ends on air (local samples), when before the end of its sound: a segue, a skip. */
  cut: number | null = null;
  /** Samples of the quiet intro lifted, and the lift (linear); 0 and 1: none. */
  liftLength = 0;
  lift = 1;
  /** The current run of source samples under HOLE_LEVEL. */
  holeRun = 0;
  private readonly left: Float32Array;
  private readonly right: Float32Array;
  private position = 0; // local sample of the next take

  constructor(
    readonly info: VoiceInfo,
    readonly reader: TrackReader,
    /** Linear on-air gain. */
    readonly gain: number,
    blockSize: number,
    /**
     * Samples of its sound before the reader's first (a takeover resumes a track mid-way: local positions
     * still count from its first sound, so its fades, cut and markers keep the last leader's timeline).
     */
    readonly skipped = 0,
  ) {
    this.left = new Float32Array(blockSize);
    this.right = new Float32Array(blockSize);
    this.position = skipped;
  }

  /** Samples of its sound from its first, whatever was skipped. */
  get soundLength(): number {
    return this.skipped + this.reader.length;
  }

  /** Samples on air: its sound, up to the cut. */
  get length(): number {
    return this.cut === null ? this.soundLength : Math.min(this.cut, this.soundLength);
  }

  /** Whether a hole long enough to skip it has played. */
  get holed(): boolean {
    return this.holeRun >= HOLE_SKIP_SEC * TIMELINE_RATE;
  }

  /** The lift at local sample i (linear): full over the intro, back to 1 over its last LIFT_RAMP_SEC. */
  private liftAt(i: number): number {
    if (i >= this.liftLength) return 1;
    const ramp = Math.min(LIFT_RAMP_SEC * TIMELINE_RATE, this.liftLength / 2);
    const into = i - (this.liftLength - ramp);
    return into <= 0 ? this.lift : this.lift + ((1 - this.lift) * into) / ramp;
  }

  get end(): number {
    return this.start + this.length;
  }

  /** Samples to decode before mixing timeline [from, to). */
  needed(from: number, to: number): number {
    return Math.max(0, Math.min(to, this.end) - Math.max(from, this.start));
  }

  /**
   * Adds its part of timeline [from, from + count) into out[offset...]; returns the energy it contributed
   * (sum of squares), which tells when a crossfade's incoming track took over.
   */
  mixInto(outLeft: Float32Array, outRight: Float32Array, offset: number, from: number, count: number): number {
    const begin = Math.max(from, this.start);
    const finish = Math.min(from + count, this.end);
    if (finish <= begin) return 0;
    const n = finish - begin;
    this.reader.take(n, this.left, this.right);
    this.started = true;
    const local = begin - this.start;
    const fadeOutFrom = this.length - this.fadeOut;
    let energy = 0;
    for (let k = 0; k < n; k++) {
      const i = local + k;
      const sourceLeft = this.left[k];
      const sourceRight = this.right[k];
      if ((sourceLeft < 0 ? -sourceLeft : sourceLeft) < HOLE_LEVEL && (sourceRight < 0 ? -sourceRight : sourceRight) < HOLE_LEVEL) this.holeRun++;
      else this.holeRun = 0;
      let g = this.gain;
      if (i < this.liftLength) g *= this.liftAt(i);
      if (i < this.fadeIn) g *= Math.sin((HALF_PI * (i + 0.5)) / this.fadeIn);
      if (i >= fadeOutFrom) g *= Math.cos((HALF_PI * (i - fadeOutFrom + 0.5)) / this.fadeOut);
      // The declick ramp in: at its first sound, or where a resumed track comes back in.
      if (i - this.skipped < DECLICK) g *= (i - this.skipped + 0.5) / DECLICK;
      const left = this.length - i;
      if (left <= DECLICK) g *= (left - 0.5) / DECLICK;
      const l = sourceLeft * g;
      const r = sourceRight * g;
      energy += l * l + r * r;
      outLeft[offset + begin - from + k] += l;
      outRight[offset + begin - from + k] += r;
    }
    this.position = local + n;
    return energy;
  }

  /** Local samples taken so far. */
  get taken(): number {
    return this.position;
  }
}
