/**
 * Explicit-language detection. obscenity's English dataset with its recommended transformers catches
 * disguised spellings (leetspeak "sh1t", confusable Unicode, stretched "fuuuck"); the station's own list
 * (station-terms.ts) adds British and Spanish terms. Two passes:
 *   1. the text with accents folded (position-preserving), so "cabrón" meets the pattern "cabron";
 *   2. runs of single characters separated by spaces/dots/dashes ("f u c k", "s.h.i.t") joined up, since
 *      obscenity deliberately does not skip separators (it would match across ordinary words).
 */
import { DataSet, RegExpMatcher, englishDataset, englishRecommendedTransformers, parseRawPattern, type MatchPayload } from 'obscenity';
import { foldDiacritics } from '../lyrics/tokenizer.js';
import { STATION_TERMS } from './station-terms.js';

export interface ExplicitMatch {
  term: string;
  /** Offsets into the checked text, end exclusive. */
  start: number;
  end: number;
  matchedText: string;
}

export interface ExplicitResult {
  explicit: boolean;
  matches: ExplicitMatch[];
  terms: string[];
}

const SPACED_LETTERS = /(?<![\p{L}\p{N}])[\p{L}\p{N}@$!](?:[\s.\-_*]{1,3}[\p{L}\p{N}@$!]){2,}(?![\p{L}\p{N}])/gu;

export class ExplicitDetector {
  private readonly dataset: DataSet<{ originalWord: string }>;
  private readonly matcher: RegExpMatcher;

  constructor(extraTerms = STATION_TERMS) {
    this.dataset = new DataSet<{ originalWord: string }>().addAll(englishDataset);
    for (const t of extraTerms) {
      this.dataset.addPhrase((phrase) => phrase.setMetadata({ originalWord: t.word }).addPattern(parseRawPattern(t.pattern)));
    }
    this.matcher = new RegExpMatcher({ ...this.dataset.build(), ...englishRecommendedTransformers });
  }

  detect(text: string): ExplicitResult {
    const folded = foldDiacritics(text);
    const matches: ExplicitMatch[] = [];
    const add = (term: string, start: number, end: number) => {
      if (matches.some((m) => m.start < end && start < m.end && m.term === term)) return;
      matches.push({ term, start, end, matchedText: text.slice(start, end) });
    };
    for (const m of this.matcher.getAllMatches(folded, true)) {
      add(this.termOf(m), m.startIndex, m.endIndex + 1);
    }
    for (const run of folded.matchAll(SPACED_LETTERS)) {
      // Only runs whose pieces are single characters: "f u c k", not "go to bed".
      const pieces = run[0].split(/[\s.\-_*]+/);
      if (pieces.filter((p) => p.length === 1).length < 3) continue;
      const joined = pieces.join('');
      for (const m of this.matcher.getAllMatches(joined, true)) add(this.termOf(m), run.index, run.index + run[0].length);
    }
    matches.sort((a, b) => a.start - b.start);
    return { explicit: matches.length > 0, matches, terms: [...new Set(matches.map((m) => m.term))] };
  }

  private termOf(match: MatchPayload): string {
    return this.dataset.getPayloadWithPhraseMetadata(match).phraseMetadata?.originalWord ?? 'explicit';
  }
}
