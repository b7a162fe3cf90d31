/**
 * A null test: how far a copy of a signal (a lossy encode decoded again) sits from the original, as the
 * energy of their difference against the original's, in dB (-inf for a bit-exact copy; an encode that
 * keeps more of the signal nulls deeper). The copy is first aligned to the original (an MP3 encoder and
 * decoder pair delays the signal by a thousand samples or so) by the lag of best correlation.
 */
export interface NullDepth {
  /** 10 log10(sum (copy - original)^2 / sum original^2), over the overlap. */
  db: number;
  /** Samples the copy lags the original by. */
  lag: number;
}

/** Lags searched either side (LAME plus mpg123 delay: 1105 samples without gapless trimming). */
const MAX_LAG = 4096;
/** Samples correlated per lag candidate: enough for a clear peak, few enough to search 8193 lags. */
const PROBE = 8192;

export function nullDepth(original: Float32Array, copy: Float32Array, maxLag = MAX_LAG): NullDepth {
  const start = Math.min(Math.max(maxLag, Math.floor(original.length / 2) - PROBE / 2), Math.max(0, original.length - PROBE - maxLag));
  let best = { lag: 0, score: Number.NEGATIVE_INFINITY };
  for (let lag = -maxLag; lag <= maxLag; lag++) {
    let dot = 0;
    for (let i = start; i < start + PROBE; i++) {
      const j = i + lag;
      if (j >= 0 && j < copy.length && i < original.length) dot += original[i] * copy[j];
    }
    if (dot > best.score) best = { lag, score: dot };
  }
  let error = 0;
  let energy = 0;
  // The edges (the encoder's padding and fades of a few frames) are left out.
  const edge = 4096;
  for (let i = edge; i < original.length - edge; i++) {
    const j = i + best.lag;
    if (j < 0 || j >= copy.length) continue;
    const d = copy[j] - original[i];
    error += d * d;
    energy += original[i] * original[i];
  }
  return { db: energy > 0 ? 10 * Math.log10(error / energy) : Number.NaN, lag: best.lag };
}
