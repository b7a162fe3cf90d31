import { describe, expect, it } from 'vitest';
import { emptyAudioModel, serialiseAudioModel, deserialiseAudioModel, styleFor } from '../../../src/engine/compose/audio-model.js';
import { trainAudioModel, type TrainingCheckpoint } from '../../../src/engine/music/audio-model-training.js';
import { chordIndex, START_STATE } from '../../../src/engine/compose/chord-vocabulary.js';
import { InvalidHyperparamsError, ModelFormatError, TrainingDivergedError } from '../../../src/engine/model-errors.js';
import { syntheticCatalog } from './helpers.js';

const catalog = syntheticCatalog({ tracksPerGenre: 12, seed: 3 });
const hyperparams = { epochs: 8, learningRate: 0.05, batchSize: 4, warmupSteps: 5 };

describe('audio model training', () => {
  it("decreases the loss over epochs and learns each genre's transitions", async () => {
    const losses: number[] = [];
    const { model, lossCurve, completed } = await trainAudioModel(catalog, hyperparams, { onEpoch: (_, loss) => losses.push(loss) });
    expect(completed).toBe(true);
    expect(losses).toHaveLength(8);
    for (let i = 1; i < losses.length; i++) expect(losses[i]).toBeLessThan(losses[i - 1]);
    expect(losses[7]).toBeLessThan(losses[0] * 0.7);
    expect(lossCurve.every((l) => l.heldOutLoss !== null && Number.isFinite(l.heldOutLoss))).toBe(true);
    expect(lossCurve[7].heldOutLoss!).toBeLessThan(lossCurve[0].heldOutLoss!);

    // pop's loop is I -> V -> vi -> IV: after V (7, major) the most likely chord must be vi (9, minor).
    const pop = styleFor(model, 'pop', ['happy']).transitionProbabilities!;
    const afterV = pop[chordIndex({ degree: 7, minor: false })];
    expect(afterV.indexOf(Math.max(...afterV))).toBe(chordIndex({ degree: 9, minor: true }));
    // jazz's loop ii -> V -> I: after ii comes V.
    const jazz = styleFor(model, 'jazz', []).transitionProbabilities!;
    const afterII = jazz[chordIndex({ degree: 2, minor: true })];
    expect(afterII.indexOf(Math.max(...afterII))).toBe(chordIndex({ degree: 7, minor: false }));
    // counted statistics: tempo histogram peaks near the genre tempo
    const lofi = styleFor(model, 'lo-fi hip hop', ['calm']);
    expect(lofi.source).toBe('genre+mood');
    expect(lofi.counts.modeCounts.minor).toBe(12);
  });

  it('resumes from a JSON checkpoint to exactly the uninterrupted result', async () => {
    const full = await trainAudioModel(catalog, hyperparams, { seed: 9 });
    let stopAfter3: TrainingCheckpoint | null = null;
    let epochs = 0;
    const partial = await trainAudioModel(catalog, hyperparams, {
      seed: 9,
      onCheckpoint: (c) => void (stopAfter3 = c),
      shouldStop: () => ++epochs >= 3,
    });
    expect(partial.completed).toBe(false);
    expect(partial.checkpoint.epoch).toBe(3);
    const checkpoint = JSON.parse(JSON.stringify(stopAfter3)) as TrainingCheckpoint;
    const resumed = await trainAudioModel(catalog, hyperparams, { seed: 9, resumeFrom: checkpoint });
    expect(resumed.completed).toBe(true);
    expect(resumed.lossCurve).toEqual(full.lossCurve);
    expect(serialiseAudioModel(resumed.model)).toBe(serialiseAudioModel(full.model));
  });

  it('refuses a checkpoint made on other data', async () => {
    const { checkpoint } = await trainAudioModel(catalog, { ...hyperparams, epochs: 1 });
    const other = syntheticCatalog({ tracksPerGenre: 4, seed: 99 });
    await expect(trainAudioModel(other, hyperparams, { resumeFrom: checkpoint })).rejects.toBeInstanceOf(ModelFormatError);
  });

  it('detects divergence as a typed error', async () => {
    const error = await trainAudioModel(catalog, { epochs: 3, learningRate: 1e308, batchSize: 4, warmupSteps: 0 }).catch((e) => e);
    expect(error).toBeInstanceOf(TrainingDivergedError);
    await expect(trainAudioModel(catalog, { ...hyperparams, learningRate: -1 })).rejects.toBeInstanceOf(InvalidHyperparamsError);
  });

  it('fine-tunes from a base model: starts from its loss and keeps its genres', async () => {
    const pop = catalog.filter((i) => i.genre === 'pop');
    const jazz = catalog.filter((i) => i.genre === 'jazz');
    const base = await trainAudioModel(pop, hyperparams);
    const scratch = await trainAudioModel(jazz, { ...hyperparams, epochs: 1 });
    const tuned = await trainAudioModel(jazz, { ...hyperparams, epochs: 1 }, { base: base.model });
    expect(Object.keys(tuned.model.genres).sort()).toEqual(['jazz', 'pop']);
    expect(tuned.model.global.tracks).toBe(pop.length + jazz.length);
    expect(tuned.model.training.epochs).toBe(9);
    expect(tuned.model.transitions.genreOffsets.pop).toEqual(base.model.transitions.genreOffsets.pop);
    expect(scratch.lossCurve[0].trainLoss).toBeGreaterThan(0);
  });

  it('falls back to global statistics for unknown genres, and to nothing for an empty model', async () => {
    const { model } = await trainAudioModel(catalog, { ...hyperparams, epochs: 2 });
    const unknown = styleFor(model, 'polka', ['grumpy']);
    expect(unknown.source).toBe('global');
    expect(unknown.counts.tracks).toBe(catalog.length);
    expect(unknown.transitionProbabilities![START_STATE].reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
    const empty = styleFor(emptyAudioModel(), 'pop', []);
    expect(empty.source).toBe('empty');
    expect(empty.transitionProbabilities).toBeNull();
  });

  it('round-trips through JSON and rejects foreign JSON', async () => {
    const { model } = await trainAudioModel(catalog, { ...hyperparams, epochs: 1 });
    expect(deserialiseAudioModel(serialiseAudioModel(model))).toEqual(model);
    expect(() => deserialiseAudioModel('{"format":"other"}')).toThrow(ModelFormatError);
  });
});
