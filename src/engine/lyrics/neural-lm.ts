/**
 * A small neural word LM: a fixed window of the previous `contextSize` words, each embedded, concatenated
 * (a causal convolution with one kernel as wide as the window), one tanh hidden layer, then a projection back
 * into embedding space scored against the same embedding table (tied input/output embeddings keep the
 * parameter count in the tens of thousands for a ~1-2k word vocabulary).
 *
 *   logits = E · (W2 · tanh(W1 · [E x_{t-N} ... E x_{t-1}] + b1) + b2) + bOut
 *
 * This file holds the architecture, deterministic initialisation, plain-JS inference (generation does not
 * need tfjs) and base64 JSON serialisation. Training lives in neural-trainer.ts.
 */
import { Rng } from '../random.js';
import { ModelFormatError } from './errors.js';

export interface NeuralLmConfig {
  vocabSize: number;
  contextSize: number;
  embeddingDim: number;
  hiddenDim: number;
}

export const DEFAULT_NEURAL_SHAPE = { contextSize: 5, embeddingDim: 24, hiddenDim: 64 } as const;

/** Row-major weights. Order matters: it is the order of optimizer state arrays too. */
export interface NeuralParams {
  embedding: Float32Array; // [V, d]
  hiddenWeights: Float32Array; // [N*d, H]
  hiddenBias: Float32Array; // [H]
  projectionWeights: Float32Array; // [H, d]
  projectionBias: Float32Array; // [d]
  outputBias: Float32Array; // [V]
}

export const PARAM_NAMES = ['embedding', 'hiddenWeights', 'hiddenBias', 'projectionWeights', 'projectionBias', 'outputBias'] as const;
export type ParamName = (typeof PARAM_NAMES)[number];

/** A full set of weight arrays, one per parameter name, in PARAM_NAMES order (typed without a cast). */
export function mapParams(make: (name: ParamName) => Float32Array): NeuralParams {
  return {
    embedding: make('embedding'),
    hiddenWeights: make('hiddenWeights'),
    hiddenBias: make('hiddenBias'),
    projectionWeights: make('projectionWeights'),
    projectionBias: make('projectionBias'),
    outputBias: make('outputBias'),
  };
}

export function paramShapes(c: NeuralLmConfig): Record<ParamName, number[]> {
  return {
    embedding: [c.vocabSize, c.embeddingDim],
    hiddenWeights: [c.contextSize * c.embeddingDim, c.hiddenDim],
    hiddenBias: [c.hiddenDim],
    projectionWeights: [c.hiddenDim, c.embeddingDim],
    projectionBias: [c.embeddingDim],
    outputBias: [c.vocabSize],
  };
}

export function parameterCount(c: NeuralLmConfig): number {
  return Object.values(paramShapes(c)).reduce((sum, shape) => sum + shape.reduce((a, b) => a * b, 1), 0);
}

/** Scaled-normal (Glorot-style) initialisation from our seeded Rng, so training is reproducible bit for bit. */
export function initParams(c: NeuralLmConfig, seed: number): NeuralParams {
  const rng = Rng.derive(seed, 'neural-lm-init');
  const normal = (n: number, scale: number) => Float32Array.from({ length: n }, () => rng.gaussian() * scale);
  return {
    embedding: normal(c.vocabSize * c.embeddingDim, 0.1),
    hiddenWeights: normal(c.contextSize * c.embeddingDim * c.hiddenDim, Math.sqrt(2 / (c.contextSize * c.embeddingDim + c.hiddenDim))),
    hiddenBias: new Float32Array(c.hiddenDim),
    projectionWeights: normal(c.hiddenDim * c.embeddingDim, Math.sqrt(2 / (c.hiddenDim + c.embeddingDim))),
    projectionBias: new Float32Array(c.embeddingDim),
    outputBias: new Float32Array(c.vocabSize),
  };
}

export function cloneParams(p: NeuralParams): NeuralParams {
  return mapParams((n) => Float32Array.from(p[n]));
}

export interface NeuralLmJson {
  format: 'window-lm-v1';
  config: NeuralLmConfig;
  params: Record<ParamName, string>; // base64 little-endian float32
}

export function encodeFloats(values: Float32Array): string {
  return Buffer.from(values.buffer, values.byteOffset, values.byteLength).toString('base64');
}

export function decodeFloats(base64: string, expectedLength: number): Float32Array {
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.byteLength !== expectedLength * 4) {
    throw new ModelFormatError(`weight array has ${bytes.byteLength / 4} values, expected ${expectedLength}`);
  }
  const out = new Float32Array(expectedLength);
  new Uint8Array(out.buffer).set(bytes);
  return out;
}

export function paramsToJson(params: NeuralParams): Record<ParamName, string> {
  return Object.fromEntries(PARAM_NAMES.map((n) => [n, encodeFloats(params[n])])) as Record<ParamName, string>;
}

export function paramsFromJson(json: Record<ParamName, string>, config: NeuralLmConfig): NeuralParams {
  const shapes = paramShapes(config);
  return mapParams((n) =>
    decodeFloats(
      json[n],
      shapes[n].reduce((a, b) => a * b, 1),
    ),
  );
}

/** Inference-only model: log-probabilities of the next word, in plain JS. */
export class NeuralLm {
  constructor(
    readonly config: NeuralLmConfig,
    readonly params: NeuralParams,
  ) {}

  static fromJSON(json: NeuralLmJson): NeuralLm {
    if (json.format !== 'window-lm-v1') throw new ModelFormatError(`unknown neural LM format ${String(json.format)}`);
    return new NeuralLm(json.config, paramsFromJson(json.params, json.config));
  }

  toJSON(): NeuralLmJson {
    return { format: 'window-lm-v1', config: this.config, params: paramsToJson(this.params) };
  }

  /** Natural-log next-word distribution given the history (left-padded with `<s>` = id 0). */
  logProbs(history: readonly number[]): Float64Array {
    const { contextSize: n, embeddingDim: d, hiddenDim: h, vocabSize: v } = this.config;
    const p = this.params;
    const input = new Float64Array(n * d);
    for (let j = 0; j < n; j++) {
      const idx = history.length - n + j;
      const id = idx >= 0 ? history[idx] : 0;
      for (let k = 0; k < d; k++) input[j * d + k] = p.embedding[id * d + k];
    }
    const hidden = new Float64Array(h);
    for (let o = 0; o < h; o++) hidden[o] = p.hiddenBias[o];
    for (let i = 0; i < n * d; i++) {
      const x = input[i];
      if (x === 0) continue;
      const row = i * h;
      for (let o = 0; o < h; o++) hidden[o] += x * p.hiddenWeights[row + o];
    }
    for (let o = 0; o < h; o++) hidden[o] = Math.tanh(hidden[o]);
    const projected = new Float64Array(d);
    for (let k = 0; k < d; k++) projected[k] = p.projectionBias[k];
    for (let o = 0; o < h; o++) for (let k = 0; k < d; k++) projected[k] += hidden[o] * p.projectionWeights[o * d + k];
    const logits = new Float64Array(v);
    let max = -Infinity;
    for (let w = 0; w < v; w++) {
      let s = p.outputBias[w];
      for (let k = 0; k < d; k++) s += p.embedding[w * d + k] * projected[k];
      logits[w] = s;
      if (s > max) max = s;
    }
    let z = 0;
    for (let w = 0; w < v; w++) z += Math.exp(logits[w] - max);
    const logZ = max + Math.log(z);
    for (let w = 0; w < v; w++) logits[w] -= logZ;
    return logits;
  }

  /** Sum of natural-log probabilities of `tokens` following `history`. */
  sequenceLogProb(history: readonly number[], tokens: readonly number[]): number {
    const context = [...history];
    let total = 0;
    for (const t of tokens) {
      total += this.logProbs(context)[t];
      context.push(t);
    }
    return total;
  }
}
