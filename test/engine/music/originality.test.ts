/**
 * Original by construction (issue 18): the composer's symbolic novelty check against its training tracks,
 * and the seeded retry the station runs when the audio filter still blocks.
 */
import { describe, expect, it } from 'vitest';
import { emptyAudioModel, type AudioModel } from '../../../src/engine/compose/audio-model.js';
import { trainAudioModel } from '../../../src/engine/music/audio-model-training.js';
import { composeCandidate, composeScore } from '../../../src/engine/compose/index.js';
import { NOVELTY_BOUND, chordTrigrams, fingerprintScore, noveltyAgainst, type NoveltyReference } from '../../../src/engine/compose/novelty.js';
import { MAX_ORIGINALITY_ATTEMPTS, attemptSeed, firstOriginalAttempt } from '../../../src/engine/music/originality.js';
import { sequenceAgreement } from '../../../src/engine/safety/audio-duplicate.js';
import { LOFI_CONTEXT, syntheticCatalog } from './helpers.js';

/** A training track that is exactly the score the composer would write first: a copy waiting to happen. */
function referenceFromScore(model: AudioModel, seed: number): NoveltyReference {
  const first = composeCandidate({ context: LOFI_CONTEXT, seed, maxDurationSec: 120, model }, 0, true);
  const fp = fingerprintScore(first);
  return { genre: 'lo-fi hip hop', tempoBpm: fp.bpm, key: fp.key, mode: fp.mode, chroma: fp.chroma, onsetRate: 2, beatChords: fp.beatChords };
}

describe('symbolic novelty constraint', () => {
  it('without references composes exactly as before (the first candidate, family orchestration)', () => {
    const req = { context: LOFI_CONTEXT, seed: 7, maxDurationSec: 60, model: emptyAudioModel() };
    expect(composeScore(req)).toEqual(composeCandidate(req, 0));
  });

  it('resamples away from a training track whose chords, tempo and key it would copy', () => {
    const seed = 4242;
    const base = emptyAudioModel();
    const copy = referenceFromScore(base, seed);
    const model: AudioModel = { ...base, references: [copy] };
    const req = { context: LOFI_CONTEXT, seed, maxDurationSec: 120, model };

    const first = composeCandidate(req, 0, true);
    const firstVerdict = noveltyAgainst(fingerprintScore(first), [copy]);
    expect(firstVerdict.similarity).toBeGreaterThan(0.9); // the copy: same chords at the same tempo and key
    expect(firstVerdict.trigramOverlap).toBe(1);

    const chosen = composeScore(req);
    const chosenVerdict = noveltyAgainst(fingerprintScore(chosen), [copy]);
    expect(chosenVerdict.similarity).toBeLessThanOrEqual(NOVELTY_BOUND);
    expect(sequenceAgreement(fingerprintScore(chosen).beatChords, copy.beatChords)).toBeLessThan(0.5);
    // Deterministic: same request, same score.
    expect(composeScore(req)).toEqual(chosen);
  });

  it('reads chord trigrams relative to the key, over chord changes', () => {
    const inC = ['C', 'C', 'G', 'G', 'Am', 'Am', 'F', 'F', 'C'];
    expect(chordTrigrams(inC, 'C')).toEqual(['0,14,19', '14,19,10', '19,10,0']);
    expect(chordTrigrams(['D', 'A', 'A', 'Bm', 'G', 'D'], 'D')).toEqual(chordTrigrams(inC, 'C')); // the same loop in D
  });

  it('keeps every training track as a reference in the trained model', async () => {
    const items = syntheticCatalog({ tracksPerGenre: 2, seed: 3 });
    const { model } = await trainAudioModel(items, { epochs: 1, learningRate: 0.05, batchSize: 4, warmupSteps: 1 }, { seed: 1 });
    expect(model.references).toHaveLength(items.length);
    expect(model.references![0].beatChords).toEqual(items[0].features.beatChords);
    const again = await trainAudioModel(items.slice(0, 1), { epochs: 1, learningRate: 0.05, batchSize: 4, warmupSteps: 1 }, { seed: 1, base: model });
    expect(again.model.references).toHaveLength(items.length + 1); // fine-tuning adds to what the base kept
  });
});

describe('seeded retry', () => {
  it('derives attempt seeds from the seed alone: attempt 0 is the seed, the others distinct 31-bit integers', () => {
    expect(attemptSeed(4242, 0)).toBe(4242);
    const seeds = Array.from({ length: MAX_ORIGINALITY_ATTEMPTS }, (_, i) => attemptSeed(4242, i));
    expect(new Set(seeds).size).toBe(MAX_ORIGINALITY_ATTEMPTS);
    for (const s of seeds) expect(Number.isInteger(s) && s >= 0 && s <= 0x7fffffff).toBe(true);
    expect(Array.from({ length: MAX_ORIGINALITY_ATTEMPTS }, (_, i) => attemptSeed(4242, i))).toEqual(seeds);
    expect(attemptSeed(4243, 1)).not.toBe(attemptSeed(4242, 1));
  });

  it('stops at the first attempt the filter passes, and takes the same path for the same seed', async () => {
    const blockedSeeds = new Set([attemptSeed(9, 0), attemptSeed(9, 1)]);
    const run = () => {
      const tried: number[] = [];
      return firstOriginalAttempt(9, async (seed) => {
        tried.push(seed);
        return { result: tried.slice(), passed: !blockedSeeds.has(seed) };
      });
    };
    const a = await run();
    expect(a).toMatchObject({ passed: true, attempts: 3, seed: attemptSeed(9, 2) });
    expect(a.result).toEqual([attemptSeed(9, 0), attemptSeed(9, 1), attemptSeed(9, 2)]);
    expect(await run()).toEqual(a);
  });

  it('returns the last attempt, still blocked, when every attempt is blocked', async () => {
    const r = await firstOriginalAttempt(1, async (seed, i) => ({ result: i, passed: false }), 3);
    expect(r).toEqual({ result: 2, passed: false, attempts: 3, seed: attemptSeed(1, 2) });
  });
});
