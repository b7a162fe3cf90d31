/**
 * English pronunciation: the CMU Pronouncing Dictionary (134k words, npm `cmu-pronouncing-dictionary`),
 * then, for a word it lacks, its stem plus a regular suffix ("dreamin'", "skylines", "neon-lit"), then the
 * letter-to-sound rules of english-rules.ts. The dictionary is a 4.7 MB module: it is imported on first
 * use only (a track without lyrics never loads it) and stays cached in the worker.
 */
import { englishByRules } from './english-rules.js';
import type { Consonant, PronouncedWord, Vowel } from './phonemes.js';
import { syllabify, type StressedPhone } from './syllabify.js';

export type PronouncingDictionary = Readonly<Record<string, string>>;

let loading: Promise<PronouncingDictionary> | null = null;

export function loadEnglishDictionary(): Promise<PronouncingDictionary> {
  loading ??= import('cmu-pronouncing-dictionary').then((module) => module.dictionary as PronouncingDictionary);
  return loading;
}

/** "HH AH0 L OW1" -> phones with stress; AH0 becomes the schwa AX. */
export function parseArpabet(entry: string): StressedPhone[] {
  return entry.split(' ').map((token) => {
    const match = /^([A-Z]+)([012])?$/.exec(token);
    if (!match) throw new Error(`bad ARPAbet token ${token}`);
    const [, phone, digit] = match;
    if (digit === undefined) return { phone: phone as Consonant };
    const stress = Number(digit) as 0 | 1 | 2;
    return { phone: (phone === 'AH' && stress === 0 ? 'AX' : phone) as Vowel, stress };
  });
}

/** Regular suffixes: the spelling, what to try as the stem, and the phones to add. */
const SUFFIXES: { ending: RegExp; stems: (stem: string) => string[]; phones: (last: string) => string }[] = [
  { ending: /(?:in'|ing)$/, stems: (s) => [s, `${s}e`, s.slice(0, -1)], phones: () => 'IH0 NG' },
  { ending: /ies$/, stems: (s) => [`${s}y`], phones: () => 'Z' },
  { ending: /'s$/, stems: (s) => [s], phones: sibilantZ },
  { ending: /s$/, stems: (s) => [s], phones: sibilantZ },
  { ending: /es$/, stems: (s) => [s], phones: () => 'IH0 Z' },
  { ending: /ed$/, stems: (s) => [s, `${s}e`, s.slice(0, -1)], phones: (last) => (last === 'T' || last === 'D' ? 'IH0 D' : VOICELESS.has(last) ? 'T' : 'D') },
  { ending: /ly$/, stems: (s) => [s], phones: () => 'L IY0' },
  { ending: /ness$/, stems: (s) => [s], phones: () => 'N AH0 S' },
  { ending: /er$/, stems: (s) => [s, `${s}e`, s.slice(0, -1)], phones: () => 'ER0' },
  { ending: /est$/, stems: (s) => [s, `${s}e`, s.slice(0, -1)], phones: () => 'AH0 S T' },
  { ending: /less$/, stems: (s) => [s], phones: () => 'L AH0 S' },
  { ending: /ful$/, stems: (s) => [s], phones: () => 'F AH0 L' },
];

const VOICELESS = new Set(['P', 'T', 'K', 'F', 'TH', 'S', 'SH', 'CH']);

function sibilantZ(last: string): string {
  if (['S', 'Z', 'SH', 'ZH', 'CH', 'JH'].includes(last)) return 'IH0 Z';
  return VOICELESS.has(last) ? 'S' : 'Z';
}

/** The word's phones: dictionary, stem + suffix, compound of two dictionary words, or rules. */
export function englishPhones(word: string, dict: PronouncingDictionary): { phones: StressedPhone[]; source: 'dictionary' | 'rules' } {
  const w = word.toLowerCase().replace(/[’‘]/g, "'");
  const direct = dict[w] ?? dict[w.replace(/'/g, '')];
  if (direct) return { phones: parseArpabet(direct), source: 'dictionary' };
  if (w.includes('-')) {
    const parts = w
      .split('-')
      .filter(Boolean)
      .map((part) => englishPhones(part, dict));
    return { phones: parts.flatMap((p) => p.phones), source: parts.every((p) => p.source === 'dictionary') ? 'dictionary' : 'rules' };
  }
  for (const suffix of SUFFIXES) {
    if (!suffix.ending.test(w)) continue;
    const bare = w.replace(suffix.ending, '');
    for (const stem of suffix.stems(bare)) {
      const entry = stem.length >= 2 ? dict[stem] : undefined;
      if (!entry) continue;
      const last = entry
        .split(' ')
        .at(-1)!
        .replace(/[012]$/, '');
      return { phones: parseArpabet(`${entry} ${suffix.phones(last)}`), source: 'dictionary' };
    }
  }
  // Compounds of two dictionary words ("moonlit", "heartbeat"), the longer first part tried first.
  for (let cut = w.length - 3; cut >= 3; cut--) {
    const head = dict[w.slice(0, cut)];
    const tail = dict[w.slice(cut)];
    if (head && tail) return { phones: [...parseArpabet(head), ...demote(parseArpabet(tail))], source: 'dictionary' };
  }
  return { phones: englishByRules(w), source: 'rules' };
}

/** The second part of a compound carries secondary stress at most. */
function demote(phones: StressedPhone[]): StressedPhone[] {
  return phones.map((p) => (p.stress === 1 ? { ...p, stress: 2 } : p));
}

export function pronounceEnglishWord(word: string, dict: PronouncingDictionary): PronouncedWord {
  const { phones, source } = englishPhones(word, dict);
  return { word, syllables: syllabify(phones, 'en', word), source };
}
