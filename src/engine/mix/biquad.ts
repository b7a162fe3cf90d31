/**
 * Biquad filters after Robert Bristow-Johnson's Audio EQ Cookbook (high-/low-pass, low/high shelf, peak), in
 * transposed direct form II, one state per channel. A bus runs a short chain of them on each stereo block;
 * a flat band (0 dB) is left out of the chain rather than computed, since every biquad costs a few
 * multiplies per sample on a budget of tens of millions of samples a track.
 */

export type BandType = 'highpass' | 'lowpass' | 'lowshelf' | 'highshelf' | 'peak';

export interface Band {
  type: BandType;
  hz: number;
  /** Gain in dB (ignored by the high-pass). */
  db?: number;
  q?: number;
}

export class Biquad {
  private readonly b0: number;
  private readonly b1: number;
  private readonly b2: number;
  private readonly a1: number;
  private readonly a2: number;
  // Transposed direct form II state, left and right.
  private l1 = 0;
  private l2 = 0;
  private r1 = 0;
  private r2 = 0;

  constructor(band: Band, sampleRate: number) {
    const w = (2 * Math.PI * band.hz) / sampleRate;
    const cos = Math.cos(w);
    const q = band.q ?? Math.SQRT1_2;
    const alpha = Math.sin(w) / (2 * q);
    const a = 10 ** ((band.db ?? 0) / 40);
    let b0: number, b1: number, b2: number, a0: number, a1: number, a2: number;
    if (band.type === 'highpass') {
      [b0, b1, b2] = [(1 + cos) / 2, -(1 + cos), (1 + cos) / 2];
      [a0, a1, a2] = [1 + alpha, -2 * cos, 1 - alpha];
    } else if (band.type === 'lowpass') {
      [b0, b1, b2] = [(1 - cos) / 2, 1 - cos, (1 - cos) / 2];
      [a0, a1, a2] = [1 + alpha, -2 * cos, 1 - alpha];
    } else if (band.type === 'peak') {
      [b0, b1, b2] = [1 + alpha * a, -2 * cos, 1 - alpha * a];
      [a0, a1, a2] = [1 + alpha / a, -2 * cos, 1 - alpha / a];
    } else {
      // Shelves with slope 1 (S = 1): alpha from the cookbook's shelf formula.
      const sa = Math.sin(w) * Math.SQRT1_2 * Math.sqrt(a) * 2; // 2 sqrt(A) alpha
      const sign = band.type === 'lowshelf' ? 1 : -1;
      b0 = a * (a + 1 - sign * (a - 1) * cos + sa);
      b1 = sign * 2 * a * (a - 1 - sign * (a + 1) * cos);
      b2 = a * (a + 1 - sign * (a - 1) * cos - sa);
      a0 = a + 1 + sign * (a - 1) * cos + sa;
      a1 = -sign * 2 * (a - 1 + sign * (a + 1) * cos);
      a2 = a + 1 + sign * (a - 1) * cos - sa;
    }
    this.b0 = b0 / a0;
    this.b1 = b1 / a0;
    this.b2 = b2 / a0;
    this.a1 = a1 / a0;
    this.a2 = a2 / a0;
  }

  /** Magnitude response at `hz` (dB), from the coefficients: what the filter does to a sine there. */
  responseDb(hz: number, sampleRate: number): number {
    const w = (2 * Math.PI * hz) / sampleRate;
    const [c1, s1, c2, s2] = [Math.cos(w), Math.sin(w), Math.cos(2 * w), Math.sin(2 * w)];
    // H(e^-jw) = (b0 + b1 e^-jw + b2 e^-2jw) / (1 + a1 e^-jw + a2 e^-2jw)
    const nr = this.b0 + this.b1 * c1 + this.b2 * c2;
    const ni = -(this.b1 * s1 + this.b2 * s2);
    const dr = 1 + this.a1 * c1 + this.a2 * c2;
    const di = -(this.a1 * s1 + this.a2 * s2);
    return 10 * Math.log10((nr * nr + ni * ni) / (dr * dr + di * di));
  }

  /** Filters a stereo block in place. */
  processStereo(left: Float32Array, right: Float32Array, length: number): void {
    const { b0, b1, b2, a1, a2 } = this;
    let { l1, l2, r1, r2 } = this;
    for (let i = 0; i < length; i++) {
      const x = left[i];
      const y = b0 * x + l1;
      l1 = b1 * x - a1 * y + l2;
      l2 = b2 * x - a2 * y;
      left[i] = y;
      const xr = right[i];
      const yr = b0 * xr + r1;
      r1 = b1 * xr - a1 * yr + r2;
      r2 = b2 * xr - a2 * yr;
      right[i] = yr;
    }
    // Flush denormals after silence so the next block does not crawl.
    this.l1 = Math.abs(l1) < 1e-20 ? 0 : l1;
    this.l2 = Math.abs(l2) < 1e-20 ? 0 : l2;
    this.r1 = Math.abs(r1) < 1e-20 ? 0 : r1;
    this.r2 = Math.abs(r2) < 1e-20 ? 0 : r2;
  }

  /** Filters a mono block in place (uses the left state). */
  processMono(samples: Float32Array, start: number, end: number): void {
    const { b0, b1, b2, a1, a2 } = this;
    let { l1, l2 } = this;
    for (let i = start; i < end; i++) {
      const x = samples[i];
      const y = b0 * x + l1;
      l1 = b1 * x - a1 * y + l2;
      l2 = b2 * x - a2 * y;
      samples[i] = y;
    }
    this.l1 = Math.abs(l1) < 1e-20 ? 0 : l1;
    this.l2 = Math.abs(l2) < 1e-20 ? 0 : l2;
  }
}

/** A chain of bands; bands with no effect (0 dB shelves and peaks) are dropped. */
export function eqChain(bands: readonly Band[], sampleRate: number): Biquad[] {
  return bands.filter((b) => b.type === 'highpass' || b.type === 'lowpass' || Math.abs(b.db ?? 0) > 0.05).map((b) => new Biquad(b, sampleRate));
}
