/**
 * Tokenizer and normaliser for song lyrics. Line breaks and section boundaries are part of the token stream
 * (`<nl>`, `<sec:chorus>`), because where a line ends and a chorus starts is what a lyric model must learn.
 * Language-aware: English keeps contractions ("don't", "i'm") as one word; Spanish drops the inverted marks
 * ¿ ¡ and keeps accents and ñ (they change the word: "año" vs "ano"). Other languages fall back to Unicode
 * letter runs.
 */
import type { LyricsDocument } from '../types.js';

export const BOS = '<s>';
export const EOS = '</s>';
export const NEWLINE = '<nl>';
export const UNKNOWN = '<unk>';
const SECTION_PREFIX = '<sec:';

export function sectionToken(sectionName: string): string {
  return `${SECTION_PREFIX}${sectionKind(sectionName)}>`;
}

export function isSectionToken(token: string): boolean {
  return token.startsWith(SECTION_PREFIX);
}

/** True for tokens that are markup rather than words (never counted as a word, rhymed or shown). */
export function isSpecialToken(token: string): boolean {
  return token.startsWith('<') && token.endsWith('>');
}

/** "verse_2" -> "verse", "Pre-Chorus" -> "pre_chorus": the kind of section, without its number. */
export function sectionKind(sectionName: string): string {
  return sectionName
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_')
    .replace(/_?\d+$/, '');
}

const WORD_WITH_APOSTROPHES = /[\p{L}\p{N}]+(?:'[\p{L}]+)*/gu;
const WORD_PLAIN = /[\p{L}\p{N}]+/gu;

function normaliseQuotes(text: string): string {
  return text.normalize('NFC').replace(/[\u2018\u2019\u02bc\u0060\u00b4]/g, "'");
}

/** The words of one line, lower-cased for the given language. */
export function tokenizeLine(line: string, language: string): string[] {
  const lowered = normaliseQuotes(line).toLocaleLowerCase(localeFor(language));
  const pattern = language === 'en' ? WORD_WITH_APOSTROPHES : WORD_PLAIN;
  return lowered.replace(/[¿¡]/g, ' ').match(pattern) ?? [];
}

function localeFor(language: string): string {
  return /^[a-z]{2,3}$/.test(language) ? language : 'en';
}

/**
 * The training stream of one song: `<s> <s> <sec:verse> w w <nl> w w <nl> <sec:chorus> ... </s>`.
 * `padding` copies of `<s>` give every first word a full-order context.
 */
export function documentTokens(doc: LyricsDocument, padding: number): string[] {
  const tokens: string[] = Array.from({ length: padding }, () => BOS);
  for (const section of doc.sections) {
    tokens.push(sectionToken(section.name));
    for (const line of section.lines) {
      const words = tokenizeLine(line, doc.language);
      if (words.length === 0) continue;
      tokens.push(...words, NEWLINE);
    }
  }
  tokens.push(EOS);
  return tokens;
}

/** Strip accents one character at a time, so string positions are preserved (needed to report match offsets). */
export function foldDiacritics(text: string): string {
  let out = '';
  for (const ch of text) {
    const base = ch.normalize('NFD')[0] ?? ch;
    out += base.length === ch.length ? base : ch;
  }
  return out;
}

/**
 * The comparison form of a line for copy detection: lower case, no accents, no punctuation, single spaces.
 * "Hold ON, to the Light!" and "hold on to the light" compare equal.
 */
export function normaliseForMatching(line: string): string {
  return foldDiacritics(normaliseQuotes(line).toLowerCase())
    .replace(/'/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

const STOPWORDS: Record<string, ReadonlySet<string>> = {
  en: new Set(['the', 'and', 'you', 'i', 'my', 'to', 'is', 'in', 'of', 'me', 'we', 'it', 'your', 'on', 'a', "i'm", "don't", 'with']),
  es: new Set(['el', 'la', 'de', 'que', 'y', 'en', 'mi', 'tu', 'me', 'te', 'los', 'las', 'un', 'una', 'por', 'con', 'no', 'se']),
};

/** Best-guess language of free text ("en", "es"), for texts that arrive without a language tag. */
export function detectLanguage(text: string): string {
  let best = 'en';
  let bestHits = -1;
  for (const [language, words] of Object.entries(STOPWORDS)) {
    const hits = tokenizeLine(text, language).filter((w) => words.has(w)).length;
    if (hits > bestHits) {
      best = language;
      bestHits = hits;
    }
  }
  return best;
}
