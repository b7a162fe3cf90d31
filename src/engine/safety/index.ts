/** Public surface of the safety filter (explicit language, copyright similarity, audio near-duplicates). */
export { SafetyFilter, type SafetyFilterSources, type LyricsInput } from './safety-filter.js';
export { SAFETY_PLAYBACK_THRESHOLD, scoreLyrics, scoreAudio, type SafetyAssessment, type SafetyCategory, type LyricsSafetyDetails } from './score.js';
export { ExplicitDetector, type ExplicitMatch, type ExplicitResult } from './explicit.js';
export { CopyrightIndex, referencesFromDocuments, type ReferenceLyric, type CopyrightResult, type CopiedLine } from './copyright.js';
export {
  AudioDuplicateIndex,
  featureDistance,
  similarityFromDistance,
  sequenceAgreement,
  MIN_SEQUENCE_BEATS,
  MAX_BEAT_SHIFT,
  type CatalogAudio,
  type AudioDuplicateResult,
} from './audio-duplicate.js';
export { STATION_TERMS, type StationTerm } from './station-terms.js';
