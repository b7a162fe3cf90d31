/**
 * The output's safety limiter. Normalised tracks stay under the ceiling on their own; only the sum of two
 * in a crossfade (up to +3 dB over either for uncorrelated material) can pass it. A short look-ahead lets the
 * gain come down before a peak reaches the output instead of clipping it; the gain then recovers with a
 * 50 ms time constant. Where nothing comes near the ceiling the block is only delayed.
 */
import { TIMELINE_RATE } from './track-reader.js';

/** 1.5 ms: the gain reaches its target over this many samples before the peak leaves the delay line. */
export const LIMITER_LOOKAHEAD = 64;
const RELEASE_SEC = 0.05;

export class Limiter {
  private readonly ceiling: number;
  private readonly release = 1 - Math.exp(-1 / (RELEASE_SEC * TIMELINE_RATE));
  private readonly delayLeft = new Float32Array(LIMITER_LOOKAHEAD);
  private readonly delayRight = new Float32Array(LIMITER_LOOKAHEAD);
  /** The gain each sample in the delay line needs, at most 1. */
  private readonly needs = new Float32Array(LIMITER_LOOKAHEAD).fill(1);
  private at = 0;
  private gain = 1;
  /** Samples in the delay line that need less than unity gain. */
  private hot = 0;

  constructor(ceilingDbfs: number) {
    this.ceiling = 10 ** (ceilingDbfs / 20);
  }

  /** Limits `count` samples in place (the output is LIMITER_LOOKAHEAD samples late). */
  process(left: Float32Array, right: Float32Array, count: number): void {
    const ceiling = this.ceiling;
    for (let i = 0; i < count; i++) {
      const l = left[i];
      const r = right[i];
      const peak = Math.max(l < 0 ? -l : l, r < 0 ? -r : r);
      const need = peak > ceiling ? ceiling / peak : 1;
      const slot = this.at;
      const outLeft = this.delayLeft[slot];
      const outRight = this.delayRight[slot];
      if (this.needs[slot] < 1) this.hot--;
      this.delayLeft[slot] = l;
      this.delayRight[slot] = r;
      this.needs[slot] = need;
      if (need < 1) this.hot++;
      this.at = (slot + 1) % LIMITER_LOOKAHEAD;
      if (this.hot > 0 || this.gain < 1) this.adjust();
      left[i] = outLeft * this.gain;
      right[i] = outRight * this.gain;
    }
  }

  /** Moves the gain towards what the loudest sample ahead needs: down fast enough to be there in time, up slowly. */
  private adjust(): void {
    let target = 1;
    if (this.hot > 0) for (let k = 0; k < LIMITER_LOOKAHEAD; k++) target = Math.min(target, this.needs[k]);
    if (target < this.gain) this.gain = Math.max(target, this.gain - (1 - target) / LIMITER_LOOKAHEAD);
    else this.gain += (target - this.gain) * this.release;
    if (this.gain > 0.99999) this.gain = 1;
  }
}
