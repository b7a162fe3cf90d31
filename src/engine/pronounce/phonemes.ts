/**
 * The phoneme inventory shared by the pronunciation step and the singing synthesiser: CMUdict's ARPAbet
 * (English) without stress digits, plus the few sounds Spanish needs that English lacks (its five pure
 * vowels, the velar fricative of "jota", the trill and tap, and the palatal nasal of "ñ"). One inventory,
 * so a voice sings both languages with the same acoustic targets (src/engine/voice/targets.ts).
 */

export const VOWELS = [
  // English monophthongs; AX is CMUdict's unstressed AH0 (schwa), kept apart because it is shorter and central.
  'AA',
  'AE',
  'AH',
  'AX',
  'AO',
  'EH',
  'ER',
  'IH',
  'IY',
  'UH',
  'UW',
  // English diphthongs: two targets in one nucleus.
  'AW',
  'AY',
  'EY',
  'OW',
  'OY',
  // Spanish pure vowels (no off-glide).
  'a',
  'e',
  'i',
  'o',
  'u',
] as const;

export const CONSONANTS = [
  'B',
  'CH',
  'D',
  'DH',
  'F',
  'G',
  'HH',
  'JH',
  'K',
  'L',
  'M',
  'N',
  'NG',
  'P',
  'R',
  'S',
  'SH',
  'T',
  'TH',
  'V',
  'W',
  'Y',
  'Z',
  'ZH',
  // Spanish: velar fricative (j, ge/gi), trill (rr, initial r), tap (single r), palatal nasal (ñ).
  'X',
  'RR',
  'DX',
  'NY',
] as const;

export type Vowel = (typeof VOWELS)[number];
export type Consonant = (typeof CONSONANTS)[number];
export type Phoneme = Vowel | Consonant;

const VOWEL_SET: ReadonlySet<string> = new Set(VOWELS);
const CONSONANT_SET: ReadonlySet<string> = new Set(CONSONANTS);

export function isVowel(p: string): p is Vowel {
  return VOWEL_SET.has(p);
}

export function isPhoneme(p: string): p is Phoneme {
  return VOWEL_SET.has(p) || CONSONANT_SET.has(p);
}

/** One sung syllable: consonants before the vowel, the vowel (sustained on the note), consonants after. */
export interface Syllable {
  onset: Consonant[];
  nucleus: Vowel[]; // one vowel; two when Spanish synalepha joins a word's last vowel to the next word's first
  coda: Consonant[];
  stress: 0 | 1 | 2; // 1 primary, 2 secondary, 0 unstressed
  /** The spelling this syllable came from (whole word on its first syllable, "" on the others: for display). */
  text: string;
}

export interface PronouncedWord {
  word: string;
  syllables: Syllable[];
  /** Where the pronunciation came from: the dictionary, or the letter-to-sound rules. */
  source: 'dictionary' | 'rules';
}

export interface PronouncedLine {
  text: string;
  words: PronouncedWord[];
  /** The line's syllables in order (Spanish synalepha already applied), as they are sung. */
  syllables: Syllable[];
}
