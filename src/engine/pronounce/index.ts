/**
 * The pronunciation step: a lyric line -> words -> syllables (onset, vowel, coda, stress) to be placed on
 * notes. English through the CMU dictionary with rule fallback (english.ts), Spanish by rules (spanish.ts);
 * any other language is read with the Spanish rules, whose letters-as-written reading is the safer guess.
 */
import { tokenizeLine } from '../lyrics/tokenizer.js';
import { loadEnglishDictionary, pronounceEnglishWord, type PronouncingDictionary } from './english.js';
import type { PronouncedLine, PronouncedWord, Syllable } from './phonemes.js';
import { pronounceSpanishWord } from './spanish.js';

export type { PronouncedLine, PronouncedWord, Syllable } from './phonemes.js';

export interface Pronouncer {
  language: string;
  line(text: string): PronouncedLine;
}

export async function createPronouncer(language: string): Promise<Pronouncer> {
  const lang = language.trim().toLowerCase();
  const dict = lang === 'en' ? await loadEnglishDictionary() : null;
  return { language: lang, line: (text) => pronounceLine(text, lang, dict) };
}

export function pronounceLine(text: string, language: string, dict: PronouncingDictionary | null): PronouncedLine {
  const words: PronouncedWord[] = tokenizeLine(text, language).map((word) =>
    language === 'en' && dict ? unstressFunctionWord(pronounceEnglishWord(word, dict)) : pronounceSpanishWord(word),
  );
  const syllables: Syllable[] = [];
  words.forEach((word, k) => {
    const own = word.syllables.map((s) => ({ ...s, onset: [...s.onset], nucleus: [...s.nucleus], coda: [...s.coda] }));
    if (language !== 'en' && k > 0 && synalepha(words[k - 1].word, word.word) && syllables.length > 0) {
      // Sung Spanish runs a word's final vowel into the next word's first: one syllable, one note.
      const previous = syllables[syllables.length - 1];
      const first = own.shift()!;
      previous.nucleus.push(...previous.coda.map(glideToVowel), ...first.onset.map(glideToVowel), ...first.nucleus);
      previous.coda = first.coda;
      previous.stress = Math.max(previous.stress, first.stress) as 0 | 1 | 2;
      previous.text = previous.text ? `${previous.text} ${first.text}` : first.text;
    }
    syllables.push(...own);
  });
  return { text, words, syllables };
}

/**
 * The dictionary stresses every word said alone; in a sung line, one-syllable function words (articles,
 * prepositions, conjunctions, auxiliaries, possessives) are weak and belong off the beat.
 */
const FUNCTION_WORDS = new Set(
  'a an the and or but nor of to in on at by for with from as into than that is are was were be been am do does did has have had will would can could shall should may might must my your his her its our their'.split(
    ' ',
  ),
);

function unstressFunctionWord(word: PronouncedWord): PronouncedWord {
  if (word.syllables.length !== 1 || !FUNCTION_WORDS.has(word.word.toLowerCase())) return word;
  return { ...word, syllables: [{ ...word.syllables[0], stress: 0 }] };
}

/** The lyrics engine's rule (src/engine/lyrics/syllables.ts), so both count a line alike. */
function synalepha(previous: string, next: string): boolean {
  // The conjunction "y" is a vowel too: "luna y sol" is sung lu-nay-sol.
  return /[aeiouáéíóúy]$/i.test(previous) && (/^h?[aeiouáéíóú]/i.test(next) || next.toLowerCase() === 'y');
}

function glideToVowel(c: string): 'i' | 'u' {
  return c === 'W' ? 'u' : 'i';
}

export function syllableCount(line: PronouncedLine): number {
  return line.syllables.length;
}
