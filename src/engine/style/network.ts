/**
 * The embedding network: standardise -> dense + tanh -> dense -> L2-normalise.
 *
 * Written by hand (plain Float64 loops, no tfjs): the network has ~2k parameters, so the JavaScript loops
 * are faster than tensor dispatch, and, more importantly, bit-for-bit deterministic, which exact resume
 * from a checkpoint relies on.
 *
 * Parameters live in one flat array, [W1 (hidden x input) | b1 | W2 (output x hidden) | b2], so the
 * optimiser and the checkpoint treat them as a single vector.
 */

import { type Rng } from '../random.js';

export interface NetworkShape {
  inputDim: number;
  hiddenDim: number;
  outputDim: number;
}

/** Per-input standardisation learnt from the training set (or inherited from the base model). */
export interface Standardiser {
  mean: number[];
  std: number[];
}

export function parameterCount(s: NetworkShape): number {
  return s.hiddenDim * s.inputDim + s.hiddenDim + s.outputDim * s.hiddenDim + s.outputDim;
}

function offsets(s: NetworkShape) {
  const w1 = 0;
  const b1 = w1 + s.hiddenDim * s.inputDim;
  const w2 = b1 + s.hiddenDim;
  const b2 = w2 + s.outputDim * s.hiddenDim;
  return { w1, b1, w2, b2 };
}

/** Glorot-uniform weights, zero biases. */
export function initialParameters(s: NetworkShape, rng: Rng): Float64Array {
  const p = new Float64Array(parameterCount(s));
  const o = offsets(s);
  const limit1 = Math.sqrt(6 / (s.inputDim + s.hiddenDim));
  const limit2 = Math.sqrt(6 / (s.hiddenDim + s.outputDim));
  for (let i = 0; i < s.hiddenDim * s.inputDim; i++) p[o.w1 + i] = (rng.next() * 2 - 1) * limit1;
  for (let i = 0; i < s.outputDim * s.hiddenDim; i++) p[o.w2 + i] = (rng.next() * 2 - 1) * limit2;
  return p;
}

export function fitStandardiser(vectors: number[][]): Standardiser {
  const dim = vectors[0].length;
  const mean = new Array<number>(dim).fill(0);
  const sq = new Array<number>(dim).fill(0);
  for (const v of vectors) for (let i = 0; i < dim; i++) mean[i] += v[i];
  for (let i = 0; i < dim; i++) mean[i] /= vectors.length;
  for (const v of vectors) for (let i = 0; i < dim; i++) sq[i] += (v[i] - mean[i]) ** 2;
  // A constant input (std 0) would divide by zero; 1 leaves it centred at 0 and harmless.
  const std = sq.map((s) => Math.sqrt(s / vectors.length)).map((s) => (s > 1e-6 ? s : 1));
  return { mean, std };
}

/** Intermediate values of one forward pass, kept for back-propagation. */
export interface ForwardPass {
  input: Float64Array; // standardised
  hidden: Float64Array; // after tanh
  norm: number; // |z| before normalisation
  embedding: Float64Array; // unit length
}

export function forward(s: NetworkShape, p: Float64Array, standardiser: Standardiser, vector: number[]): ForwardPass {
  const o = offsets(s);
  const input = new Float64Array(s.inputDim);
  for (let i = 0; i < s.inputDim; i++) input[i] = (vector[i] - standardiser.mean[i]) / standardiser.std[i];
  const hidden = new Float64Array(s.hiddenDim);
  for (let h = 0; h < s.hiddenDim; h++) {
    let sum = p[o.b1 + h];
    const row = o.w1 + h * s.inputDim;
    for (let i = 0; i < s.inputDim; i++) sum += p[row + i] * input[i];
    hidden[h] = Math.tanh(sum);
  }
  const z = new Float64Array(s.outputDim);
  let sq = 0;
  for (let k = 0; k < s.outputDim; k++) {
    let sum = p[o.b2 + k];
    const row = o.w2 + k * s.hiddenDim;
    for (let h = 0; h < s.hiddenDim; h++) sum += p[row + h] * hidden[h];
    z[k] = sum;
    sq += sum * sum;
  }
  const norm = Math.sqrt(sq);
  const embedding = new Float64Array(s.outputDim);
  // 1e-12 keeps an all-zero output finite; it can only occur with all-zero weights.
  for (let k = 0; k < s.outputDim; k++) embedding[k] = z[k] / (norm + 1e-12);
  return { input, hidden, norm, embedding };
}

/** Adds d(loss)/d(parameters) into `grad`, given d(loss)/d(embedding) for one forward pass. */
export function backward(s: NetworkShape, p: Float64Array, pass: ForwardPass, dEmbedding: Float64Array, grad: Float64Array): void {
  const o = offsets(s);
  const e = pass.embedding;
  // Through the normalisation: dz = (g - e (e . g)) / |z|
  let dot = 0;
  for (let k = 0; k < s.outputDim; k++) dot += e[k] * dEmbedding[k];
  const dz = new Float64Array(s.outputDim);
  for (let k = 0; k < s.outputDim; k++) dz[k] = (dEmbedding[k] - e[k] * dot) / (pass.norm + 1e-12);

  const dHidden = new Float64Array(s.hiddenDim);
  for (let k = 0; k < s.outputDim; k++) {
    const row = o.w2 + k * s.hiddenDim;
    grad[o.b2 + k] += dz[k];
    for (let h = 0; h < s.hiddenDim; h++) {
      grad[row + h] += dz[k] * pass.hidden[h];
      dHidden[h] += dz[k] * p[row + h];
    }
  }
  for (let h = 0; h < s.hiddenDim; h++) {
    const dPre = dHidden[h] * (1 - pass.hidden[h] * pass.hidden[h]);
    grad[o.b1 + h] += dPre;
    const row = o.w1 + h * s.inputDim;
    for (let i = 0; i < s.inputDim; i++) grad[row + i] += dPre * pass.input[i];
  }
}
