/**
 * Mini-batch training of the window LM (neural-lm.ts) with tfjs: softmax cross-entropy, Adam written out by
 * hand (so its moments and step count are plain arrays we can checkpoint and restore exactly), linear
 * learning-rate warmup over `warmupSteps` then constant, global-norm gradient clipping at 5, and a typed
 * error as soon as a batch loss is not finite. Shuffling is seeded per epoch, so a run resumed from a
 * checkpoint sees the same batches the uninterrupted run would have seen.
 */
import { Rng } from '../random.js';
import { TrainingDivergedError } from './errors.js';
import { tf } from './tf-backend.js';
import { PARAM_NAMES, mapParams, type NeuralLmConfig, type NeuralParams, type ParamName, paramShapes } from './neural-lm.js';

export interface TrainingExamples {
  contexts: Int32Array; // [count * contextSize]
  targets: Int32Array; // [count]
  count: number;
}

export interface OptimizerState {
  step: number;
  firstMoments: NeuralParams;
  secondMoments: NeuralParams;
}

export interface NeuralHyperparams {
  learningRate: number;
  batchSize: number;
  warmupSteps: number;
  /** Fraction of the context embedding and of the hidden layer zeroed per training example (0 = off). */
  dropout?: number;
  /** Decoupled (AdamW) weight decay per step, as a fraction of the learning rate (0 = off). */
  weightDecay?: number;
}

const BETA1 = 0.9;
const BETA2 = 0.999;
const EPSILON = 1e-8;
const CLIP_NORM = 5;

/** One example per predicted token (every token after the `<s>` padding), with its left context window. */
export function buildExamples(sequences: readonly number[][], contextSize: number): TrainingExamples {
  const contexts: number[] = [];
  const targets: number[] = [];
  for (const seq of sequences) {
    for (let i = 0; i < seq.length; i++) {
      if (seq[i] === 0) continue; // <s> is never predicted
      for (let j = i - contextSize; j < i; j++) contexts.push(j >= 0 ? seq[j] : 0);
      targets.push(seq[i]);
    }
  }
  return { contexts: Int32Array.from(contexts), targets: Int32Array.from(targets), count: targets.length };
}

export function zeroOptimizerState(config: NeuralLmConfig): OptimizerState {
  const shapes = paramShapes(config);
  const zeros = () => mapParams((n) => new Float32Array(shapes[n].reduce((a, b) => a * b, 1)));
  return { step: 0, firstMoments: zeros(), secondMoments: zeros() };
}

export class NeuralTrainer {
  private readonly weights: Record<ParamName, tf.Variable>;
  private readonly firstMoments: Record<ParamName, tf.Variable>;
  private readonly secondMoments: Record<ParamName, tf.Variable>;
  private step: number;

  constructor(
    readonly config: NeuralLmConfig,
    params: NeuralParams,
    optimizer: OptimizerState,
    private readonly hyper: NeuralHyperparams,
    private readonly seed: number,
    readonly label: string,
  ) {
    const shapes = paramShapes(config);
    const toVars = (p: NeuralParams) =>
      Object.fromEntries(PARAM_NAMES.map((n) => [n, tf.variable(tf.tensor(p[n], shapes[n], 'float32'))])) as Record<ParamName, tf.Variable>;
    this.weights = toVars(params);
    this.firstMoments = toVars(optimizer.firstMoments);
    this.secondMoments = toVars(optimizer.secondMoments);
    this.step = optimizer.step;
  }

  /** One pass over the shuffled training examples; returns the mean batch loss, or 'stopped'. */
  async trainEpoch(epoch: number, data: TrainingExamples, shouldStop?: () => boolean): Promise<number | 'stopped'> {
    const order = shuffledIndices(data.count, Rng.derive(this.seed, `${this.label}-epoch-${epoch}`));
    const batchSize = Math.max(1, Math.floor(this.hyper.batchSize));
    let lossSum = 0;
    let batches = 0;
    for (let start = 0; start < data.count; start += batchSize) {
      if (shouldStop?.()) return 'stopped';
      const loss = this.trainBatch(order.subarray(start, Math.min(start + batchSize, data.count)), data);
      if (!Number.isFinite(loss)) throw new TrainingDivergedError(epoch, this.step, this.label);
      lossSum += loss;
      batches++;
      // Let timers and shouldStop flags from other tasks run between batches.
      if (batches % 50 === 0) await new Promise((r) => setImmediate(r));
    }
    return lossSum / Math.max(1, batches);
  }

  /** Mean cross-entropy (nats per token) over a data set, without training. */
  evaluate(data: TrainingExamples): number {
    if (data.count === 0) return Number.NaN;
    let sum = 0;
    const chunk = 512;
    for (let start = 0; start < data.count; start += chunk) {
      const idx = Int32Array.from({ length: Math.min(chunk, data.count - start) }, (_, i) => start + i);
      const batchLoss = tf.tidy(() => {
        const { contexts, targets } = this.batchTensors(idx, data);
        return this.meanLoss(contexts, targets).mul(idx.length);
      });
      sum += batchLoss.dataSync()[0];
      batchLoss.dispose();
    }
    return sum / data.count;
  }

  snapshot(): { params: NeuralParams; optimizer: OptimizerState } {
    const read = (vars: Record<ParamName, tf.Variable>) => mapParams((n) => Float32Array.from(vars[n].dataSync() as Float32Array));
    return { params: read(this.weights), optimizer: { step: this.step, firstMoments: read(this.firstMoments), secondMoments: read(this.secondMoments) } };
  }

  dispose(): void {
    for (const vars of [this.weights, this.firstMoments, this.secondMoments]) for (const n of PARAM_NAMES) vars[n].dispose();
  }

  private trainBatch(indices: Int32Array, data: TrainingExamples): number {
    const { contexts, targets } = this.batchTensors(indices, data);
    const varList = PARAM_NAMES.map((n) => this.weights[n]);
    const dropout = { rate: Math.min(0.9, Math.max(0, this.hyper.dropout ?? 0)), seed: this.seed * 1_000_003 + this.step };
    const { value, grads } = tf.variableGrads(() => this.meanLoss(contexts, targets, dropout), varList);
    const loss = value.dataSync()[0];
    if (Number.isFinite(loss)) this.applyAdam(grads);
    tf.dispose([value, contexts, targets, ...Object.values(grads)]);
    return loss;
  }

  private applyAdam(grads: tf.NamedTensorMap): void {
    this.step++;
    const warmup = Math.max(0, this.hyper.warmupSteps);
    const lr = this.hyper.learningRate * (warmup > 0 ? Math.min(1, this.step / warmup) : 1);
    const correction1 = 1 - BETA1 ** this.step;
    const correction2 = 1 - BETA2 ** this.step;
    tf.tidy(() => {
      const names = PARAM_NAMES.filter((n) => grads[this.weights[n].name]);
      const gradOf = (n: ParamName) => grads[this.weights[n].name];
      const norm = tf.sqrt(tf.addN(names.map((n) => tf.sum(tf.square(gradOf(n)))))).dataSync()[0];
      const scale = norm > CLIP_NORM ? CLIP_NORM / norm : 1;
      for (const n of names) {
        const g = gradOf(n).mul(scale);
        const m = this.firstMoments[n].mul(BETA1).add(g.mul(1 - BETA1));
        const v = this.secondMoments[n].mul(BETA2).add(g.square().mul(1 - BETA2));
        this.firstMoments[n].assign(m);
        this.secondMoments[n].assign(v);
        const update = m.div(correction1).div(v.div(correction2).sqrt().add(EPSILON)).mul(lr);
        const decay = this.hyper.weightDecay && !n.endsWith('Bias') ? this.weights[n].mul(lr * this.hyper.weightDecay) : null;
        this.weights[n].assign(decay ? this.weights[n].sub(update).sub(decay) : this.weights[n].sub(update));
      }
    });
  }

  private batchTensors(indices: Int32Array, data: TrainingExamples): { contexts: tf.Tensor2D; targets: tf.Tensor1D } {
    const n = this.config.contextSize;
    const ctx = new Int32Array(indices.length * n);
    const tgt = new Int32Array(indices.length);
    indices.forEach((ex, row) => {
      ctx.set(data.contexts.subarray(ex * n, ex * n + n), row * n);
      tgt[row] = data.targets[ex];
    });
    return { contexts: tf.tensor2d(ctx, [indices.length, n], 'int32'), targets: tf.tensor1d(tgt, 'int32') };
  }

  /**
   * The forward pass of neural-lm.ts in tensors. Embedding lookup is a one-hot matmul: the wasm backend has no
   * gather gradient. With dropout (training only) the masks are seeded by the optimizer step, so a resumed
   * run draws the same masks as the uninterrupted one.
   */
  private meanLoss(contexts: tf.Tensor2D, targets: tf.Tensor1D, dropout?: { rate: number; seed: number }): tf.Scalar {
    const { vocabSize: v, contextSize: n, embeddingDim: d } = this.config;
    const w = this.weights;
    const batch = contexts.shape[0];
    const oneHotContext = tf.oneHot(contexts.reshape([batch * n]), v).toFloat();
    const drop = <T extends tf.Tensor>(x: T, salt: number): T =>
      dropout && dropout.rate > 0 ? (tf.dropout(x, dropout.rate, undefined, dropout.seed + salt) as T) : x;
    const embedded = drop(tf.matMul(oneHotContext, w.embedding).reshape([batch, n * d]), 0);
    const hidden = drop(tf.tanh(tf.matMul(embedded, w.hiddenWeights).add(w.hiddenBias)), 1);
    const projected = tf.matMul(hidden, w.projectionWeights).add(w.projectionBias);
    const logits = tf.matMul(projected, w.embedding, false, true).add(w.outputBias);
    return tf.losses.softmaxCrossEntropy(tf.oneHot(targets, v).toFloat(), logits) as tf.Scalar;
  }
}

function shuffledIndices(count: number, rng: Rng): Int32Array {
  const order = Int32Array.from({ length: count }, (_, i) => i);
  for (let i = count - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}
