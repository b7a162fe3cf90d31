/**
 * Fundamental frequency tracking with YIN (de Cheveigné & Kawahara 2002): the cumulative-mean-normalised
 * difference function, its first dip below an absolute threshold, parabolic interpolation. Runs on a
 * 4x-decimated signal (11.025 kHz from 44.1 kHz), which keeps it cheap and is ample for voices up to 1 kHz.
 * Used to measure sung vocals (tests, bench); a frame is voiced when its aperiodicity is low and it is
 * not near-silent.
 */

export interface PitchFrame {
  timeSec: number; // centre of the frame
  f0: number; // Hz, 0 when unvoiced
  aperiodicity: number; // the normalised difference at the chosen lag, 0 (periodic) .. 1
  rms: number;
}

export interface YinOptions {
  minHz?: number;
  maxHz?: number;
  hopSec?: number;
  threshold?: number;
  /** Frames quieter than this, relative to the loudest frame, are unvoiced (dB). */
  silenceDb?: number;
}

/** Low-pass (two cascaded biquads at 0.4 of the new Nyquist) and keep every `factor`-th sample. */
export function decimate(samples: Float32Array, factor: number): Float32Array {
  if (factor === 1) return samples;
  const cutoff = 0.4 / factor; // cycles per input sample: 80% of the new Nyquist frequency
  const w = 2 * Math.PI * cutoff;
  const q = Math.SQRT1_2;
  const alpha = Math.sin(w) / (2 * q);
  const a0 = 1 + alpha;
  const b0 = (1 - Math.cos(w)) / 2 / a0;
  const b1 = (1 - Math.cos(w)) / a0;
  const a1 = (-2 * Math.cos(w)) / a0;
  const a2 = (1 - alpha) / a0;
  let data = Float64Array.from(samples);
  for (let pass = 0; pass < 2; pass++) {
    const next = new Float64Array(data.length);
    let x1 = 0,
      x2 = 0,
      y1 = 0,
      y2 = 0;
    for (let i = 0; i < data.length; i++) {
      const x = data[i];
      const y = b0 * x + b1 * x1 + b0 * x2 - a1 * y1 - a2 * y2;
      x2 = x1;
      x1 = x;
      y2 = y1;
      y1 = y;
      next[i] = y;
    }
    data = next;
  }
  const out = new Float32Array(Math.floor(data.length / factor));
  for (let i = 0; i < out.length; i++) out[i] = data[i * factor];
  return out;
}

export function trackPitch(samples: Float32Array, sampleRate: number, options: YinOptions = {}): PitchFrame[] {
  const minHz = options.minHz ?? 70;
  const maxHz = options.maxHz ?? 1000;
  const threshold = options.threshold ?? 0.1; // the paper's value; 0.15 lets a strong second harmonic win (octave errors)
  const factor = Math.max(1, Math.floor(sampleRate / 11025));
  const x = decimate(samples, factor);
  const fs = sampleRate / factor;
  const tauMax = Math.ceil(fs / minHz);
  const tauMin = Math.max(2, Math.floor(fs / maxHz));
  const window = tauMax; // integration window: one longest period
  const hop = Math.max(1, Math.round((options.hopSec ?? 0.01) * fs));
  const d = new Float64Array(tauMax + 1);
  const frames: PitchFrame[] = [];
  for (let start = 0; start + window + tauMax < x.length; start += hop) {
    let energy = 0;
    for (let j = 0; j < window; j++) energy += x[start + j] * x[start + j];
    const rms = Math.sqrt(energy / window);
    // Difference function and its cumulative-mean normalisation.
    d[0] = 1;
    let running = 0;
    for (let tau = 1; tau <= tauMax; tau++) {
      let sum = 0;
      for (let j = 0; j < window; j++) {
        const diff = x[start + j] - x[start + j + tau];
        sum += diff * diff;
      }
      running += sum;
      d[tau] = running > 0 ? (sum * tau) / running : 1;
    }
    let best = -1;
    for (let tau = tauMin; tau < tauMax; tau++) {
      if (d[tau] < threshold) {
        while (tau + 1 < tauMax && d[tau + 1] < d[tau]) tau++;
        best = tau;
        break;
      }
    }
    if (best < 0) {
      // No dip below the threshold: take the global minimum, reported with its (high) aperiodicity.
      best = tauMin;
      for (let tau = tauMin; tau < tauMax; tau++) if (d[tau] < d[best]) best = tau;
    }
    const aperiodicity = d[best];
    const [a, b, c] = [d[best - 1], d[best], d[best + 1] ?? d[best]];
    const shift = a + c - 2 * b !== 0 ? (0.5 * (a - c)) / (a + c - 2 * b) : 0;
    const period = best + Math.max(-1, Math.min(1, shift));
    frames.push({ timeSec: (start + window / 2) / fs, f0: fs / period, aperiodicity, rms });
  }
  const loudest = frames.reduce((m, f) => Math.max(m, f.rms), 0);
  const floor = loudest * 10 ** ((options.silenceDb ?? -35) / 20);
  for (const f of frames) if (f.aperiodicity > threshold * 1.5 || f.rms < floor) f.f0 = 0;
  return frames;
}

export function centsBetween(hz: number, reference: number): number {
  return 1200 * Math.log2(hz / reference);
}
