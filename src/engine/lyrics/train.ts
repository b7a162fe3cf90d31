/**
 * Training entry point for the lyrics model. Steps, in order:
 *
 *   corpus -> split by language, hold out ~10% of songs (hash of id)
 *          -> vocabulary (train split, words seen twice; or the base model's when fine-tuning)
 *          -> Kneser-Ney forward / line-reversed / per-artist counts, lexicon, rhyme index, copy guard,
 *             line grammar, English and Spanish (templates and word tags from the tagged corpus lines)
 *          -> neural LM epochs (mini-batches, warmup, held-out loss each epoch, checkpoint each epoch)
 *          -> held-out perplexities (Kneser-Ney, neural, mixture) against the unigram baseline
 *
 * A checkpoint holds weights, Adam moments, step, epoch and the loss curve; `resumeFrom` continues it with
 * the same batches the uninterrupted run would have used, so a killed job resumes exactly.
 */
import type { LyricsDocument, ProgressFn } from '../types.js';
import { CopyGuard, hash53 } from './copy-guard.js';
import {
  buildRhymeIndex,
  corpusLines,
  countPredictedTokens,
  forwardSequences,
  reverseLineSequences,
  splitCorpus,
  unigramPerplexity,
  type LanguageCorpus,
} from './corpus.js';
import { ModelFormatError } from './errors.js';
import { KneserNeyModel } from './kneser-ney.js';
import { learnGrammar } from './grammar-train.js';
import { learnSpanishGrammar } from './grammar-es.js';
import { learnLexicon } from './lexicon.js';
import type { EpochMetrics, LanguageModelJson, LyricsModel } from './model.js';
import {
  DEFAULT_NEURAL_SHAPE,
  NeuralLm,
  initParams,
  parameterCount,
  paramsFromJson,
  paramsToJson,
  type NeuralLmConfig,
  type NeuralParams,
  type ParamName,
} from './neural-lm.js';
import { NeuralTrainer, buildExamples, zeroOptimizerState, type OptimizerState, type TrainingExamples } from './neural-trainer.js';
import { evaluatePerplexities } from './perplexity.js';
import { ensureTfBackend, type TfBackendName } from './tf-backend.js';
import { documentTokens } from './tokenizer.js';
import { Vocabulary } from './vocabulary.js';

export interface LyricsHyperparams {
  epochs: number;
  learningRate: number;
  batchSize: number;
  warmupSteps: number;
  /** Neural LM dropout on the context embeddings and hidden layer (default 0: off). */
  dropout?: number;
  /** Neural LM decoupled weight decay, relative to the learning rate (default 0: off). */
  weightDecay?: number;
}

export interface LyricsTrainingCheckpoint {
  format: 'station-lyrics-checkpoint-v1';
  seed: number;
  epoch: number; // epochs completed
  lossCurve: EpochMetrics[];
  baseModelVersion: string | null;
  languages: Record<
    string,
    {
      vocabularyHash: number;
      config: NeuralLmConfig;
      params: Record<ParamName, string>;
      optimizer: { step: number; firstMoments: Record<ParamName, string>; secondMoments: Record<ParamName, string> };
    }
  >;
}

/**
 * Defaults tuned on the demo corpus (~7k training tokens, 60 English and 10 Spanish songs): the neural LM's
 * held-out loss stops improving after ~6 epochs at this rate, and dropout 0.5 keeps it from overfitting
 * before then (without it, held-out perplexity rises from epoch 3). About 10 s of CPU on one core.
 */
export const DEFAULT_LYRICS_HYPERPARAMS: Readonly<LyricsHyperparams> = { epochs: 6, learningRate: 0.005, batchSize: 64, warmupSteps: 50, dropout: 0.5 };

export interface TrainLyricsOptions {
  /** Fine-tune: start from this model's vocabulary and neural weights. */
  base?: LyricsModel;
  resumeFrom?: LyricsTrainingCheckpoint;
  onEpoch?(e: EpochMetrics): void | Promise<void>;
  onCheckpoint?(checkpoint: LyricsTrainingCheckpoint): void | Promise<void>;
  /** Polled between mini-batches; training stops at the last completed epoch. */
  shouldStop?(): boolean;
  onProgress?: ProgressFn;
  seed?: number;
  knOrder?: number;
  neuralShape?: Partial<Omit<NeuralLmConfig, 'vocabSize'>>;
}

interface LanguageRun {
  corpus: LanguageCorpus;
  vocabulary: Vocabulary;
  trainSeqs: number[][];
  heldOutSeqs: number[][];
  config: NeuralLmConfig;
  trainExamples: TrainingExamples;
  heldOutExamples: TrainingExamples;
  lastGood: { params: NeuralParams; optimizer: OptimizerState };
}

const MIN_WORD_COUNT = 2;

export async function trainLyricsModel(
  docs: LyricsDocument[],
  hyper: LyricsHyperparams = DEFAULT_LYRICS_HYPERPARAMS,
  opts: TrainLyricsOptions = {},
): Promise<LyricsModel> {
  const seed = opts.resumeFrom?.seed ?? opts.seed ?? 1;
  const order = opts.knOrder ?? 3;
  const wantsNeural = hyper.epochs > 0;
  const backend: TfBackendName | null = wantsNeural ? await ensureTfBackend() : null;
  const runs = splitCorpus(docs).map((corpus) => prepareLanguage(corpus, order, seed, opts));

  let lossCurve = [...(opts.resumeFrom?.lossCurve ?? [])];
  let epochsCompleted = opts.resumeFrom?.epoch ?? 0;
  let stopped = false;
  const started = Date.now();
  if (wantsNeural) {
    const trainers = runs.map((r) => new NeuralTrainer(r.config, r.lastGood.params, r.lastGood.optimizer, hyper, seed, r.corpus.language));
    try {
      for (let epoch = epochsCompleted + 1; epoch <= hyper.epochs && !stopped; epoch++) {
        let lossSum = 0,
          lossWeight = 0,
          heldSum = 0,
          heldWeight = 0;
        for (let i = 0; i < runs.length && !stopped; i++) {
          const loss = await trainers[i].trainEpoch(epoch, runs[i].trainExamples, opts.shouldStop);
          if (loss === 'stopped') stopped = true;
          else {
            lossSum += loss * runs[i].trainExamples.count;
            lossWeight += runs[i].trainExamples.count;
            if (runs[i].heldOutExamples.count > 0) {
              heldSum += trainers[i].evaluate(runs[i].heldOutExamples) * runs[i].heldOutExamples.count;
              heldWeight += runs[i].heldOutExamples.count;
            }
          }
        }
        if (stopped) break;
        runs.forEach((r, i) => (r.lastGood = trainers[i].snapshot()));
        const heldOutLoss = heldWeight > 0 ? heldSum / heldWeight : Number.NaN;
        const metrics: EpochMetrics = { epoch, loss: lossSum / Math.max(1, lossWeight), heldOutLoss, perplexity: Math.exp(heldOutLoss) };
        lossCurve = [...lossCurve, metrics];
        epochsCompleted = epoch;
        await opts.onEpoch?.(metrics);
        await opts.onCheckpoint?.(makeCheckpoint(runs, seed, epoch, lossCurve, opts.base?.version ?? null));
        const done = epoch - (opts.resumeFrom?.epoch ?? 0);
        const left = hyper.epochs - epoch;
        opts.onProgress?.(Math.round((epoch / hyper.epochs) * 100), ((Date.now() - started) / 1000 / done) * left);
      }
    } finally {
      trainers.forEach((t) => t.dispose());
    }
  }

  const perLanguage: Record<string, LanguageModelJson> = {};
  for (const run of runs)
    perLanguage[run.corpus.language] = finishLanguage(run, order, wantsNeural || Boolean(opts.base?.perLanguage[run.corpus.language]?.neural));
  return assembleModel(perLanguage, {
    seed,
    knOrder: order,
    backend,
    hyperparams: { ...hyper },
    epochsCompleted,
    stopped,
    lossCurve,
    neuralParameters: Object.fromEntries(runs.map((r) => [r.corpus.language, parameterCount(r.config)])),
    baseModelVersion: opts.base?.version ?? null,
  });
}

function prepareLanguage(corpus: LanguageCorpus, order: number, seed: number, opts: TrainLyricsOptions): LanguageRun {
  const { language } = corpus;
  const baseLanguage = opts.base?.perLanguage[language];
  const streams = corpus.train.map((d) => documentTokens(d, order - 1));
  const vocabulary = baseLanguage ? Vocabulary.fromJSON(baseLanguage.vocabulary) : Vocabulary.build(streams, MIN_WORD_COUNT);
  const config: NeuralLmConfig = baseLanguage?.neural?.config ?? { vocabSize: vocabulary.size, ...DEFAULT_NEURAL_SHAPE, ...opts.neuralShape };
  const trainSeqs = forwardSequences(corpus.train, vocabulary, order);
  const heldOutSeqs = forwardSequences(corpus.heldOut, vocabulary, order);
  let lastGood: LanguageRun['lastGood'];
  const resumed = opts.resumeFrom?.languages[language];
  if (resumed) {
    if (resumed.vocabularyHash !== vocabularyHash(vocabulary)) throw new ModelFormatError(`checkpoint vocabulary for "${language}" does not match this corpus`);
    lastGood = {
      params: paramsFromJson(resumed.params, resumed.config),
      optimizer: {
        step: resumed.optimizer.step,
        firstMoments: paramsFromJson(resumed.optimizer.firstMoments, resumed.config),
        secondMoments: paramsFromJson(resumed.optimizer.secondMoments, resumed.config),
      },
    };
  } else {
    const params = baseLanguage?.neural ? NeuralLm.fromJSON(baseLanguage.neural).params : initParams(config, hash53(`${seed}:${language}`));
    lastGood = { params, optimizer: zeroOptimizerState(config) };
  }
  return {
    corpus,
    vocabulary,
    trainSeqs,
    heldOutSeqs,
    config,
    lastGood,
    trainExamples: buildExamples(trainSeqs, config.contextSize),
    heldOutExamples: buildExamples(heldOutSeqs, config.contextSize),
  };
}

function finishLanguage(run: LanguageRun, order: number, withNeural: boolean): LanguageModelJson {
  const { corpus, vocabulary } = run;
  const forward = KneserNeyModel.train(run.trainSeqs, order, vocabulary.size);
  const reverse = KneserNeyModel.train(reverseLineSequences(corpus.train, vocabulary, order), order, vocabulary.size);
  const artists: Record<string, KneserNeyModel> = {};
  for (const artistId of new Set(corpus.all.map((d) => d.artistId))) {
    artists[artistId] = KneserNeyModel.train(
      forwardSequences(
        corpus.all.filter((d) => d.artistId === artistId),
        vocabulary,
        order,
      ),
      order,
      vocabulary.size,
    );
  }
  const neural = withNeural ? new NeuralLm(run.config, run.lastGood.params) : null;
  const heldOutTokens = countPredictedTokens(run.heldOutSeqs);
  const perplexity =
    heldOutTokens > 0
      ? { ...evaluatePerplexities(forward, neural, run.heldOutSeqs, order), unigram: unigramPerplexity(run.trainSeqs, run.heldOutSeqs, vocabulary.size) }
      : null;
  return {
    language: corpus.language,
    vocabulary: vocabulary.toJSON(),
    forward: forward.toJSON(),
    reverse: reverse.toJSON(),
    artists: Object.fromEntries(Object.entries(artists).map(([id, kn]) => [id, kn.toJSON()])),
    neural: neural?.toJSON() ?? null,
    lexicon: learnLexicon(corpus.all, corpus.language),
    rhymeIndex: buildRhymeIndex(vocabulary, corpus.language),
    copyGuard: CopyGuard.fromLines(corpusLines(corpus.all)).toJSON(),
    ...(corpus.language === 'en'
      ? { grammar: learnGrammar(corpus.all, vocabulary) }
      : corpus.language === 'es'
        ? { grammar: learnSpanishGrammar(corpus.all, vocabulary) }
        : {}),
    metrics: {
      trainDocs: corpus.train.length,
      heldOutDocs: corpus.heldOut.length,
      trainTokens: countPredictedTokens(run.trainSeqs),
      heldOutTokens,
      vocabularySize: vocabulary.size,
      heldOutDocIds: corpus.heldOut.map((d) => d.id),
      perplexity,
    },
  };
}

function assembleModel(perLanguage: Record<string, LanguageModelJson>, training: LyricsModel['training']): LyricsModel {
  const measured = Object.values(perLanguage).filter((l) => l.metrics.perplexity);
  const tokens = measured.reduce((n, l) => n + l.metrics.heldOutTokens, 0);
  const pooled = (pick: (l: LanguageModelJson) => number | null): number | null => {
    if (tokens === 0 || measured.some((l) => pick(l) === null)) return null;
    // Pool per-token log-likelihoods: exp of the token-weighted mean log-perplexity.
    return Math.exp(measured.reduce((s, l) => s + Math.log(pick(l)!) * l.metrics.heldOutTokens, 0) / tokens);
  };
  const body = JSON.stringify(perLanguage);
  return {
    format: 'station-lyrics-v1',
    version: `lyrics-${hash53(body).toString(36)}-${hash53(body, 7).toString(36).slice(0, 4)}`,
    languages: Object.keys(perLanguage),
    perLanguage,
    metrics: {
      heldOutTokens: tokens,
      heldOutPerplexity: pooled((l) => l.metrics.perplexity!.kneserNey),
      neuralPerplexity: pooled((l) => l.metrics.perplexity!.neural),
      interpolatedPerplexity: pooled((l) => l.metrics.perplexity!.interpolated),
      unigramPerplexity: pooled((l) => l.metrics.perplexity!.unigram),
    },
    training,
  };
}

function vocabularyHash(vocabulary: Vocabulary): number {
  return hash53(vocabulary.tokens.join('\u0001'));
}

function makeCheckpoint(
  runs: LanguageRun[],
  seed: number,
  epoch: number,
  lossCurve: EpochMetrics[],
  baseModelVersion: string | null,
): LyricsTrainingCheckpoint {
  return {
    format: 'station-lyrics-checkpoint-v1',
    seed,
    epoch,
    lossCurve,
    baseModelVersion,
    languages: Object.fromEntries(
      runs.map((r) => [
        r.corpus.language,
        {
          vocabularyHash: vocabularyHash(r.vocabulary),
          config: r.config,
          params: paramsToJson(r.lastGood.params),
          optimizer: {
            step: r.lastGood.optimizer.step,
            firstMoments: paramsToJson(r.lastGood.optimizer.firstMoments),
            secondMoments: paramsToJson(r.lastGood.optimizer.secondMoments),
          },
        },
      ]),
    ),
  };
}
