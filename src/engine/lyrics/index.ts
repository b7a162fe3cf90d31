/** Public surface of the lyrics engine (module F's models): training, generation and their helpers. */
export { trainLyricsModel, DEFAULT_LYRICS_HYPERPARAMS, type LyricsHyperparams, type TrainLyricsOptions, type LyricsTrainingCheckpoint } from './train.js';
export { generateLyrics, LyricsGenerationError, type GenerateLyricsRequest, type GeneratedLyrics } from './generate.js';
export type { LyricsModel, EpochMetrics, LanguageMetrics, PerplexityReport } from './model.js';
export { parseStructure, SECTION_KINDS, type SongStructure, type SectionKind } from './structure.js';
export { rhymeKey, wordsRhyme } from './rhyme.js';
export { countLineSyllables, countWordSyllables } from './syllables.js';
export { tokenizeLine, detectLanguage, normaliseForMatching } from './tokenizer.js';
export { KneserNeyModel } from './kneser-ney.js';
export { NeuralLm } from './neural-lm.js';
export { ensureTfBackend, type TfBackendName } from './tf-backend.js';
export * from './errors.js';
