/** Measurements on a rendered vocal stem, for the voice tests: a band-pass and line onsets. */
import { trackPitch } from '../../../src/engine/audio/pitch.js';

const HOP_SEC = 0.005;

/** Two second-order sections: a high-pass at `low` and a low-pass at `high`. */
export function bandPass(samples: Float32Array, fs: number, low: number, high: number): Float64Array {
  const biquad = (input: Float64Array, f: number, type: 'lp' | 'hp') => {
    const w = (2 * Math.PI * f) / fs;
    const alpha = Math.sin(w) / Math.SQRT2;
    const cos = Math.cos(w);
    const a0 = 1 + alpha;
    const [b0, b1] = type === 'lp' ? [(1 - cos) / 2, 1 - cos] : [(1 + cos) / 2, -(1 + cos)];
    const out = new Float64Array(input.length);
    let x1 = 0,
      x2 = 0,
      y1 = 0,
      y2 = 0;
    for (let i = 0; i < input.length; i++) {
      const x = input[i];
      const y = (b0 * x + b1 * x1 + b0 * x2 + 2 * cos * y1 - (1 - alpha) * y2) / a0;
      x2 = x1;
      x1 = x;
      y2 = y1;
      y1 = y;
      out[i] = y;
    }
    return out;
  };
  return biquad(biquad(Float64Array.from(samples), low, 'hp'), high, 'lp');
}

/**
 * When each line becomes audible: the first 5 ms frame, searched from 150 ms before the line's first note,
 * whose full-band energy rises above `thresholdDb` relative to the stem's loudest frame.
 */
export function lineOnsetsSec(samples: Float32Array, fs: number, noteStarts: number[], thresholdDb = -40): number[] {
  const hop = Math.round(HOP_SEC * fs);
  const size = 2 * hop;
  const energy = (start: number) => {
    let e = 0;
    for (let i = start; i < start + size && i < samples.length; i++) e += samples[i] * samples[i];
    return 10 * Math.log10(e / size + 1e-12);
  };
  let loudest = -Infinity;
  for (let s = 0; s + size < samples.length; s += hop) loudest = Math.max(loudest, energy(s));
  return noteStarts.map((t) => {
    for (let s = Math.max(0, Math.round((t - 0.15) * fs)); s + size < samples.length; s += hop) {
      if (energy(s) > loudest + thresholdDb) return s / fs;
    }
    return Infinity;
  });
}

export { trackPitch };
