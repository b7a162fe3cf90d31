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

/** Moods the corpus does not use, said with one it does ("happy" songs are tagged "joyful"). */
const MOOD_ALIASES: Record<string, string> = {
  happy: 'joyful',
  upbeat: 'energetic',
  sad: 'melancholic',
  chill: 'calm',
  relaxed: 'calm',
  angry: 'defiant',
  excited: 'euphoric',
  peaceful: 'calm',
  alegre: 'joyful',
  triste: 'melancholic',
  tranquilo: 'calm',
  energético: 'energetic',
};
/** Moods whose words would contradict the asked one: an energetic song should not sing "slow" and "sleep". */
const OPPOSITE_MOODS: Record<string, readonly string[]> = {
  energetic: ['calm', 'sleepy', 'melancholic'],
  euphoric: ['calm', 'sleepy', 'melancholic'],
  joyful: ['melancholic', 'sleepy'],
  defiant: ['sleepy', 'calm'],
  calm: ['energetic', 'euphoric', 'restless'],
  sleepy: ['energetic', 'euphoric', 'restless'],
  melancholic: ['euphoric', 'joyful'],
};
/** How strongly a contradicting mood word is pushed away (its weight times this, negative). */
const OPPOSITE_SCALE = 1;
/**
 * Words of rest and slowness. The corpus uses them across many moods, so log-odds do not single them out,
 * yet an energetic song singing "slow" or "sleep" contradicts its mood: upbeat moods push them far away.
 */
const LOW_ENERGY_WORDS: Record<string, readonly string[]> = {
  en: ['slow', 'slowly', 'slower', 'sleep', 'sleeps', 'sleeping', 'sleepy', 'asleep', 'quiet', 'quietly', 'tired', 'drowsy', 'lullaby', 'hush', 'yawn'],
  es: ['lento', 'lenta', 'despacio', 'dormir', 'duerme', 'duermen', 'dormido', 'dormida', 'sueño', 'cansado', 'cansada', 'silencio', 'calma', 'bajito'],
};
const UPBEAT_MOODS = new Set(['energetic', 'euphoric', 'joyful', 'defiant', 'determined']);
/** Weight of a word the request rules out: the line writer never uses it (see FORBIDDEN_WEIGHT). */
const LOW_ENERGY_WEIGHT = -5;
/** Bias weights at or below this are a hard rule, not a preference. */
export const FORBIDDEN_WEIGHT = LOW_ENERGY_WEIGHT;

/** Moods as the lexicon knows them: aliases resolved ("happy" -> "joyful"). */
function askedMoods(moods: readonly string[]): string[] {
  return moods.map((m) => MOOD_ALIASES[tagKey(m)] ?? tagKey(m));
}

/** Word -> bias weight in (0, 1] for a request's moods and theme; tags never seen in training contribute nothing. */
export function biasWordsFor(lexicon: Lexicon, moods: readonly string[], theme: string, language: string): Map<string, number> {
  const weights = new Map<string, number>();
  const addTag = (tag: string, scale: number) => {
    for (const [w, weight] of lexicon[tagKey(tag)] ?? []) weights.set(w, Math.max(weights.get(w) ?? 0, weight * scale));
  };
  for (const mood of askedMoods(moods)) addTag(mood, 1);
  addTag(theme, 1);
  for (const w of themeWords(theme, language)) {
    addTag(w, 0.7);
    weights.set(w, Math.max(weights.get(w) ?? 0, 1)); // the theme's own words, when the model knows them
  }
  return weights;
}

/**
 * Word -> negative weight for words that contradict the asked moods: words of an opposite mood that the
 * asked moods and theme do not use themselves, and rest words in an upbeat song unless the theme names them.
 */
export function moodPenaltiesFor(lexicon: Lexicon, moods: readonly string[], theme: string, language: string): Map<string, number> {
  const asked = askedMoods(moods);
  const wanted = biasWordsFor(lexicon, moods, theme, language);
  const weights = new Map<string, number>();
  if (asked.some((m) => UPBEAT_MOODS.has(m))) {
    const themeOwn = new Set(themeWords(theme, language));
    for (const w of LOW_ENERGY_WORDS[language] ?? []) if (!themeOwn.has(w)) weights.set(w, LOW_ENERGY_WEIGHT);
  }
  const opposite = new Set(asked.flatMap((m) => OPPOSITE_MOODS[m] ?? []).filter((m) => !asked.includes(m)));
  for (const mood of opposite) {
    for (const [w, weight] of lexicon[mood] ?? []) {
      if (!wanted.has(w)) weights.set(w, Math.min(weights.get(w) ?? 0, -weight * OPPOSITE_SCALE));
    }
  }
  return weights;
}
