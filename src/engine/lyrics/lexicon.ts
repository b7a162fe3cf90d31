/**
 * Theme and mood lexicon learned from the corpus tags: for every mood tag ("melancholic"), every theme
 * ("leaving home") and every content word of a theme ("home"), the words that are over-represented in the
 * songs carrying that tag, scored by smoothed log-odds against the whole language corpus. Generation adds
 * these scores as a sampling bias, so "melancholic" pulls toward the words melancholic songs actually use.
 */
import type { LyricsDocument } from '../types.js';
import { isSpecialToken, tokenizeLine } from './tokenizer.js';

/** tag -> [word, weight in (0, 1]] sorted by weight, strongest first. */
export type Lexicon = Record<string, Array<[string, number]>>;

const WORDS_PER_TAG = 40;
const SMOOTHING = 0.5;
const THEME_STOPWORDS = new Set(['the', 'a', 'an', 'of', 'and', 'at', 'in', 'on', 'to', 'el', 'la', 'los', 'las', 'de', 'del', 'y', 'en', 'un', 'una']);

export function tagKey(tag: string): string {
  return tag.trim().toLowerCase();
}

/** Content words of a theme: "leaving home" -> ["leaving", "home"]. */
export function themeWords(theme: string, language: string): string[] {
  return tokenizeLine(theme, language).filter((w) => !THEME_STOPWORDS.has(w) && w.length > 2);
}

export function learnLexicon(docs: readonly LyricsDocument[], language: string): Lexicon {
  const global = new Map<string, number>();
  const docFrequency = new Map<string, number>();
  const byTag = new Map<string, Map<string, number>>();
  for (const doc of docs) {
    const words = doc.sections.flatMap((s) => s.lines.flatMap((l) => tokenizeLine(l, language))).filter((w) => !isSpecialToken(w));
    const tags = new Set([...doc.mood.map(tagKey), tagKey(doc.theme), ...themeWords(doc.theme, language)]);
    for (const w of new Set(words)) docFrequency.set(w, (docFrequency.get(w) ?? 0) + 1);
    for (const w of words) global.set(w, (global.get(w) ?? 0) + 1);
    for (const tag of tags) {
      let counts = byTag.get(tag);
      if (!counts) byTag.set(tag, (counts = new Map()));
      for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
    }
  }
  const globalTotal = [...global.values()].reduce((a, b) => a + b, 0);
  const vocabSize = global.size;
  const lexicon: Lexicon = {};
  for (const [tag, counts] of byTag) {
    const tagTotal = [...counts.values()].reduce((a, b) => a + b, 0);
    const scored: Array<[string, number]> = [];
    for (const [w, c] of counts) {
      // Function words that appear in most songs say nothing about a mood.
      if (c < 2 || (docFrequency.get(w) ?? 0) > docs.length * 0.5) continue;
      const inTag = (c + SMOOTHING) / (tagTotal + SMOOTHING * vocabSize);
      const overall = ((global.get(w) ?? 0) + SMOOTHING) / (globalTotal + SMOOTHING * vocabSize);
      const logOdds = Math.log(inTag / overall);
      if (logOdds > 0) scored.push([w, logOdds]);
    }
    scored.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    const top = scored.slice(0, WORDS_PER_TAG);
    const max = top[0]?.[1] ?? 1;
    if (top.length > 0) lexicon[tag] = top.map(([w, s]) => [w, Math.round((s / max) * 1000) / 1000]);
  }
  return lexicon;
}

/** Word -> bias weight for a request's moods and theme; tags never seen in training contribute nothing. */
export function biasWordsFor(lexicon: Lexicon, moods: readonly string[], theme: string, language: string): Map<string, number> {
  const weights = new Map<string, number>();
  const addTag = (tag: string, scale: number) => {
    for (const [w, weight] of lexicon[tagKey(tag)] ?? []) weights.set(w, Math.max(weights.get(w) ?? 0, weight * scale));
  };
  for (const mood of moods) addTag(mood, 1);
  addTag(theme, 1);
  for (const w of themeWords(theme, language)) {
    addTag(w, 0.7);
    weights.set(w, Math.max(weights.get(w) ?? 0, 1)); // the theme's own words, when the model knows them
  }
  return weights;
}
