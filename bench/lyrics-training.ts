/**
 * Lyrics training throughput on one core: Kneser-Ney counting and neural LM epochs, in tokens per second,
 * plus generation latency. Run: npx tsx bench/lyrics-training.ts
 * Corpus: the original test fixture corpus, tripled (ids changed) to approach the ~15k-token demo corpus.
 */
import { KneserNeyModel } from '../src/engine/lyrics/kneser-ney.js';
import { Vocabulary } from '../src/engine/lyrics/vocabulary.js';
import { forwardSequences, splitCorpus } from '../src/engine/lyrics/corpus.js';
import { documentTokens } from '../src/engine/lyrics/tokenizer.js';
import { trainLyricsModel } from '../src/engine/lyrics/train.js';
import { generateLyrics } from '../src/engine/lyrics/generate.js';
import { fixtureCorpus } from '../test/fixtures/lyrics-corpus.js';

async function main(): Promise<void> {
  const docs = [0, 1, 2].flatMap((copy) => fixtureCorpus().map((d) => ({ ...d, id: `${d.id}-${copy}` })));
  const corpora = splitCorpus(docs);
  const order = 3;
  let knTokens = 0;
  const knStart = performance.now();
  const rounds = 5;
  for (let r = 0; r < rounds; r++) {
    for (const c of corpora) {
      const vocab = Vocabulary.build(c.train.map((d) => documentTokens(d, order - 1)), 2);
      const seqs = forwardSequences(c.train, vocab, order);
      KneserNeyModel.train(seqs, order, vocab.size);
      knTokens += seqs.reduce((n, s) => n + s.length - (order - 1), 0);
    }
  }
  const knSeconds = (performance.now() - knStart) / 1000;

  const epochs = 3;
  const epochTimes: number[] = [];
  let last = performance.now();
  const model = await trainLyricsModel(docs, { epochs, learningRate: 0.005, batchSize: 64, warmupSteps: 50 }, {
    onEpoch: () => {
      const now = performance.now();
      epochTimes.push((now - last) / 1000);
      last = now;
    },
  });
  const trainTokens = Object.values(model.perLanguage).reduce((n, l) => n + l.metrics.trainTokens, 0);
  const genStart = performance.now();
  const out = generateLyrics(model, { mood: ['hopeful'], theme: 'leaving home', language: 'en', structure: 'verse-chorus-verse-chorus-bridge-chorus', seed: 1 });
  const genMs = performance.now() - genStart;

  console.log(JSON.stringify({
    corpus: { docs: docs.length, trainTokens, heldOutTokens: model.metrics.heldOutTokens },
    backend: model.training.backend,
    kneserNey: { tokensPerSecond: Math.round(knTokens / knSeconds) },
    neural: {
      parameters: model.training.neuralParameters,
      secondsPerEpoch: epochTimes.map((t) => Math.round(t * 100) / 100),
      tokensPerSecond: Math.round(trainTokens / (epochTimes.reduce((a, b) => a + b, 0) / epochTimes.length)),
    },
    perplexity: model.metrics,
    generation: { ms: Math.round(genMs), rhymed: `${out.meta.rhymedPairs}/${out.meta.rhymePairsAsked}` },
  }, null, 2));
}

void main();
