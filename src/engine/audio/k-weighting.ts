/**
 * The K-weighting of ITU-R BS.1770-4: a high-shelf "pre-filter" (the acoustic effect of the head) followed
 * by the "RLB" high-pass, each a biquad. The recommendation tabulates coefficients for 48 kHz only; here
 * they are derived for any sample rate from the analogue prototypes (centre frequency, Q and shelf gain)
 * through the bilinear transform with frequency pre-warping. At 48 kHz the result matches the table to
 * about 1e-9, which test/platform/uploads-loudness.test.ts checks.
 */

export interface BiquadCoefficients {
  b0: number;
  b1: number;
  b2: number;
  /** Denominator with a0 normalised to 1. */
  a1: number;
  a2: number;
}

/** Analogue prototype of stage 1: shelf centre, quality factor and gain (dB) of the high shelf. */
const SHELF = { f0: 1681.974450955533, q: 0.7071752369554196, gainDb: 3.999843853973347 };
/** Analogue prototype of stage 2: the RLB high-pass corner and quality factor. */
const HIGH_PASS = { f0: 38.13547087602444, q: 0.5003270373238773 };
/**
 * How far the shelf's mid-band gain sits between unity and the full shelf gain (as an exponent of the
 * linear shelf gain); together with the constants above it reproduces the 48 kHz table of BS.1770.
 */
const SHELF_MID_EXPONENT = 0.4996667741545416;

export function shelfCoefficients(sampleRate: number): BiquadCoefficients {
  const k = Math.tan((Math.PI * SHELF.f0) / sampleRate);
  const vh = 10 ** (SHELF.gainDb / 20);
  const vb = vh ** SHELF_MID_EXPONENT;
  const a0 = 1 + k / SHELF.q + k * k;
  return {
    b0: (vh + (vb * k) / SHELF.q + k * k) / a0,
    b1: (2 * (k * k - vh)) / a0,
    b2: (vh - (vb * k) / SHELF.q + k * k) / a0,
    a1: (2 * (k * k - 1)) / a0,
    a2: (1 - k / SHELF.q + k * k) / a0,
  };
}

/** The RLB high-pass; its numerator is (1, -2, 1) as in the recommendation's table (no gain normalisation). */
export function highPassCoefficients(sampleRate: number): BiquadCoefficients {
  const k = Math.tan((Math.PI * HIGH_PASS.f0) / sampleRate);
  const a0 = 1 + k / HIGH_PASS.q + k * k;
  return { b0: 1, b1: -2, b2: 1, a1: (2 * (k * k - 1)) / a0, a2: (1 - k / HIGH_PASS.q + k * k) / a0 };
}

/** One channel's K-weighting filter (two cascaded biquads, direct form I), stateful across blocks. */
export class KWeightingFilter {
  private readonly s: BiquadCoefficients;
  private readonly h: BiquadCoefficients;
  // Previous inputs and outputs of each stage.
  private x1 = 0;
  private x2 = 0;
  private y1 = 0;
  private y2 = 0;
  private z1 = 0;
  private z2 = 0;

  constructor(sampleRate: number) {
    this.s = shelfCoefficients(sampleRate);
    this.h = highPassCoefficients(sampleRate);
  }

  /**
   * Filters `input[start..end)` and returns the sum of the squared filtered samples (all the gating needs),
   * so no filtered copy of the signal is ever allocated.
   */
  sumOfSquares(input: Float32Array, start: number, end: number): number {
    const { s, h } = this;
    let { x1, x2, y1, y2, z1, z2 } = this;
    let sum = 0;
    for (let i = start; i < end; i++) {
      const x = input[i];
      const y = s.b0 * x + s.b1 * x1 + s.b2 * x2 - s.a1 * y1 - s.a2 * y2;
      x2 = x1;
      x1 = x;
      // Stage 2 reads stage 1's output; its own past inputs are y1/y2 before they move on.
      const z = h.b0 * y + h.b1 * y1 + h.b2 * y2 - h.a1 * z1 - h.a2 * z2;
      y2 = y1;
      y1 = y;
      z2 = z1;
      z1 = z;
      sum += z * z;
    }
    this.x1 = x1;
    this.x2 = x2;
    this.y1 = y1;
    this.y2 = y2;
    this.z1 = z1;
    this.z2 = z2;
    return sum;
  }
}
