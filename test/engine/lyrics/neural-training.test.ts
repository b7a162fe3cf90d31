import { describe, expect, it } from 'vitest';
import { trainLyricsModel, type LyricsTrainingCheckpoint } from '../../../src/engine/lyrics/train.js';
import { TrainingDivergedError } from '../../../src/engine/lyrics/errors.js';
import type { EpochMetrics } from '../../../src/engine/lyrics/model.js';
import { fixtureCorpus } from '../../fixtures/lyrics-corpus.js';

// Dropout and weight decay on, so the exact-resume check covers their seeded masks and the decay step too.
const hyper = { epochs: 3, learningRate: 0.005, batchSize: 64, warmupSteps: 30, dropout: 0.3, weightDecay: 0.01 };

describe('neural lyrics LM training', () => {
  it('decreases the loss, reports every epoch, and a killed run resumes exactly from its checkpoint', async () => {
    const docs = fixtureCorpus();
    const full: EpochMetrics[] = [];
    const model = await trainLyricsModel(docs, hyper, { seed: 3, onEpoch: (e) => void full.push(e) });
    expect(full.map((e) => e.epoch)).toEqual([1, 2, 3]);
    expect(full[2].loss).toBeLessThan(full[0].loss);
    for (const e of full) {
      expect(Number.isFinite(e.heldOutLoss)).toBe(true);
      expect(e.perplexity).toBeCloseTo(Math.exp(e.heldOutLoss), 6);
    }
    expect(model.training.lossCurve).toEqual(full);
    expect(['wasm', 'cpu']).toContain(model.training.backend);
    expect(model.metrics.neuralPerplexity!).toBeLessThan(model.metrics.unigramPerplexity!);
    for (const params of Object.values(model.training.neuralParameters)) expect(params).toBeGreaterThan(5_000);

    // "Kill" after the first epoch: stop on the next poll, keep the last checkpoint as a job runner would.
    let saved: string | undefined;
    let epochsSeen = 0;
    const stopped = await trainLyricsModel(docs, hyper, {
      seed: 3,
      onEpoch: () => void epochsSeen++,
      onCheckpoint: (c) => void (saved = JSON.stringify(c)),
      shouldStop: () => epochsSeen >= 1,
    });
    expect(stopped.training.stopped).toBe(true);
    expect(stopped.training.epochsCompleted).toBe(1);
    const checkpoint = JSON.parse(saved!) as LyricsTrainingCheckpoint;
    expect(checkpoint.epoch).toBe(1);
    expect(checkpoint.languages.en.optimizer.step).toBeGreaterThan(0);

    const resumed: EpochMetrics[] = [];
    const finished = await trainLyricsModel(docs, hyper, { resumeFrom: checkpoint, onEpoch: (e) => void resumed.push(e) });
    expect(resumed.map((e) => e.epoch)).toEqual([2, 3]);
    expect(finished.training.lossCurve.map((e) => e.epoch)).toEqual([1, 2, 3]);
    finished.training.lossCurve.forEach((e, i) => {
      expect(e.loss).toBeCloseTo(full[i].loss, 5);
      expect(e.heldOutLoss).toBeCloseTo(full[i].heldOutLoss, 5);
    });
    expect(finished.version).toBe(model.version);
  }, 60_000);

  it('fine-tunes from a base model (same vocabulary, better start than from scratch)', async () => {
    const docs = fixtureCorpus();
    const base = await trainLyricsModel(
      docs.filter((_, i) => i % 2 === 0),
      { ...hyper, epochs: 2 },
      { seed: 9 },
    );
    const rest = docs.filter((_, i) => i % 2 === 1);
    const scratch: EpochMetrics[] = [];
    const tuned: EpochMetrics[] = [];
    await trainLyricsModel(rest, { ...hyper, epochs: 1 }, { seed: 9, onEpoch: (e) => void scratch.push(e) });
    const fineTuned = await trainLyricsModel(rest, { ...hyper, epochs: 1 }, { seed: 9, base, onEpoch: (e) => void tuned.push(e) });
    expect(fineTuned.training.baseModelVersion).toBe(base.version);
    expect(fineTuned.perLanguage.en.vocabulary).toEqual(base.perLanguage.en.vocabulary);
    expect(tuned[0].heldOutLoss).toBeLessThan(scratch[0].heldOutLoss);
  }, 60_000);

  it('throws a typed error when the loss becomes NaN', async () => {
    const docs = fixtureCorpus().filter((d) => d.language === 'es');
    await expect(trainLyricsModel(docs, { epochs: 2, learningRate: 1e38, batchSize: 16, warmupSteps: 0 })).rejects.toBeInstanceOf(TrainingDivergedError);
  }, 30_000);
});
