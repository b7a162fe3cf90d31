/**
 * The safety filter the station runs on generated lyrics and audio before playback. Built once from the
 * reference corpus (training lyrics + catalog lyrics) and the catalog's audio features; checks are pure
 * and synchronous.
 */
import type { AudioFeatures, LyricsDocument } from '../types.js';
import { AudioDuplicateIndex, type CatalogAudio } from './audio-duplicate.js';
import { CopyrightIndex, referencesFromDocuments, type ReferenceLyric } from './copyright.js';
import { ExplicitDetector } from './explicit.js';
import { scoreAudio, scoreLyrics, type LyricsSafetyDetails, type SafetyAssessment } from './score.js';
import type { AudioDuplicateResult } from './audio-duplicate.js';

export interface SafetyFilterSources {
  /** The lyrics training corpus. */
  trainingLyrics?: readonly LyricsDocument[];
  /** Lyrics of catalog tracks (and any other text the station must not reproduce). */
  catalogLyrics?: readonly ReferenceLyric[];
  catalogAudio?: readonly CatalogAudio[];
}

/** Plain text (lines separated by newlines) or a lyrics structure { verse_1: "...", chorus: "..." }. */
export type LyricsInput = string | Record<string, string>;

export class SafetyFilter {
  private readonly explicit = new ExplicitDetector();
  private readonly copyright: CopyrightIndex;
  private readonly audio: AudioDuplicateIndex;

  constructor(sources: SafetyFilterSources) {
    this.copyright = new CopyrightIndex([...referencesFromDocuments(sources.trainingLyrics ?? []), ...(sources.catalogLyrics ?? [])]);
    this.audio = new AudioDuplicateIndex(sources.catalogAudio ?? []);
  }

  checkLyrics(input: LyricsInput, opts: { explicitAllowed: boolean }): SafetyAssessment<LyricsSafetyDetails> {
    const text = typeof input === 'string' ? input : Object.values(input).join('\n');
    const lines = text.split(/\r?\n/).filter((l) => l.trim().length > 0);
    return scoreLyrics(this.explicit.detect(text), this.copyright.check(lines), opts.explicitAllowed);
  }

  checkAudio(features: AudioFeatures): SafetyAssessment<AudioDuplicateResult> {
    return scoreAudio(this.audio.nearest(features));
  }
}
