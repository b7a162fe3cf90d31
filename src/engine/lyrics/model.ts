/**
 * The trained lyrics model as plain JSON data (`LyricsModel`, what training returns and the registry
 * stores), and its runtime form (`LoadedLanguage`), rebuilt once per model object and cached.
 */
import { CopyGuard, type CopyGuardJson } from './copy-guard.js';
import type { GrammarJson } from './grammar-train.js';
import { loadGrammar, type LoadedGrammar } from './grammar-writer.js';
import { KneserNeyModel, type KneserNeyJson } from './kneser-ney.js';
import type { Lexicon } from './lexicon.js';
import { NeuralLm, type NeuralLmJson } from './neural-lm.js';
import { Vocabulary, type VocabularyJson } from './vocabulary.js';
import { ModelFormatError, UnsupportedLanguageError } from './errors.js';
import type { TfBackendName } from './tf-backend.js';

export interface PerplexityReport {
  kneserNey: number;
  neural: number | null;
  /** 50/50 mixture of Kneser-Ney and neural probabilities, the usual best of both. */
  interpolated: number | null;
  /** Add-one unigram over the same vocabulary and held-out tokens: the baseline every model must beat. */
  unigram: number;
}

export interface LanguageMetrics {
  trainDocs: number;
  heldOutDocs: number;
  trainTokens: number;
  heldOutTokens: number;
  vocabularySize: number;
  heldOutDocIds: string[];
  /** null when the language has too few songs for a held-out split. */
  perplexity: PerplexityReport | null;
}

export interface EpochMetrics {
  epoch: number;
  loss: number; // mean training cross-entropy, nats per token
  heldOutLoss: number;
  perplexity: number; // exp(heldOutLoss)
}

export interface LanguageModelJson {
  language: string;
  vocabulary: VocabularyJson;
  forward: KneserNeyJson;
  /** Trained on lines read right to left: generates a line backwards from a chosen rhyme word. */
  reverse: KneserNeyJson;
  /** Per-artist forward models over the same vocabulary, for style_artist_ids. */
  artists: Record<string, KneserNeyJson>;
  neural: NeuralLmJson | null;
  lexicon: Lexicon;
  /** rhyme key -> vocabulary words with that key. */
  rhymeIndex: Record<string, string[]>;
  copyGuard: CopyGuardJson;
  /** English only: line templates and word tags learned from the tagged corpus (absent in older models). */
  grammar?: GrammarJson;
  metrics: LanguageMetrics;
}

export interface LyricsModel {
  format: 'station-lyrics-v1';
  /** Content hash of the trained weights and counts: same corpus + hyperparameters + seed = same version. */
  version: string;
  languages: string[];
  perLanguage: Record<string, LanguageModelJson>;
  metrics: {
    heldOutTokens: number;
    /** Token-weighted over languages with a held-out split. */
    heldOutPerplexity: number | null;
    neuralPerplexity: number | null;
    interpolatedPerplexity: number | null;
    unigramPerplexity: number | null;
  };
  training: {
    seed: number;
    knOrder: number;
    backend: TfBackendName | null;
    hyperparams: { epochs: number; learningRate: number; batchSize: number; warmupSteps: number; dropout?: number; weightDecay?: number };
    epochsCompleted: number;
    stopped: boolean;
    lossCurve: EpochMetrics[];
    neuralParameters: Record<string, number>;
    baseModelVersion: string | null;
  };
}

export interface LoadedLanguage {
  language: string;
  vocabulary: Vocabulary;
  forward: KneserNeyModel;
  reverse: KneserNeyModel;
  artists: Map<string, KneserNeyModel>;
  neural: NeuralLm | null;
  lexicon: Lexicon;
  rhymeIndex: Map<string, number[]>;
  /** Per word id: smoothed share of its training occurrences that end a line (low for "the", high for "sky"). */
  lineEndRate: Float64Array;
  copyGuard: CopyGuard;
  grammar: LoadedGrammar | null;
}

const cache = new WeakMap<LyricsModel, Map<string, LoadedLanguage>>();

export function loadLanguage(model: LyricsModel, language: string): LoadedLanguage {
  if (model.format !== 'station-lyrics-v1') throw new ModelFormatError(`unknown lyrics model format ${String(model.format)}`);
  const json = model.perLanguage[language];
  if (!json) throw new UnsupportedLanguageError(language, model.languages);
  let perModel = cache.get(model);
  if (!perModel) cache.set(model, (perModel = new Map()));
  let loaded = perModel.get(language);
  if (!loaded) {
    const vocabulary = Vocabulary.fromJSON(json.vocabulary);
    const reverse = KneserNeyModel.fromJSON(json.reverse);
    loaded = {
      language,
      vocabulary,
      forward: KneserNeyModel.fromJSON(json.forward),
      reverse,
      artists: new Map(Object.entries(json.artists).map(([id, kn]) => [id, KneserNeyModel.fromJSON(kn)])),
      neural: json.neural ? NeuralLm.fromJSON(json.neural) : null,
      lexicon: json.lexicon,
      rhymeIndex: new Map(Object.entries(json.rhymeIndex).map(([key, words]) => [key, words.map((w) => vocabulary.id(w))])),
      lineEndRate: lineEndRates(reverse, vocabulary.size),
      copyGuard: CopyGuard.fromJSON(json.copyGuard),
      grammar: json.grammar ? loadGrammar(json.grammar, vocabulary, language) : null,
    };
    perModel.set(language, loaded);
  }
  return loaded;
}

/**
 * From the line-reversed model, whose sequences are `<s> <s> last ... first </s>`: the words after `<s> <s>`
 * are the line-final words. Smoothed so a word seen once and never at a line end still gets ~0.17, while a
 * frequent word that never ends a line ("the", "my") gets close to 0.
 */
function lineEndRates(reverse: KneserNeyModel, vocabSize: number): Float64Array {
  const ends = reverse.followerCounts(Array.from({ length: reverse.order - 1 }, () => Vocabulary.BOS_ID));
  const totals = reverse.tokenCounts();
  const rates = new Float64Array(vocabSize);
  for (let id = 0; id < vocabSize; id++) rates[id] = ((ends.get(id) ?? 0) + 0.5) / ((totals.get(id) ?? 0) + 2);
  return rates;
}
