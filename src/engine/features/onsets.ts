/**
 * Onset envelope helpers shared by tempo estimation and the onset rate: normalisation and peak picking.
 */

/** Onset strength sampled on a regular grid; value k describes the instant startSec + k * hopSec. */
export interface OnsetEnvelope {
  values: Float32Array;
  hopSec: number;
  startSec: number;
}

/**
 * Removes the slowly varying part (a moving average over ~1 s) and rectifies, then scales to unit standard
 * deviation. Without this, a crescendo or a sustained pad raises the whole envelope and the
 * autocorrelation sees a huge peak at lag 0 and nothing periodic.
 */
export function normaliseEnvelope(env: OnsetEnvelope): OnsetEnvelope {
  const v = env.values;
  const half = Math.max(1, Math.round(0.5 / env.hopSec));
  const prefix = new Float64Array(v.length + 1);
  for (let i = 0; i < v.length; i++) prefix[i + 1] = prefix[i] + v[i];
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) {
    const lo = Math.max(0, i - half);
    const hi = Math.min(v.length, i + half + 1);
    const localMean = (prefix[hi] - prefix[lo]) / (hi - lo);
    out[i] = Math.max(0, v[i] - localMean);
  }
  let sq = 0;
  for (const x of out) sq += x * x;
  const std = Math.sqrt(sq / Math.max(1, out.length));
  if (std > 0) for (let i = 0; i < out.length; i++) out[i] /= std;
  return { ...env, values: out };
}

/**
 * Onset times (seconds) by peak picking: a value is an onset when it is the maximum within +-50 ms, rises
 * clearly above the local mean (+-0.5 s) and is not negligible against the loudest onset in the piece.
 */
export function pickOnsets(env: OnsetEnvelope): number[] {
  const v = env.values;
  const peakRadius = Math.max(1, Math.round(0.05 / env.hopSec));
  const meanRadius = Math.max(1, Math.round(0.5 / env.hopSec));
  let max = 0;
  let sum = 0;
  for (const x of v) {
    max = Math.max(max, x);
    sum += x;
  }
  const globalMean = sum / Math.max(1, v.length);
  const floor = Math.max(0.1 * max, 1e-9);
  const onsets: number[] = [];
  let lastOnset = -Infinity;
  for (let i = 0; i < v.length; i++) {
    if (v[i] < floor) continue;
    let isPeak = true;
    for (let j = Math.max(0, i - peakRadius); j <= Math.min(v.length - 1, i + peakRadius) && isPeak; j++) {
      if (v[j] > v[i] || (v[j] === v[i] && j < i)) isPeak = false;
    }
    if (!isPeak) continue;
    let local = 0;
    const lo = Math.max(0, i - meanRadius);
    const hi = Math.min(v.length - 1, i + meanRadius);
    for (let j = lo; j <= hi; j++) local += v[j];
    local /= hi - lo + 1;
    if (v[i] < local + 0.5 * globalMean) continue;
    if (i - lastOnset <= peakRadius) continue;
    onsets.push(env.startSec + i * env.hopSec);
    lastOnset = i;
  }
  return onsets;
}
