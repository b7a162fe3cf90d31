/**
 * Training loop of the audio model. The counted statistics are exact sums (their maximum-likelihood fit is
 * closed form); the chord-transition logits are fitted by mini-batch gradient descent (Adam, linear warmup)
 * on the negative log-likelihood of every track's chord changes, with L2 pull of the genre and mood offsets
 * towards zero so that sparse genres fall back on the global logits.
 *
 * Every epoch ends with a plain-JSON checkpoint. Shuffling uses Rng.derive(seed, "epoch-N"), so resuming
 * from a checkpoint replays exactly what an uninterrupted run would have done.
 */
import { Rng } from '../random.js';
import { CHORD_COUNT, START_STATE, chordChanges } from '../compose/chord-vocabulary.js';
import {
  type AudioModel,
  type TrainingItem,
  TRANSITION_SIZE,
  addToCounts,
  emptyAudioModel,
  emptyCounts,
  mergeCounts,
  normaliseLabel,
} from '../compose/audio-model.js';
import { InvalidHyperparamsError, ModelFormatError, TrainingDivergedError } from '../model-errors.js';
import { MAX_NOVELTY_REFERENCES, noveltyReference } from '../compose/novelty.js';

export interface AudioHyperparams {
  epochs: number;
  learningRate: number;
  batchSize: number;
  warmupSteps: number;
}

export interface EpochLoss {
  epoch: number;
  trainLoss: number;
  heldOutLoss: number | null;
}

/** Everything needed to continue training where it stopped. Plain JSON. */
export interface TrainingCheckpoint {
  format: 'station-audio-checkpoint';
  epoch: number; // epochs completed
  step: number; // optimiser steps taken
  seed: number;
  dataFingerprint: string;
  hyperparams: AudioHyperparams;
  params: Record<string, number[]>; // "global", "genre:<g>", "mood:<m>"
  adamFirst: Record<string, number[]>;
  adamSecond: Record<string, number[]>;
  lossCurve: EpochLoss[];
}

export interface TrainOptions {
  base?: AudioModel;
  resumeFrom?: TrainingCheckpoint;
  seed?: number;
  /** Strength of the pull of genre/mood offsets towards the global logits. */
  offsetL2?: number;
  onEpoch?(epoch: number, loss: number, detail: EpochLoss): void;
  onCheckpoint?(checkpoint: TrainingCheckpoint): void | Promise<void>;
  /** Checked after each epoch's checkpoint; true stops training there (pause or cancel). */
  shouldStop?(): boolean;
}

export interface TrainResult {
  model: AudioModel;
  checkpoint: TrainingCheckpoint;
  lossCurve: EpochLoss[];
  completed: boolean;
}

/** One track's chord changes, as sparse transition counts per row of the matrix. */
interface Sequence {
  blocks: string[]; // parameter blocks this track's logits add up from
  moodWeight: number; // each mood offset contributes 1/moods
  rows: Map<number, Map<number, number>>;
  transitions: number;
}

const ADAM_BETA1 = 0.9;
const ADAM_BETA2 = 0.999;
const ADAM_EPSILON = 1e-8;
const HELD_OUT_SHARE = 0.15;

export async function trainAudioModel(items: readonly TrainingItem[], hyperparams: AudioHyperparams, opts: TrainOptions = {}): Promise<TrainResult> {
  validateHyperparams(hyperparams);
  const seed = opts.seed ?? 0;
  const offsetL2 = opts.offsetL2 ?? 1e-3;
  const sequences = items.map(toSequence).filter((s) => s.transitions > 0);
  const fingerprint = dataFingerprint(items);
  const { train, heldOut } = splitHeldOut(sequences, seed);

  const state = opts.resumeFrom ? restore(opts.resumeFrom, fingerprint) : initialState(sequences, opts.base, seed, fingerprint, hyperparams);
  const totalTransitions = train.reduce((n, s) => n + s.transitions, 0);

  while (state.epoch < hyperparams.epochs) {
    const order = shuffled(train.length, Rng.derive(seed, `epoch-${state.epoch}`));
    for (let start = 0; start < order.length; start += hyperparams.batchSize) {
      const batch = order.slice(start, start + hyperparams.batchSize).map((i) => train[i]);
      const { gradients, loss } = batchGradients(state.params, batch, offsetL2, totalTransitions);
      state.step++;
      if (!Number.isFinite(loss)) throw new TrainingDivergedError(state.epoch + 1, state.step, loss);
      const lr = hyperparams.learningRate * Math.min(1, state.step / Math.max(1, hyperparams.warmupSteps));
      adamStep(state, gradients, lr);
    }
    state.epoch++;
    const trainLoss = meanNll(state.params, train);
    const heldOutLoss = heldOut.length > 0 ? meanNll(state.params, heldOut) : null;
    if (!Number.isFinite(trainLoss)) throw new TrainingDivergedError(state.epoch, state.step, trainLoss);
    const detail: EpochLoss = { epoch: state.epoch, trainLoss, heldOutLoss };
    state.lossCurve.push(detail);
    opts.onEpoch?.(state.epoch, trainLoss, detail);
    const checkpoint = toCheckpoint(state);
    await opts.onCheckpoint?.(checkpoint);
    // Yield so a caller running training in-process keeps its event loop responsive between epochs.
    await new Promise((resolve) => setImmediate(resolve));
    if (state.epoch < hyperparams.epochs && opts.shouldStop?.()) {
      return { model: buildModel(items, state, opts.base), checkpoint, lossCurve: state.lossCurve, completed: false };
    }
  }
  return { model: buildModel(items, state, opts.base), checkpoint: toCheckpoint(state), lossCurve: state.lossCurve, completed: true };
}

function validateHyperparams(h: AudioHyperparams): void {
  if (!Number.isInteger(h.epochs) || h.epochs < 1) throw new InvalidHyperparamsError('epochs must be a positive integer');
  if (!Number.isInteger(h.batchSize) || h.batchSize < 1) throw new InvalidHyperparamsError('batch_size must be a positive integer');
  if (!Number.isInteger(h.warmupSteps) || h.warmupSteps < 0) throw new InvalidHyperparamsError('warmup_steps must be a non-negative integer');
  if (!(h.learningRate > 0)) throw new InvalidHyperparamsError('learning_rate must be positive');
}

function toSequence(item: TrainingItem): Sequence {
  const { indices } = chordChanges(item.features.beatChords, item.features.key);
  const rows = new Map<number, Map<number, number>>();
  const count = (row: number, next: number) => {
    const r = rows.get(row) ?? new Map<number, number>();
    r.set(next, (r.get(next) ?? 0) + 1);
    rows.set(row, r);
  };
  indices.forEach((chord, i) => count(i === 0 ? START_STATE : indices[i - 1], chord));
  const moods = [...new Set(item.mood.map(normaliseLabel))];
  return {
    blocks: ['global', `genre:${normaliseLabel(item.genre)}`, ...moods.map((m) => `mood:${m}`)],
    moodWeight: moods.length > 0 ? 1 / moods.length : 0,
    rows,
    transitions: indices.length,
  };
}

/** Deterministic held-out split; tiny datasets keep everything for training. */
function splitHeldOut(sequences: Sequence[], seed: number): { train: Sequence[]; heldOut: Sequence[] } {
  if (sequences.length < 8) return { train: sequences, heldOut: [] };
  const rng = Rng.derive(seed, 'held-out-split');
  const train: Sequence[] = [];
  const heldOut: Sequence[] = [];
  for (const s of sequences) (rng.next() < HELD_OUT_SHARE ? heldOut : train).push(s);
  return train.length > 0 ? { train, heldOut } : { train: sequences, heldOut: [] };
}

interface State {
  epoch: number;
  step: number;
  seed: number;
  fingerprint: string;
  hyperparams: AudioHyperparams;
  params: Map<string, Float64Array>;
  first: Map<string, Float64Array>;
  second: Map<string, Float64Array>;
  lossCurve: EpochLoss[];
}

function initialState(sequences: Sequence[], base: AudioModel | undefined, seed: number, fingerprint: string, hyperparams: AudioHyperparams): State {
  const params = new Map<string, Float64Array>();
  params.set('global', Float64Array.from(base?.transitions.global ?? new Array(TRANSITION_SIZE).fill(0)));
  for (const [g, offset] of Object.entries(base?.transitions.genreOffsets ?? {})) params.set(`genre:${g}`, Float64Array.from(offset));
  for (const [m, offset] of Object.entries(base?.transitions.moodOffsets ?? {})) params.set(`mood:${m}`, Float64Array.from(offset));
  for (const s of sequences) for (const block of s.blocks) if (!params.has(block)) params.set(block, new Float64Array(TRANSITION_SIZE));
  const zeros = () => new Map([...params.keys()].map((k) => [k, new Float64Array(TRANSITION_SIZE)]));
  return { epoch: 0, step: 0, seed, fingerprint, hyperparams, params, first: zeros(), second: zeros(), lossCurve: [] };
}

function restore(checkpoint: TrainingCheckpoint, fingerprint: string): State {
  if (checkpoint.format !== 'station-audio-checkpoint') throw new ModelFormatError('not an audio model checkpoint');
  if (checkpoint.dataFingerprint !== fingerprint) throw new ModelFormatError('checkpoint was made on a different dataset');
  const toMap = (record: Record<string, number[]>) => new Map(Object.entries(record).map(([k, v]) => [k, Float64Array.from(v)]));
  return {
    epoch: checkpoint.epoch,
    step: checkpoint.step,
    seed: checkpoint.seed,
    fingerprint,
    hyperparams: checkpoint.hyperparams,
    params: toMap(checkpoint.params),
    first: toMap(checkpoint.adamFirst),
    second: toMap(checkpoint.adamSecond),
    lossCurve: checkpoint.lossCurve.map((l) => ({ ...l })),
  };
}

function toCheckpoint(state: State): TrainingCheckpoint {
  const toRecord = (map: Map<string, Float64Array>) => Object.fromEntries([...map].map(([k, v]) => [k, Array.from(v)]));
  return {
    format: 'station-audio-checkpoint',
    epoch: state.epoch,
    step: state.step,
    seed: state.seed,
    dataFingerprint: state.fingerprint,
    hyperparams: { ...state.hyperparams },
    params: toRecord(state.params),
    adamFirst: toRecord(state.first),
    adamSecond: toRecord(state.second),
    lossCurve: state.lossCurve.map((l) => ({ ...l })),
  };
}

/** Logits of one track: the sum of its blocks, mood offsets averaged. */
function sequenceLogits(params: Map<string, Float64Array>, s: Sequence): Float64Array {
  const logits = Float64Array.from(params.get('global')!);
  for (const block of s.blocks.slice(1)) {
    const weight = block.startsWith('mood:') ? s.moodWeight : 1;
    const offset = params.get(block)!;
    for (let i = 0; i < TRANSITION_SIZE; i++) logits[i] += weight * offset[i];
  }
  return logits;
}

/** Negative log-likelihood of one row's counts under softmax(logits row); writes d(nll)/d(logits) if asked. */
function rowNll(logits: Float64Array, row: number, counts: Map<number, number>, gradient?: Float64Array, scale = 1): number {
  const offset = row * CHORD_COUNT;
  let max = -Infinity;
  for (let c = 0; c < CHORD_COUNT; c++) max = Math.max(max, logits[offset + c]);
  let total = 0;
  for (let c = 0; c < CHORD_COUNT; c++) total += Math.exp(logits[offset + c] - max);
  const logTotal = Math.log(total) + max;
  let nll = 0;
  let n = 0;
  for (const [c, k] of counts) {
    nll += k * (logTotal - logits[offset + c]);
    n += k;
  }
  if (gradient) {
    for (let c = 0; c < CHORD_COUNT; c++) gradient[offset + c] += scale * n * Math.exp(logits[offset + c] - logTotal);
    for (const [c, k] of counts) gradient[offset + c] -= scale * k;
  }
  return nll;
}

function batchGradients(params: Map<string, Float64Array>, batch: Sequence[], offsetL2: number, totalTransitions: number) {
  const gradients = new Map<string, Float64Array>();
  const gradientOf = (block: string) => gradients.get(block) ?? gradients.set(block, new Float64Array(TRANSITION_SIZE)).get(block)!;
  const transitions = batch.reduce((n, s) => n + s.transitions, 0);
  let loss = 0;
  for (const s of batch) {
    const logits = sequenceLogits(params, s);
    const dLogits = new Float64Array(TRANSITION_SIZE);
    for (const [row, counts] of s.rows) loss += rowNll(logits, row, counts, dLogits, 1 / transitions);
    for (const block of s.blocks) {
      const weight = block.startsWith('mood:') ? s.moodWeight : 1;
      const g = gradientOf(block);
      for (let i = 0; i < TRANSITION_SIZE; i++) g[i] += weight * dLogits[i];
    }
  }
  loss /= transitions;
  // The L2 pull is spread over the epoch's batches in proportion to the batch's share of the data.
  const share = transitions / totalTransitions;
  for (const [block, g] of gradients) {
    if (block === 'global') continue;
    const p = params.get(block)!;
    for (let i = 0; i < TRANSITION_SIZE; i++) {
      g[i] += offsetL2 * share * p[i];
      loss += 0.5 * offsetL2 * share * p[i] * p[i];
    }
  }
  return { gradients, loss };
}

function adamStep(state: State, gradients: Map<string, Float64Array>, lr: number): void {
  const correction1 = 1 - ADAM_BETA1 ** state.step;
  const correction2 = 1 - ADAM_BETA2 ** state.step;
  for (const [block, g] of gradients) {
    const p = state.params.get(block)!;
    const m = state.first.get(block)!;
    const v = state.second.get(block)!;
    for (let i = 0; i < TRANSITION_SIZE; i++) {
      m[i] = ADAM_BETA1 * m[i] + (1 - ADAM_BETA1) * g[i];
      v[i] = ADAM_BETA2 * v[i] + (1 - ADAM_BETA2) * g[i] * g[i];
      p[i] -= (lr * (m[i] / correction1)) / (Math.sqrt(v[i] / correction2) + ADAM_EPSILON);
    }
  }
}

/** Mean negative log-likelihood per transition (nats), the loss reported per epoch. */
function meanNll(params: Map<string, Float64Array>, sequences: readonly Sequence[]): number {
  let nll = 0;
  let n = 0;
  for (const s of sequences) {
    const logits = sequenceLogits(params, s);
    for (const [row, counts] of s.rows) nll += rowNll(logits, row, counts);
    n += s.transitions;
  }
  return n > 0 ? nll / n : 0;
}

function buildModel(items: readonly TrainingItem[], state: State, base?: AudioModel): AudioModel {
  const model = emptyAudioModel();
  if (base) {
    mergeCounts(model.global, base.global);
    for (const [g, c] of Object.entries(base.genres)) mergeCounts((model.genres[g] = emptyCounts()), c);
    for (const [k, c] of Object.entries(base.genreMoods)) mergeCounts((model.genreMoods[k] = emptyCounts()), c);
    model.transitionsObserved = base.transitionsObserved;
  }
  for (const item of items) {
    const { indices, beatsPerChord } = chordChanges(item.features.beatChords, item.features.key);
    const beats = beatsPerChord.reduce((a, b) => a + b, 0);
    const genre = normaliseLabel(item.genre);
    const subsets = [model.global, (model.genres[genre] ??= emptyCounts())];
    for (const mood of new Set(item.mood.map(normaliseLabel))) subsets.push((model.genreMoods[`${genre}|${mood}`] ??= emptyCounts()));
    for (const counts of subsets) addToCounts(counts, item.features, indices.length, beats);
    model.transitionsObserved += indices.length;
  }
  for (const [block, values] of state.params) {
    const array = Array.from(values);
    if (block === 'global') model.transitions.global = array;
    else if (block.startsWith('genre:')) model.transitions.genreOffsets[block.slice(6)] = array;
    else model.transitions.moodOffsets[block.slice(5)] = array;
  }
  model.references = [...(base?.references ?? []), ...items.map((item) => noveltyReference(normaliseLabel(item.genre), item.features, item.symbols))].slice(
    -MAX_NOVELTY_REFERENCES,
  );
  const last = state.lossCurve[state.lossCurve.length - 1];
  model.training = {
    epochs: (base?.training.epochs ?? 0) + state.epoch,
    finalLoss: last?.trainLoss ?? null,
    heldOutLoss: last?.heldOutLoss ?? null,
    trackCount: (base?.training.trackCount ?? 0) + items.length,
  };
  return model;
}

function shuffled(n: number, rng: Rng): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

/** FNV-1a over the parts of the data that training reads: resuming on other data would silently mix runs. */
function dataFingerprint(items: readonly TrainingItem[]): string {
  let h = 0x811c9dc5;
  const feed = (text: string) => {
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  };
  for (const item of items) feed(`${item.genre}|${item.mood.join(',')}|${item.features.key}|${item.features.beatChords.join(' ')};`);
  return `fnv1a:${h.toString(16).padStart(8, '0')}:${items.length}`;
}
