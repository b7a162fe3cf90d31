import { describe, expect, it } from 'vitest';
import { KneserNeyModel } from '../../../src/engine/lyrics/kneser-ney.js';
import { Vocabulary } from '../../../src/engine/lyrics/vocabulary.js';
import { forwardSequences, splitCorpus, unigramPerplexity } from '../../../src/engine/lyrics/corpus.js';
import { documentTokens } from '../../../src/engine/lyrics/tokenizer.js';
import { Rng } from '../../../src/engine/random.js';
import { fixtureCorpus } from '../../fixtures/lyrics-corpus.js';

function englishSetup(order: number) {
  const en = splitCorpus(fixtureCorpus()).find((c) => c.language === 'en')!;
  const vocab = Vocabulary.build(
    en.train.map((d) => documentTokens(d, order - 1)),
    2,
  );
  const train = forwardSequences(en.train, vocab, order);
  const heldOut = forwardSequences(en.heldOut, vocab, order);
  return { vocab, train, heldOut, model: KneserNeyModel.train(train, order, vocab.size) };
}

describe('Kneser-Ney LM', () => {
  it.each([3, 4])('order %i: probabilities over the vocabulary sum to 1 for seen and unseen contexts', (order) => {
    const { vocab, model } = englishSetup(order);
    const contexts = [
      Array(order - 1).fill(0),
      [vocab.id('hold'), vocab.id('on')],
      [vocab.id('the'), vocab.id('summer')],
      [vocab.id('light'), vocab.id('<unk>')], // unseen context
    ];
    for (const ctx of contexts) {
      let sum = 0;
      for (let w = 0; w < vocab.size; w++) sum += model.probability(w, ctx);
      expect(sum).toBeCloseTo(1, 9);
      const dist = model.distribution(ctx);
      expect(dist.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
      expect(dist[vocab.id('summer')]).toBeCloseTo(model.probability(vocab.id('summer'), ctx), 12);
    }
  });

  it('beats the unigram baseline clearly on held-out songs', () => {
    const { vocab, model, train, heldOut } = englishSetup(3);
    const kn = model.perplexity(heldOut);
    const unigram = unigramPerplexity(train, heldOut, vocab.size);
    expect(kn).toBeLessThan(unigram * 0.5);
  });

  it('serialises to JSON and back with identical probabilities', () => {
    const { vocab, model } = englishSetup(3);
    const copy = KneserNeyModel.fromJSON(JSON.parse(JSON.stringify(model.toJSON())));
    const ctx = [vocab.id('hold'), vocab.id('on')];
    for (let w = 0; w < vocab.size; w += 7) expect(copy.probability(w, ctx)).toBe(model.probability(w, ctx));
  });

  it('samples deterministically for a seed, and the bias hook steers and forbids tokens', () => {
    const { vocab, model } = englishSetup(3);
    const stop = new Set([vocab.newlineId, vocab.eosId]);
    const a = model.sample([0, 0], new Rng(5), { maxTokens: 30, stopAt: stop });
    const b = model.sample([0, 0], new Rng(5), { maxTokens: 30, stopAt: stop });
    expect(a).toEqual(b);
    const fire = vocab.id('fire');
    let withBias = 0;
    let without = 0;
    for (let seed = 0; seed < 200; seed++) {
      if (model.sample([vocab.id('carry'), vocab.id('the')], new Rng(seed), { maxTokens: 1, stopAt: stop, bias: (id) => (id === fire ? 3 : 0) })[0] === fire)
        withBias++;
      if (model.sample([vocab.id('carry'), vocab.id('the')], new Rng(seed), { maxTokens: 1, stopAt: stop })[0] === fire) without++;
    }
    expect(withBias).toBeGreaterThan(without);
    const forbidden = model.sample([0, 0], new Rng(1), { maxTokens: 40, stopAt: new Set(), bias: (id) => (id === vocab.newlineId ? -Infinity : 0) });
    expect(forbidden).not.toContain(vocab.newlineId);
  });
});
