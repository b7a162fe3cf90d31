/**
 * Formant estimation by linear prediction, as phoneticians measure vowels (e.g. Praat's "To Formant"):
 * decimate to 11.025 kHz (formants up to 5.5 kHz), pre-emphasise, Hamming window, autocorrelation LPC of
 * order 12 (Levinson-Durbin), roots of the predictor polynomial (Durand-Kerner), and the resonances
 * (root angle -> frequency, radius -> bandwidth) narrower than 600 Hz, lowest first.
 */
import { decimate } from './pitch.js';

export interface FormantFrame {
  timeSec: number;
  formants: number[]; // Hz, ascending
  bandwidths: number[];
}

export interface FormantOptions {
  order?: number;
  windowSec?: number;
  hopSec?: number;
}

export function estimateFormants(samples: Float32Array, sampleRate: number, options: FormantOptions = {}): FormantFrame[] {
  const factor = Math.max(1, Math.floor(sampleRate / 11025));
  const x = decimate(samples, factor);
  const fs = sampleRate / factor;
  const order = options.order ?? 12;
  const size = Math.round((options.windowSec ?? 0.03) * fs);
  const hop = Math.round((options.hopSec ?? 0.01) * fs);
  const frames: FormantFrame[] = [];
  const frame = new Float64Array(size);
  const preEmphasis = Math.exp((-2 * Math.PI * 50) / fs);
  for (let start = 1; start + size <= x.length; start += hop) {
    for (let i = 0; i < size; i++) {
      const hamming = 0.54 - 0.46 * Math.cos((2 * Math.PI * i) / (size - 1));
      frame[i] = (x[start + i] - preEmphasis * x[start + i - 1]) * hamming;
    }
    const lpc = levinson(autocorrelation(frame, order), order);
    if (!lpc) continue;
    const resonances = polynomialRoots(lpc)
      .filter(([, im]) => im > 0)
      .map(([re, im]) => ({ f: (Math.atan2(im, re) * fs) / (2 * Math.PI), b: (-Math.log(Math.hypot(re, im)) * fs) / Math.PI }))
      .filter((r) => r.f > 90 && r.f < fs / 2 - 50 && r.b < 600)
      .sort((a, b) => a.f - b.f);
    frames.push({ timeSec: (start + size / 2) / fs, formants: resonances.map((r) => r.f), bandwidths: resonances.map((r) => r.b) });
  }
  return frames;
}

function autocorrelation(frame: Float64Array, order: number): Float64Array {
  const r = new Float64Array(order + 1);
  for (let lag = 0; lag <= order; lag++) {
    let sum = 0;
    for (let i = lag; i < frame.length; i++) sum += frame[i] * frame[i - lag];
    r[lag] = sum;
  }
  return r;
}

/** Predictor polynomial [1, a1, ..., ap]; null for a silent frame. */
function levinson(r: Float64Array, order: number): Float64Array | null {
  if (r[0] <= 0) return null;
  const a = new Float64Array(order + 1);
  a[0] = 1;
  let error = r[0] * (1 + 1e-9); // a tiny white-noise floor keeps the recursion stable
  for (let i = 1; i <= order; i++) {
    let acc = r[i];
    for (let j = 1; j < i; j++) acc += a[j] * r[i - j];
    const k = -acc / error;
    const previous = a.slice();
    for (let j = 1; j < i; j++) a[j] = previous[j] + k * previous[i - j];
    a[i] = k;
    error *= 1 - k * k;
    if (error <= 0) return null;
  }
  return a;
}

/** All complex roots of z^p + c1 z^(p-1) + ... + cp (coefficients [1, c1..cp]) by Durand-Kerner iteration. */
export function polynomialRoots(coefficients: Float64Array): [number, number][] {
  const p = coefficients.length - 1;
  const re = new Float64Array(p);
  const im = new Float64Array(p);
  for (let k = 0; k < p; k++) {
    // Distinct starting points on a spiral inside the unit circle, where LPC roots live.
    const angle = (2 * Math.PI * k) / p + 0.4;
    re[k] = 0.9 * Math.cos(angle);
    im[k] = 0.9 * Math.sin(angle);
  }
  for (let iteration = 0; iteration < 500; iteration++) {
    let moved = 0;
    for (let k = 0; k < p; k++) {
      // P(z) by Horner.
      let pr = 1;
      let pi = 0;
      for (let j = 1; j <= p; j++) [pr, pi] = [pr * re[k] - pi * im[k] + coefficients[j], pr * im[k] + pi * re[k]];
      // Product of (z_k - z_j).
      let qr = 1;
      let qi = 0;
      for (let j = 0; j < p; j++) {
        if (j === k) continue;
        const dr = re[k] - re[j];
        const di = im[k] - im[j];
        [qr, qi] = [qr * dr - qi * di, qr * di + qi * dr];
      }
      const denominator = qr * qr + qi * qi || 1e-300;
      const stepR = (pr * qr + pi * qi) / denominator;
      const stepI = (pi * qr - pr * qi) / denominator;
      re[k] -= stepR;
      im[k] -= stepI;
      moved = Math.max(moved, Math.hypot(stepR, stepI));
    }
    if (moved < 1e-12) break;
  }
  return Array.from(re, (r, k) => [r, im[k]] as [number, number]);
}
