/**
 * Integrated loudness (LUFS) after ITU-R BS.1770-4 / EBU R128: K-weighted mean square per channel over
 * 400 ms blocks that overlap by 75 % (a new block every 100 ms), weighted per channel and summed, then gated
 * twice: blocks at or under -70 LUFS are dropped (absolute gate), then blocks at or under the loudness of
 * what is left minus 10 LU (relative gate). The integrated loudness is the loudness of the mean energy of
 * the blocks that pass both.
 *
 * Streaming: PCM is pushed in chunks of any size. Only one number per 100 ms step is kept (the weighted sum
 * of squares), so a ten-minute track costs 6,000 numbers, never the signal itself.
 */
import { KWeightingFilter } from './k-weighting.js';

const STEP_SEC = 0.1;
const STEPS_PER_BLOCK = 4; // 400 ms blocks, 75 % overlap
const ABSOLUTE_GATE_LUFS = -70;
const RELATIVE_GATE_LU = -10;
/** The recommendation's offset that puts a 1 kHz full-scale sine in one front channel at -3.01 LUFS. */
const OFFSET_DB = -0.691;

/**
 * Channel weights of BS.1770 in WAV channel order: 1.0 for the front channels (left, right, centre), 1.41
 * (+1.5 dB) for the surround channels, 0 for the LFE. Mono and stereo weigh each channel 1.0; a layout
 * this does not know weighs every channel 1.0.
 */
export function channelWeights(channelCount: number): number[] {
  if (channelCount === 5) return [1, 1, 1, 1.41, 1.41]; // L R C Ls Rs
  if (channelCount === 6) return [1, 1, 1, 0, 1.41, 1.41]; // L R C LFE Ls Rs
  return Array.from({ length: channelCount }, () => 1);
}

const lufsOf = (meanSquare: number) => OFFSET_DB + 10 * Math.log10(meanSquare);
const meanSquareOf = (lufs: number) => 10 ** ((lufs - OFFSET_DB) / 10);

export class LoudnessMeter {
  private readonly filters: KWeightingFilter[];
  private readonly weights: number[];
  private readonly stepLength: number;
  /** Weighted sum of squares of the step being filled, and how many frames it holds. */
  private stepEnergy = 0;
  private stepFill = 0;
  /** The last completed steps (at most STEPS_PER_BLOCK - 1 are needed to close the next block). */
  private recentSteps: number[] = [];
  /** Weighted mean square of each completed 400 ms block. */
  private readonly blocks: number[] = [];

  constructor(
    readonly sampleRate: number,
    readonly channelCount: number,
  ) {
    if (!(sampleRate > 0) || !Number.isInteger(channelCount) || channelCount < 1) {
      throw new RangeError(`cannot measure ${channelCount} channels at ${sampleRate} Hz`);
    }
    this.filters = Array.from({ length: channelCount }, () => new KWeightingFilter(sampleRate));
    this.weights = channelWeights(channelCount);
    this.stepLength = Math.max(1, Math.round(sampleRate * STEP_SEC));
  }

  /** Feeds `frames` frames, one array per channel. */
  push(channels: readonly Float32Array[], frames: number): void {
    if (channels.length !== this.channelCount) throw new RangeError(`expected ${this.channelCount} channels, got ${channels.length}`);
    let at = 0;
    while (at < frames) {
      const end = Math.min(frames, at + (this.stepLength - this.stepFill));
      for (let c = 0; c < this.channelCount; c++) {
        // Every channel is filtered, even a zero-weighted one, so its filter state stays continuous.
        const energy = this.filters[c].sumOfSquares(channels[c], at, end);
        this.stepEnergy += this.weights[c] * energy;
      }
      this.stepFill += end - at;
      at = end;
      if (this.stepFill === this.stepLength) this.closeStep();
    }
  }

  private closeStep(): void {
    this.recentSteps.push(this.stepEnergy);
    this.stepEnergy = 0;
    this.stepFill = 0;
    if (this.recentSteps.length < STEPS_PER_BLOCK) return;
    let sum = 0;
    for (const energy of this.recentSteps) sum += energy;
    this.blocks.push(sum / (STEPS_PER_BLOCK * this.stepLength));
    this.recentSteps.shift();
  }

  /** Complete 400 ms blocks measured so far (a trailing partial block does not count, as the recommendation says). */
  get blockCount(): number {
    return this.blocks.length;
  }

  /** Integrated loudness in LUFS; null when no block passes the gates (silence, or under 400 ms of audio). */
  integrated(): number | null {
    const absolute = meanSquareOf(ABSOLUTE_GATE_LUFS);
    const audible = this.blocks.filter((energy) => energy > absolute);
    if (audible.length === 0) return null;
    const relative = meanSquareOf(lufsOf(mean(audible)) + RELATIVE_GATE_LU);
    const gated = audible.filter((energy) => energy > relative);
    return gated.length === 0 ? null : lufsOf(mean(gated));
  }
}

function mean(values: number[]): number {
  let sum = 0;
  for (const value of values) sum += value;
  return sum / values.length;
}
