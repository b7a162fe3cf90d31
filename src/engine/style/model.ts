/**
 * The serialisable shapes of the style embedding: hyperparameters, the trained model, the per-epoch
 * checkpoint. Everything is plain JSON (numbers, strings, arrays), so it can be stored as a blob and
 * read back by any process; JSON round-trips JavaScript doubles exactly, which exact resume relies on.
 */

import type { AudioFeatures } from '../types.js';
import type { NetworkShape, Standardiser } from './network.js';
import type { AdamState } from './optimizer.js';

export const STYLE_MODEL_FORMAT = 'station.style-embedding/1';
export const STYLE_CHECKPOINT_FORMAT = 'station.style-embedding-checkpoint/1';

/** The four hyperparameters of the training request (spec module C), in engine naming. */
export interface StyleHyperparams {
  epochs: number;
  learningRate: number;
  batchSize: number;
  warmupSteps: number;
}

/** One labelled catalog master. Genre supervises the embedding; a shared mood picks the closer positive. */
export interface StyleTrainingItem {
  id: string;
  genre: string;
  mood: string[];
  features: AudioFeatures;
}

export interface EpochMetrics {
  epoch: number; // 1-based, counted within this run
  trainLoss: number;
  heldOutLoss: number | null; // null when the data set is too small to hold any item out
  learningRate: number; // at the end of the epoch
}

export interface StyleModelMetrics {
  finalTrainLoss: number;
  finalHeldOutLoss: number | null;
  /** Mean share of the k nearest training items that share a held-out item's genre. */
  genrePrecisionAtK: number | null;
  k: number;
  /** The same precision with the raw standardised feature vectors, so the gain of training is visible. */
  baselinePrecisionAtK: number | null;
  trainItems: number;
  heldOutItems: number;
  lossCurve: EpochMetrics[];
}

export interface StyleEmbeddingModel extends NetworkShape {
  format: typeof STYLE_MODEL_FORMAT;
  standardiser: Standardiser;
  parameters: number[];
  hyperparams: StyleHyperparams;
  seed: number;
  margin: number;
  /** Epochs of this run completed; less than hyperparams.epochs when stopped early. */
  epochsCompleted: number;
  stoppedEarly: boolean;
  fineTunedFromBase: boolean;
  metrics: StyleModelMetrics;
}

export interface StyleCheckpoint extends NetworkShape {
  format: typeof STYLE_CHECKPOINT_FORMAT;
  standardiser: Standardiser;
  parameters: number[];
  optimizer: AdamState;
  hyperparams: StyleHyperparams;
  seed: number;
  margin: number;
  fineTunedFromBase: boolean;
  /** Hash of the item ids and labels: resuming on different data would not reproduce anything. */
  itemsFingerprint: string;
  epochsCompleted: number;
  lossCurve: EpochMetrics[];
}
