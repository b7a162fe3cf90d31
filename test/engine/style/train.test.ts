import { describe, expect, it } from 'vitest';
import { CheckpointMismatchError, InvalidTrainingInputError, TrainingDivergedError } from '../../../src/engine/style/errors.js';
import type { StyleCheckpoint, StyleHyperparams } from '../../../src/engine/style/model.js';
import { embed, nearest } from '../../../src/engine/style/nearest.js';
import { STYLE_EMBEDDING_DIM, trainStyleEmbedding } from '../../../src/engine/style/train.js';
import { labelledItems } from './fixtures.js';

const items = labelledItems(20, 11);
const hyperparams: StyleHyperparams = { epochs: 30, learningRate: 0.01, batchSize: 8, warmupSteps: 10 };

function cosine(a: number[], b: number[]): number {
  return a.reduce((s, x, i) => s + x * b[i], 0);
}

describe('style embedding training', () => {
  it('lowers the loss over real epochs and places same-genre items nearer than other genres', async () => {
    const epochs: number[] = [];
    const model = await trainStyleEmbedding(items, hyperparams, { onEpoch: (e) => void epochs.push(e.trainLoss) });

    expect(epochs).toHaveLength(30);
    expect(model.epochsCompleted).toBe(30);
    const curve = model.metrics.lossCurve;
    expect(curve[29].trainLoss).toBeLessThan(0.5 * curve[0].trainLoss);
    expect(curve[29].heldOutLoss).not.toBeNull();
    expect(curve[29].heldOutLoss!).toBeLessThan(curve[0].heldOutLoss!);
    expect(model.metrics.heldOutItems).toBeGreaterThan(0);
    expect(model.metrics.genrePrecisionAtK!).toBeGreaterThan(0.8);
    expect(model.metrics.genrePrecisionAtK!).toBeGreaterThanOrEqual(model.metrics.baselinePrecisionAtK!);

    // Mean similarity within a genre beats the mean similarity across genres, for every genre.
    const embeddings = items.map((item) => embed(model, item.features));
    expect(embeddings[0]).toHaveLength(STYLE_EMBEDDING_DIM);
    for (const genre of new Set(items.map((i) => i.genre))) {
      let same = 0,
        sameCount = 0,
        other = 0,
        otherCount = 0;
      items.forEach((a, i) => {
        if (a.genre !== genre) return;
        items.forEach((b, j) => {
          if (i === j) return;
          if (b.genre === genre) {
            same += cosine(embeddings[i], embeddings[j]);
            sameCount++;
          } else {
            other += cosine(embeddings[i], embeddings[j]);
            otherCount++;
          }
        });
      });
      expect(same / sameCount).toBeGreaterThan(other / otherCount + 0.3);
    }

    // The model is plain JSON and gives the same answers after a round trip.
    const restored = JSON.parse(JSON.stringify(model));
    expect(embed(restored, items[0].features)).toEqual(embeddings[0]);

    const influences = nearest(
      model,
      items[0].features,
      items.slice(1).map((i) => ({ id: i.id, features: i.features })),
      5,
    );
    expect(influences).toHaveLength(5);
    expect(influences.filter((n) => n.id.startsWith('techno-')).length).toBeGreaterThanOrEqual(4);
    expect(influences[0].similarity).toBeGreaterThanOrEqual(influences[4].similarity);
  });

  it('resumes from a JSON checkpoint to exactly the model of an uninterrupted run', async () => {
    const short: StyleHyperparams = { epochs: 8, learningRate: 0.01, batchSize: 16, warmupSteps: 5 };
    const uninterrupted = await trainStyleEmbedding(items, short);

    let saved: string | undefined;
    const paused = await trainStyleEmbedding(items, short, {
      onEpoch: (e) => void (saved = JSON.stringify(e.checkpoint)),
      shouldStop: () => saved !== undefined && (JSON.parse(saved) as StyleCheckpoint).epochsCompleted >= 3,
    });
    expect(paused.stoppedEarly).toBe(true);
    expect(paused.epochsCompleted).toBe(3);

    const resumed = await trainStyleEmbedding(items, short, { resumeFrom: JSON.parse(saved!) as StyleCheckpoint });
    expect(resumed.epochsCompleted).toBe(8);
    expect(resumed.parameters).toEqual(uninterrupted.parameters);
    expect(resumed.metrics.lossCurve).toEqual(uninterrupted.metrics.lossCurve);

    await expect(trainStyleEmbedding(items, { ...short, learningRate: 0.02 }, { resumeFrom: JSON.parse(saved!) })).rejects.toBeInstanceOf(
      CheckpointMismatchError,
    );
  });

  it('fine-tunes from a base model, keeping its standardiser and starting from its loss', async () => {
    const base = await trainStyleEmbedding(items, { epochs: 10, learningRate: 0.01, batchSize: 8, warmupSteps: 0 });
    const moreItems = labelledItems(20, 99);
    const tuned = await trainStyleEmbedding(moreItems, { epochs: 3, learningRate: 0.003, batchSize: 8, warmupSteps: 0 }, { base });
    const scratch = await trainStyleEmbedding(moreItems, { epochs: 3, learningRate: 0.003, batchSize: 8, warmupSteps: 0 });
    expect(tuned.fineTunedFromBase).toBe(true);
    expect(tuned.standardiser).toEqual(base.standardiser);
    expect(tuned.metrics.lossCurve[0].trainLoss).toBeLessThan(scratch.metrics.lossCurve[0].trainLoss);
  });

  it('stops with a typed error when the loss diverges to NaN', async () => {
    await expect(trainStyleEmbedding(items, { epochs: 3, learningRate: 1e308, batchSize: 4, warmupSteps: 0 })).rejects.toBeInstanceOf(TrainingDivergedError);
  });

  it('rejects invalid hyperparameters and single-genre data', async () => {
    await expect(trainStyleEmbedding(items, { ...hyperparams, batchSize: 0 })).rejects.toBeInstanceOf(InvalidTrainingInputError);
    await expect(trainStyleEmbedding(items.slice(0, 10), hyperparams)).rejects.toBeInstanceOf(InvalidTrainingInputError);
  });
});
