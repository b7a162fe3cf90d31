/**
 * Style-embedding training loop (spec module C, model_type style_embedding).
 *
 *   items -> featureVector -> standardise -> held-out split
 *     for each epoch: sample triplets (Rng(seed, epoch)) -> mini-batches -> triplet loss -> Adam step
 *                     -> NaN check -> held-out loss -> checkpoint -> onEpoch -> shouldStop?
 *   -> metrics (loss curve, held-out genre precision@k) -> StyleEmbeddingModel
 *
 * Loss: triplet margin loss on unit embeddings, max(0, |a - p|^2 - |a - n|^2 + margin): an item should
 * be nearer to one of its own genre than to one of another genre by at least the margin.
 */

import { featureVector } from '../features/vector.js';
import { Rng } from '../random.js';
import { CheckpointMismatchError, InvalidTrainingInputError, TrainingDivergedError } from './errors.js';
import { genrePrecisionAtK } from './evaluate.js';
import {
  STYLE_CHECKPOINT_FORMAT,
  STYLE_MODEL_FORMAT,
  type EpochMetrics,
  type StyleCheckpoint,
  type StyleEmbeddingModel,
  type StyleHyperparams,
  type StyleTrainingItem,
} from './model.js';
import { backward, fitStandardiser, forward, initialParameters, type NetworkShape, type Standardiser } from './network.js';
import { adamStep, learningRateAt, newAdamState, type AdamState } from './optimizer.js';
import { hash32, sampleTriplets, splitHeldOut, type Triplet } from './triplets.js';

export const STYLE_EMBEDDING_DIM = 16;
const DEFAULT_HIDDEN_DIM = 32;
const DEFAULT_MARGIN = 0.5;
const DEFAULT_HELD_OUT_FRACTION = 0.2;
const DEFAULT_PRECISION_K = 5;

export interface StyleTrainingOptions {
  /** Fine-tune: start from this model's weights and standardiser instead of a fresh initialisation. */
  base?: StyleEmbeddingModel;
  /** Continue an interrupted run; must come from the same items, hyperparameters and seed. */
  resumeFrom?: StyleCheckpoint;
  /** Called after every epoch with its metrics and a checkpoint to persist. May be async. */
  onEpoch?: (epoch: EpochMetrics & { checkpoint: StyleCheckpoint }) => void | Promise<void>;
  /** Polled after every epoch (the "pause at next checkpoint" of the spec). */
  shouldStop?: () => boolean;
  seed?: number;
  hiddenDim?: number;
  margin?: number;
  heldOutFraction?: number;
  precisionK?: number;
}

interface Run {
  shape: NetworkShape;
  standardiser: Standardiser;
  params: Float64Array;
  optimizer: AdamState;
  epochsCompleted: number;
  lossCurve: EpochMetrics[];
  fineTunedFromBase: boolean;
}

export async function trainStyleEmbedding(
  items: StyleTrainingItem[],
  hyperparams: StyleHyperparams,
  options: StyleTrainingOptions = {},
): Promise<StyleEmbeddingModel> {
  validate(items, hyperparams);
  const seed = options.resumeFrom?.seed ?? options.seed ?? 1;
  const margin = options.resumeFrom?.margin ?? options.margin ?? DEFAULT_MARGIN;
  const vectors = items.map((item) => featureVector(item.features));
  const fingerprint = itemsFingerprint(items);
  const { train, heldOut } = splitHeldOut(items, options.heldOutFraction ?? DEFAULT_HELD_OUT_FRACTION);
  const run = startRun(vectors, train, hyperparams, fingerprint, seed, margin, options);
  // Held-out triplets are drawn once, so every epoch's held-out loss measures the same thing.
  const heldOutTriplets = sampleTriplets(items, heldOut, [...train, ...heldOut], Rng.derive(seed, 'held-out'));

  let stoppedEarly = false;
  while (run.epochsCompleted < hyperparams.epochs) {
    if (options.shouldStop?.()) {
      stoppedEarly = true;
      break;
    }
    const epoch = run.epochsCompleted + 1;
    const triplets = sampleTriplets(items, train, train, Rng.derive(seed, `epoch-${epoch}`));
    const trainLoss = trainEpoch(run, vectors, triplets, hyperparams, margin, epoch);
    const heldOutLoss = heldOutTriplets.length > 0 ? meanLoss(run, vectors, heldOutTriplets, margin) : null;
    const metrics: EpochMetrics = {
      epoch,
      trainLoss,
      heldOutLoss,
      learningRate: learningRateAt(Math.max(0, run.optimizer.step - 1), hyperparams.learningRate, hyperparams.warmupSteps),
    };
    run.lossCurve.push(metrics);
    run.epochsCompleted = epoch;
    const checkpoint = toCheckpoint(run, hyperparams, seed, margin, fingerprint);
    await options.onEpoch?.({ ...metrics, checkpoint });
    // Yield to the event loop between epochs so a pause request or a progress poll can get through.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }

  const embed = (i: number) => Array.from(forward(run.shape, run.params, run.standardiser, vectors[i]).embedding);
  const standardised = (i: number) => vectors[i].map((x, d) => (x - run.standardiser.mean[d]) / run.standardiser.std[d]);
  const k = options.precisionK ?? DEFAULT_PRECISION_K;
  const last = run.lossCurve.at(-1);
  return {
    format: STYLE_MODEL_FORMAT,
    ...run.shape,
    standardiser: run.standardiser,
    parameters: Array.from(run.params),
    hyperparams: { ...hyperparams },
    seed,
    margin,
    epochsCompleted: run.epochsCompleted,
    stoppedEarly,
    fineTunedFromBase: run.fineTunedFromBase,
    metrics: {
      finalTrainLoss: last?.trainLoss ?? NaN,
      finalHeldOutLoss: last?.heldOutLoss ?? null,
      genrePrecisionAtK: genrePrecisionAtK(items, heldOut, train, embed, k),
      baselinePrecisionAtK: genrePrecisionAtK(items, heldOut, train, standardised, k),
      k,
      trainItems: train.length,
      heldOutItems: heldOut.length,
      lossCurve: run.lossCurve,
    },
  };
}

function startRun(
  vectors: number[][],
  train: number[],
  hyperparams: StyleHyperparams,
  fingerprint: string,
  seed: number,
  margin: number,
  options: StyleTrainingOptions,
): Run {
  const resume = options.resumeFrom;
  if (resume) {
    if (resume.format !== STYLE_CHECKPOINT_FORMAT) throw new CheckpointMismatchError(`unknown format ${String(resume.format)}`);
    if (resume.itemsFingerprint !== fingerprint) throw new CheckpointMismatchError('the training items differ');
    if (JSON.stringify(resume.hyperparams) !== JSON.stringify(hyperparams)) {
      throw new CheckpointMismatchError('the hyperparameters differ');
    }
    return {
      shape: { inputDim: resume.inputDim, hiddenDim: resume.hiddenDim, outputDim: resume.outputDim },
      standardiser: resume.standardiser,
      params: Float64Array.from(resume.parameters),
      optimizer: { step: resume.optimizer.step, m: [...resume.optimizer.m], v: [...resume.optimizer.v] },
      epochsCompleted: resume.epochsCompleted,
      lossCurve: [...resume.lossCurve],
      fineTunedFromBase: resume.fineTunedFromBase,
    };
  }
  const base = options.base;
  if (base) {
    if (base.format !== STYLE_MODEL_FORMAT) throw new InvalidTrainingInputError(`base model has unknown format ${String(base.format)}`);
    if (base.inputDim !== vectors[0].length) throw new InvalidTrainingInputError('base model expects another feature vector length');
    // The base's standardiser is kept: re-fitting it would shift every input under the learnt weights.
    return {
      shape: { inputDim: base.inputDim, hiddenDim: base.hiddenDim, outputDim: base.outputDim },
      standardiser: base.standardiser,
      params: Float64Array.from(base.parameters),
      optimizer: newAdamState(base.parameters.length),
      epochsCompleted: 0,
      lossCurve: [],
      fineTunedFromBase: true,
    };
  }
  const shape = { inputDim: vectors[0].length, hiddenDim: options.hiddenDim ?? DEFAULT_HIDDEN_DIM, outputDim: STYLE_EMBEDDING_DIM };
  const params = initialParameters(shape, Rng.derive(seed, 'init'));
  return {
    shape,
    standardiser: fitStandardiser(train.map((i) => vectors[i])),
    params,
    optimizer: newAdamState(params.length),
    epochsCompleted: 0,
    lossCurve: [],
    fineTunedFromBase: false,
  };
}

/** One pass over the triplets in mini-batches; returns the mean loss over the epoch's triplets. */
function trainEpoch(run: Run, vectors: number[][], triplets: Triplet[], hp: StyleHyperparams, margin: number, epoch: number): number {
  let lossSum = 0;
  for (let start = 0; start < triplets.length; start += hp.batchSize) {
    const batch = triplets.slice(start, start + hp.batchSize);
    const grad = new Float64Array(run.params.length);
    let batchLoss = 0;
    for (const triplet of batch) batchLoss += tripletLossAndGradient(run, vectors, triplet, margin, grad, 1 / batch.length);
    if (!Number.isFinite(batchLoss) || !grad.every(Number.isFinite)) {
      throw new TrainingDivergedError(epoch, run.optimizer.step, 'loss or gradient is not finite');
    }
    adamStep(run.params, grad, run.optimizer, hp.learningRate, hp.warmupSteps);
    if (!run.params.every(Number.isFinite)) {
      throw new TrainingDivergedError(epoch, run.optimizer.step, 'parameters are not finite after the update');
    }
    lossSum += batchLoss;
  }
  return triplets.length > 0 ? lossSum / triplets.length : 0;
}

/** Loss of one triplet; when `grad` is given, adds `scale` times its gradient into it. */
function tripletLossAndGradient(run: Run, vectors: number[][], [a, p, n]: Triplet, margin: number, grad?: Float64Array, scale = 1): number {
  const passA = forward(run.shape, run.params, run.standardiser, vectors[a]);
  const passP = forward(run.shape, run.params, run.standardiser, vectors[p]);
  const passN = forward(run.shape, run.params, run.standardiser, vectors[n]);
  const ea = passA.embedding;
  const ep = passP.embedding;
  const en = passN.embedding;
  let dPos = 0;
  let dNeg = 0;
  for (let k = 0; k < ea.length; k++) {
    dPos += (ea[k] - ep[k]) ** 2;
    dNeg += (ea[k] - en[k]) ** 2;
  }
  const loss = dPos - dNeg + margin;
  if (!(loss > 0)) return Number.isNaN(loss) ? NaN : 0;
  if (grad) {
    const gA = new Float64Array(ea.length);
    const gP = new Float64Array(ea.length);
    const gN = new Float64Array(ea.length);
    for (let k = 0; k < ea.length; k++) {
      gA[k] = 2 * scale * (en[k] - ep[k]);
      gP[k] = 2 * scale * (ep[k] - ea[k]);
      gN[k] = 2 * scale * (ea[k] - en[k]);
    }
    backward(run.shape, run.params, passA, gA, grad);
    backward(run.shape, run.params, passP, gP, grad);
    backward(run.shape, run.params, passN, gN, grad);
  }
  return loss;
}

function meanLoss(run: Run, vectors: number[][], triplets: Triplet[], margin: number): number {
  let sum = 0;
  for (const t of triplets) sum += tripletLossAndGradient(run, vectors, t, margin);
  return sum / triplets.length;
}

function toCheckpoint(run: Run, hyperparams: StyleHyperparams, seed: number, margin: number, fingerprint: string): StyleCheckpoint {
  return {
    format: STYLE_CHECKPOINT_FORMAT,
    ...run.shape,
    standardiser: run.standardiser,
    parameters: Array.from(run.params),
    optimizer: { step: run.optimizer.step, m: [...run.optimizer.m], v: [...run.optimizer.v] },
    hyperparams: { ...hyperparams },
    seed,
    margin,
    fineTunedFromBase: run.fineTunedFromBase,
    itemsFingerprint: fingerprint,
    epochsCompleted: run.epochsCompleted,
    lossCurve: run.lossCurve.map((m) => ({ ...m })),
  };
}

function itemsFingerprint(items: StyleTrainingItem[]): string {
  const text = items.map((i) => `${i.id}|${i.genre}|${[...i.mood].sort().join(',')}`).join('\n');
  return `fnv1a:${hash32(text).toString(16)}:${items.length}`;
}

function validate(items: StyleTrainingItem[], hp: StyleHyperparams): void {
  if (!Number.isInteger(hp.epochs) || hp.epochs < 1) throw new InvalidTrainingInputError('epochs must be a positive integer');
  if (!Number.isInteger(hp.batchSize) || hp.batchSize < 1) throw new InvalidTrainingInputError('batchSize must be a positive integer');
  if (!Number.isInteger(hp.warmupSteps) || hp.warmupSteps < 0) throw new InvalidTrainingInputError('warmupSteps must be a non-negative integer');
  if (!(hp.learningRate > 0) || !Number.isFinite(hp.learningRate)) throw new InvalidTrainingInputError('learningRate must be a positive number');
  if (new Set(items.map((i) => i.genre)).size < 2) throw new InvalidTrainingInputError('need items of at least two genres');
  if (new Set(items.map((i) => i.id)).size !== items.length) throw new InvalidTrainingInputError('item ids must be unique');
}
