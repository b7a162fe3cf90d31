/**
 * One track placed on the playout timeline: where it starts, its on-air gain (loudness normalisation) and
 * its fades. Positions are timeline samples (44.1 kHz); `start` is where its first sound plays.
 */
import type { TrackAnalysis } from '../../../engine/audio/track-analysis.js';
import { DECLICK_SEC } from './crossfade.js';
import { TIMELINE_RATE, type TrackReader } from './track-reader.js';

const HALF_PI = Math.PI / 2;
const DECLICK = Math.round(DECLICK_SEC * TIMELINE_RATE);

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
  private readonly left: Float32Array;
  private readonly right: Float32Array;
  private position = 0; // local sample of the next take

  constructor(
    readonly info: VoiceInfo,
    readonly reader: TrackReader,
    /** Linear on-air gain. */
    readonly gain: number,
    blockSize: number,
  ) {
    this.left = new Float32Array(blockSize);
    this.right = new Float32Array(blockSize);
  }

  get length(): number {
    return this.reader.length;
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
      let g = this.gain;
      if (i < this.fadeIn) g *= Math.sin((HALF_PI * (i + 0.5)) / this.fadeIn);
      if (i >= fadeOutFrom) g *= Math.cos((HALF_PI * (i - fadeOutFrom + 0.5)) / this.fadeOut);
      if (i < DECLICK) g *= (i + 0.5) / DECLICK;
      const left = this.length - i;
      if (left <= DECLICK) g *= (left - 0.5) / DECLICK;
      const l = this.left[k] * g;
      const r = this.right[k] * g;
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
