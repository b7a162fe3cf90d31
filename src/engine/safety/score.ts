/**
 * The safety score (0..1, higher is safer) and flagged categories. Lyrics under SAFETY_PLAYBACK_THRESHOLD
 * must not play (spec: "at least 0.80 for playback").
 *
 * Lyrics:  safety_score = (1 - explicitPenalty) * (1 - copyrightSimilarity)
 *   explicitPenalty = 0 when no explicit term or explicit content is allowed; otherwise
 *                     0.5 + 0.1 per further distinct term (max 1), so explicit text scores <= 0.5.
 *   copyrightSimilarity from copyright.ts (one copied line alone gives >= 0.3, i.e. score <= 0.7).
 * Audio:   safety_score = 1 - similarity², similarity to the nearest catalog track (audio-duplicate.ts: global
 *   sound × chord-sequence agreement); an unrelated track (similarity <~ 0.3) scores >= 0.9, a near-duplicate
 *   (> 0.45) fails.
 * Categories: "explicit_language" (explicit and not allowed), "copyright_similarity" and "audio_duplicate"
 * (that part alone would take the score under the threshold).
 */
import type { AudioDuplicateResult } from './audio-duplicate.js';
import type { CopyrightResult } from './copyright.js';
import type { ExplicitResult } from './explicit.js';

export const SAFETY_PLAYBACK_THRESHOLD = 0.8;

export type SafetyCategory = 'explicit_language' | 'copyright_similarity' | 'audio_duplicate';

export interface SafetyAssessment<Details = unknown> {
  safety_score: number;
  explicit_detected: boolean;
  flagged_categories: SafetyCategory[];
  /** True when safety_score >= SAFETY_PLAYBACK_THRESHOLD. */
  playable: boolean;
  details: Details;
}

export interface LyricsSafetyDetails {
  explicitAllowed: boolean;
  explicitTerms: string[];
  explicitMatches: ExplicitResult['matches'];
  explicitPenalty: number;
  copyrightSimilarity: number;
  copiedLines: CopyrightResult['copiedLines'];
  nearestReferenceId: string | null;
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

export function scoreLyrics(explicit: ExplicitResult, copyright: CopyrightResult, explicitAllowed: boolean): SafetyAssessment<LyricsSafetyDetails> {
  const explicitPenalty = explicit.explicit && !explicitAllowed ? Math.min(1, 0.5 + 0.1 * (explicit.terms.length - 1)) : 0;
  const score = round3(Math.max(0, Math.min(1, (1 - explicitPenalty) * (1 - copyright.similarity))));
  const flagged: SafetyCategory[] = [];
  if (explicitPenalty > 0) flagged.push('explicit_language');
  if (1 - copyright.similarity < SAFETY_PLAYBACK_THRESHOLD) flagged.push('copyright_similarity');
  return {
    safety_score: score,
    explicit_detected: explicit.explicit,
    flagged_categories: flagged,
    playable: score >= SAFETY_PLAYBACK_THRESHOLD,
    details: {
      explicitAllowed,
      explicitTerms: explicit.terms,
      explicitMatches: explicit.matches,
      explicitPenalty,
      copyrightSimilarity: round3(copyright.similarity),
      copiedLines: copyright.copiedLines,
      nearestReferenceId: copyright.nearestReferenceId,
    },
  };
}

export function scoreAudio(duplicate: AudioDuplicateResult): SafetyAssessment<AudioDuplicateResult> {
  const score = round3(1 - duplicate.similarity ** 2);
  return {
    safety_score: score,
    explicit_detected: false,
    flagged_categories: score < SAFETY_PLAYBACK_THRESHOLD ? ['audio_duplicate'] : [],
    playable: score >= SAFETY_PLAYBACK_THRESHOLD,
    details: { ...duplicate, similarity: round3(duplicate.similarity) },
  };
}
