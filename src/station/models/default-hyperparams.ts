import type { TrainableModel, TrainingHyperparams } from '../../engine/engine.js';

/** What a training job uses when the caller gives no hyperparameters (and what the demo seed trains with). */
export const DEFAULT_HYPERPARAMS: Record<TrainableModel, TrainingHyperparams> = {
  audio: { epochs: 30, learningRate: 0.05, batchSize: 8, warmupSteps: 5 },
  lyrics: { epochs: 6, learningRate: 0.005, batchSize: 64, warmupSteps: 50 },
  style_embedding: { epochs: 40, learningRate: 0.01, batchSize: 8, warmupSteps: 10 },
};
