/**
 * Syllable counts from spelling, good enough to keep sung lines in a singable range (no pronunciation
 * dictionary ships with the engine). English: vowel groups, minus silent final -e / -ed / -es. Spanish:
 * vowel nuclei with diphthongs (an unaccented i/u next to another vowel joins it) and synalepha (a word
 * ending in a vowel runs into the next word starting with one, as it is sung).
 */
import { foldDiacritics, tokenizeLine } from './tokenizer.js';

export function countWordSyllables(word: string, language: string): number {
  const w = word.toLowerCase().replace(/'/g, '');
  if (w.length === 0) return 0;
  return language === 'es' ? spanishWordSyllables(w) : englishWordSyllables(w);
}

export function countLineSyllables(line: string, language: string): number {
  const words = tokenizeLine(line, language);
  let total = 0;
  for (let i = 0; i < words.length; i++) {
    total += countWordSyllables(words[i], language);
    if (language === 'es' && i > 0 && endsWithVowel(words[i - 1]) && startsWithVowel(words[i])) total--;
  }
  return total;
}

function englishWordSyllables(w: string): number {
  let word = foldDiacritics(w).replace(/[^a-z]/g, '');
  if (word.length === 0) return 1;
  if (word.length <= 3) return Math.max(1, (word.match(/[aeiouy]+/g) ?? []).length);
  word = word
    .replace(/(?:[^laeiouysxzcg]es|[^laeiouytd]ed|[^laeiouy]e)$/, (m) => m[0]) // silent -es, -ed, -e ("times", "loved", "home")
    .replace(/^y/, ''); // initial y is a consonant ("yellow")
  const groups = word.match(/[aeiouy]+/g) ?? [];
  let count = groups.length;
  // "-ia"/"-io"/"-ua" in the middle of longer words are usually two syllables ("lion", "piano", "truant").
  count += (word.match(/[^aeiou](?:ia|io|ua|eo)/g) ?? []).length;
  return Math.max(1, count);
}

const STRONG = new Set(['a', 'e', 'o', 'á', 'é', 'ó', 'í', 'ú']);
const SPANISH_VOWEL = /[aeiouáéíóúü]/;

/** Vowel nuclei of a Spanish word, each as the vowel letters it contains (e.g. "ciudad" -> ["iu", "a"]). */
export function spanishNuclei(word: string): string[] {
  const w = word.replace(/(?<=[qg])u(?=[eéiíy])/g, ''); // the u of que/qui/gue/gui is silent
  const nuclei: string[] = [];
  let current = '';
  let currentHasStrong = false;
  for (let i = 0; i < w.length; i++) {
    const ch = w[i];
    // y is a vowel only at the end of a word after a vowel ("hoy", "rey") or as the word "y".
    const isVowel = SPANISH_VOWEL.test(ch) || (ch === 'y' && (w.length === 1 || (i === w.length - 1 && current !== '')));
    if (!isVowel) {
      if (current) nuclei.push(current);
      current = '';
      currentHasStrong = false;
      continue;
    }
    const strong = STRONG.has(ch);
    if (current && strong && currentHasStrong) {
      nuclei.push(current); // hiatus: two strong vowels are two syllables ("po-e-ta")
      current = ch;
      currentHasStrong = true;
      continue;
    }
    current += ch;
    currentHasStrong ||= strong;
  }
  if (current) nuclei.push(current);
  return nuclei;
}

function spanishWordSyllables(w: string): number {
  return Math.max(1, spanishNuclei(w).length);
}

function endsWithVowel(word: string): boolean {
  return /[aeiouáéíóúy]$/.test(word);
}

/** A vowel sound at the start: a vowel or silent h + vowel, or the conjunctions "y", "o", "u", "e" ("luna y sol" is lu-nay-sol). */
function startsWithVowel(word: string): boolean {
  return /^h?[aeiouáéíóú]/.test(word) || word === 'y';
}
