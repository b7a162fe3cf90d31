/**
 * Syllabification of a phoneme string by the maximal onset principle: the consonants between two vowels
 * go to the second syllable as far as they form an onset the language allows ("ex-tra", "a-pril",
 * "es-pe-ran-za"), the rest close the first. One vowel (or diphthong) is one syllable, so the count is
 * exactly the number of vowel nuclei.
 */
import { type Consonant, type Syllable, type Vowel, isVowel } from './phonemes.js';

export interface StressedPhone {
  phone: Vowel | Consonant;
  stress?: 0 | 1 | 2; // vowels only
}

const ENGLISH_ONSETS = new Set([
  'P L',
  'P R',
  'B L',
  'B R',
  'K L',
  'K R',
  'G L',
  'G R',
  'F L',
  'F R',
  'T R',
  'D R',
  'TH R',
  'SH R',
  'S P',
  'S T',
  'S K',
  'S M',
  'S N',
  'S L',
  'S W',
  'S F',
  'T W',
  'D W',
  'K W',
  'G W',
  'TH W',
  'P Y',
  'B Y',
  'K Y',
  'F Y',
  'M Y',
  'HH Y',
  'V Y',
  'G Y',
  'S P L',
  'S P R',
  'S T R',
  'S K R',
  'S K W',
  'S P Y',
  'S K Y',
  'S K L',
]);

const SPANISH_BASE_ONSETS = ['P L', 'P R', 'B L', 'B R', 'F L', 'F R', 'K L', 'K R', 'G L', 'G R', 'T R', 'D R', 'T L'];

/** Spanish onsets: the stop/fricative + liquid clusters, each optionally followed by a diphthong's glide. */
const SPANISH_ONSETS = new Set<string>();
for (const cluster of SPANISH_BASE_ONSETS) {
  SPANISH_ONSETS.add(cluster);
  SPANISH_ONSETS.add(`${cluster} W`);
  SPANISH_ONSETS.add(`${cluster} Y`);
}

function legalOnset(cluster: readonly Consonant[], language: string): boolean {
  if (cluster.length === 0) return true;
  if (cluster.length === 1) return cluster[0] !== 'NG';
  const key = cluster.join(' ');
  if (language === 'es') {
    // Any single consonant followed by a glide ("bue-no", "tie-ne", "llue-ve"), or a listed cluster.
    if (cluster.length === 2 && (cluster[1] === 'W' || cluster[1] === 'Y') && cluster[0] !== 'W' && cluster[0] !== 'Y') return true;
    return SPANISH_ONSETS.has(key);
  }
  return ENGLISH_ONSETS.has(key);
}

/** Splits a phoneme string into syllables; `text` is the word, placed on the first syllable. */
export function syllabify(phones: readonly StressedPhone[], language: string, text = ''): Syllable[] {
  const vowelAt: number[] = [];
  phones.forEach((p, i) => {
    if (isVowel(p.phone)) vowelAt.push(i);
  });
  if (vowelAt.length === 0) {
    // A word with no vowel ("hmm", "sh") is sung on a neutral vowel so it still takes a note.
    return [{ onset: phones.map((p) => p.phone as Consonant), nucleus: ['AX'], coda: [], stress: 0, text }];
  }
  const syllables: Syllable[] = vowelAt.map((at, k) => ({
    onset: [],
    nucleus: [phones[at].phone as Vowel],
    coda: [],
    stress: phones[at].stress ?? 0,
    text: k === 0 ? text : '',
  }));
  syllables[0].onset = phones.slice(0, vowelAt[0]).map((p) => p.phone as Consonant);
  for (let k = 0; k < vowelAt.length - 1; k++) {
    const between = phones.slice(vowelAt[k] + 1, vowelAt[k + 1]).map((p) => p.phone as Consonant);
    let split = 0; // index in `between` where the next onset starts
    while (split < between.length && !legalOnset(between.slice(split), language)) split++;
    syllables[k].coda = between.slice(0, split);
    syllables[k + 1].onset = between.slice(split);
  }
  syllables[syllables.length - 1].coda = phones.slice(vowelAt[vowelAt.length - 1] + 1).map((p) => p.phone as Consonant);
  return syllables;
}
