/**
 * True peak (dBTP): the highest level of the signal between its samples, estimated by 4x oversampling as
 * ITU-R BS.1770-4 Annex 2 describes (interpolate three points between each pair of samples with a
 * windowed-sinc filter, take the largest magnitude). Used to keep a track's on-air gain from pushing its
 * peaks past the station's ceiling.
 *
 * Cost: an inter-sample peak exceeds its two neighbours by a few dB at most for audio (more only for
 * near-Nyquist test tones), so the interpolation runs only between samples within 6 dB of the peak found so
 * far; the rest of the signal costs one comparison per sample.
 */

const OVERSAMPLE = 4;
/** Input samples on each side of an interpolated point. */
const HALF_TAPS = 6;
const TAPS = 2 * HALF_TAPS; // x[n-5] .. x[n+6] around the gap between n and n+1
const HISTORY = TAPS - 1;
/** Interpolate where a neighbour is within 6 dB of the running peak. */
const CANDIDATE_RATIO = 0.5;

/** kernels[p][k]: weight of x[n - HALF_TAPS + 1 + k] for the point at n + p / OVERSAMPLE (p = 1..3). */
const kernels: Float64Array[] = [];
for (let p = 1; p < OVERSAMPLE; p++) {
  const fraction = p / OVERSAMPLE;
  const kernel = new Float64Array(TAPS);
  for (let k = 0; k < TAPS; k++) {
    const t = fraction - (k - HALF_TAPS + 1); // distance from the input sample to the point, in samples
    const sinc = t === 0 ? 1 : Math.sin(Math.PI * t) / (Math.PI * t);
    const window = 0.5 + 0.5 * Math.cos((Math.PI * t) / HALF_TAPS); // Hann over +-HALF_TAPS
    kernel[k] = sinc * window;
  }
  kernels.push(kernel);
}

export class TruePeakMeter {
  private readonly tails: Float32Array[];
  private peak = 0;

  constructor(readonly channelCount: number) {
    this.tails = Array.from({ length: channelCount }, () => new Float32Array(HISTORY));
  }

  /** Feeds `frames` frames, one array per channel. */
  push(channels: readonly Float32Array[], frames: number): void {
    for (let c = 0; c < this.channelCount; c++) this.scan(c, channels[c], frames);
  }

  /** The largest magnitude found, linear (1.0 = full scale). */
  get linear(): number {
    let peak = this.peak;
    // The last samples have no right-hand neighbours yet: count them as samples.
    for (const tail of this.tails) for (let i = HALF_TAPS - 1; i < HISTORY; i++) peak = Math.max(peak, Math.abs(tail[i]));
    return peak;
  }

  /** dBTP; null for digital silence. */
  get dbtp(): number | null {
    const linear = this.linear;
    return linear > 0 ? 20 * Math.log10(linear) : null;
  }

  private scan(channel: number, input: Float32Array, frames: number): void {
    const ext = new Float32Array(HISTORY + frames);
    ext.set(this.tails[channel]);
    ext.set(input.subarray(0, frames), HISTORY);
    let peak = this.peak;
    // Points between n and n+1 need x[n-5..n+6]; each n is visited once across calls.
    for (let n = HALF_TAPS - 1; n + HALF_TAPS < ext.length; n++) {
      const here = Math.abs(ext[n]);
      if (here > peak) peak = here;
      if (Math.max(here, Math.abs(ext[n + 1])) < peak * CANDIDATE_RATIO) continue;
      const base = n - HALF_TAPS + 1;
      for (const kernel of kernels) {
        let sum = 0;
        for (let k = 0; k < TAPS; k++) sum += kernel[k] * ext[base + k];
        const magnitude = Math.abs(sum);
        if (magnitude > peak) peak = magnitude;
      }
    }
    this.peak = peak;
    this.tails[channel] = ext.slice(ext.length - HISTORY);
  }
}

/**
 * The largest magnitude of the three 4x-oversampled points between `signal[n]` and `signal[n + 1]`
 * (samples outside the array count as zero): what the meter above sees between two samples, for a
 * limiter that must hold the true peak, not the sample peak (src/engine/mix/limiter.ts).
 */
export function interSamplePeak(signal: Float32Array, n: number): number {
  const base = n - HALF_TAPS + 1;
  const inside = base >= 0 && base + TAPS <= signal.length;
  let peak = 0;
  for (const kernel of kernels) {
    let sum = 0;
    if (inside) for (let k = 0; k < TAPS; k++) sum += kernel[k] * signal[base + k];
    else for (let k = 0; k < TAPS; k++) sum += kernel[k] * (signal[base + k] ?? 0);
    const magnitude = Math.abs(sum);
    if (magnitude > peak) peak = magnitude;
  }
  return peak;
}
