/**
 * English letter-to-sound rules: the fallback for words the dictionary lacks (names, coinages, misspellings).
 * Ordered context rules in the manner of the NRL rules (Elovitz et al. 1976) and eSpeak's *_rules files,
 * written here from the usual spelling patterns: the first rule whose letters and left/right context match
 * at the current position emits its phonemes and consumes its letters. Then stress goes to the first
 * syllable, or the second after an unstressed prefix ("be-", "re-", "a-"...).
 */
import type { Consonant, Vowel } from './phonemes.js';
import type { StressedPhone } from './syllabify.js';

interface Rule {
  /** Letters consumed. */
  letters: string;
  /** Tested on the text before the letters ("#" marks the word start). */
  left?: RegExp;
  /** Tested on the text after the letters ("#" marks the word end). */
  right?: RegExp;
  phones: string;
}

const C = '[bcdfghjklmnpqrstvwxz]';
const V = '[aeiouy]';
const r = (letters: string, phones: string, left?: string, right?: string): Rule => ({
  letters,
  phones,
  left: left === undefined ? undefined : new RegExp(`(?:${left})$`),
  right: right === undefined ? undefined : new RegExp(`^(?:${right})`),
});

// Longer and more specific rules first; within a letter the first match wins.
const RULES: Rule[] = [
  // Suffixes and whole patterns.
  r('tion', 'SH AX N'),
  r('sion', 'ZH AX N', V),
  r('sion', 'SH AX N'),
  r('cial', 'SH AX L'),
  r('tial', 'SH AX L'),
  r('ture', 'CH ER'),
  r('ous', 'AX S', undefined, '#'),
  r('ful', 'F AX L', '.', '#'),
  r('less', 'L AX S', '.', '#'),
  r('ness', 'N AX S', '.', '#'),
  r('ing', 'IH NG', '.', "[#s']"),
  r('ed', 'IH D', '[td]', '#'),
  r('ed', 'D', `[bgjlmnrvwz]|${V}`, '#'),
  r('ed', 'T', '.', '#'),
  r('es', 'IH Z', '(?:[sxz]|ch|sh|[cg])', '#'),
  r('es', 'Z', `${C}`, '#'),
  r("'s", 'Z', '.', '#'),
  r("'", ''),
  // Vowel groups.
  r('augh', 'AO'),
  r('ough', 'AO'),
  r('igh', 'AY'),
  r('eigh', 'EY'),
  r('ai', 'EY'),
  r('ay', 'EY'),
  r('au', 'AO'),
  r('aw', 'AO'),
  r('all', 'AO L'),
  r('alk', 'AO K'),
  r('ar', 'AA R', undefined, `(?:${C}|#)`),
  r('ee', 'IY'),
  r('ea', 'IY'),
  r('ei', 'EY'),
  r('ey', 'IY', '.', '#'),
  r('ey', 'EY'),
  r('ew', 'UW'),
  r('eu', 'UW'),
  r('er', 'ER', undefined, `(?:${C}|#)`),
  r('ie', 'AY', `#${C}`, '#'),
  r('ie', 'IY'),
  r('ir', 'ER', undefined, `(?:${C}|#)`),
  r('ind', 'AY N D', undefined, '#'),
  r('ild', 'AY L D', undefined, '#'),
  r('oo', 'UW'),
  r('ou', 'AW'),
  r('ow', 'OW', undefined, '#'),
  r('ow', 'AW'),
  r('oa', 'OW'),
  r('oi', 'OY'),
  r('oy', 'OY'),
  r('or', 'AO R', undefined, `(?:${C}|#)`),
  r('old', 'OW L D'),
  r('ost', 'OW S T', undefined, '#'),
  r('ue', 'UW'),
  r('ui', 'UW'),
  r('ur', 'ER', undefined, `(?:${C}|#)`),
  // Silent final e; "magic e" lengthens the vowel before one consonant.
  r('e', '', `.*${V}.*${C}`, '#'),
  r('a', 'EY', undefined, `${C}e#`),
  r('i', 'AY', undefined, `${C}e#`),
  r('o', 'OW', undefined, `${C}e#`),
  r('u', 'UW', undefined, `${C}e#`),
  r('e', 'IY', undefined, `${C}e#`),
  r('a', 'AX', `.`, '#'),
  r('o', 'OW', undefined, '#'),
  r('e', 'IY', `#${C}*`, '#'),
  r('i', 'AY', `#${C}*`, '#'),
  r('u', 'UW', undefined, '#'),
  r('y', 'Y', '#', V),
  r('y', 'AY', `#${C}+`, '#'),
  r('y', 'IY', '.', '#'),
  r('y', 'AY', `#${C}+`, `${C}e#`),
  r('y', 'IH'),
  r('a', 'AE'),
  r('e', 'EH'),
  r('i', 'IH'),
  r('o', 'AA'),
  r('u', 'AH'),
  // Consonant groups.
  r('tch', 'CH'),
  r('dge', 'JH'),
  r('sch', 'S K'),
  r('th', 'TH'),
  r('sh', 'SH'),
  r('ch', 'CH'),
  r('ph', 'F'),
  r('wh', 'W'),
  r('ck', 'K'),
  r('ng', 'NG', undefined, `(?:#|${C})`),
  r('nk', 'NG K'),
  r('qu', 'K W'),
  r('gh', 'G', '#'),
  r('gh', ''),
  r('kn', 'N', '#'),
  r('wr', 'R', '#'),
  r('gn', 'N', undefined, '#'),
  r('mb', 'M', undefined, '#'),
  r('c', 'S', undefined, '[eiy]'),
  r('c', 'K'),
  r('g', 'JH', undefined, '[eiy]'),
  r('g', 'G'),
  r('x', 'Z', '#'),
  r('x', 'K S'),
  r('s', 'Z', V, V),
  r('s', 'Z', `${V}`, '#'),
  r('j', 'JH'),
  r('q', 'K'),
  r('b', 'B'),
  r('d', 'D'),
  r('f', 'F'),
  r('h', 'HH'),
  r('k', 'K'),
  r('l', 'L'),
  r('m', 'M'),
  r('n', 'N'),
  r('p', 'P'),
  r('r', 'R'),
  r('s', 'S'),
  r('t', 'T'),
  r('v', 'V'),
  r('w', 'W'),
  r('z', 'Z'),
];

const UNSTRESSED_PREFIXES = /^(?:a|be|de|re|un|in|en|em|ex|pre|pro|con|com|for)(?=[a-z]{3,})/;
const VOWEL_PHONES = new Set(['AA', 'AE', 'AH', 'AX', 'AO', 'EH', 'ER', 'IH', 'IY', 'UH', 'UW', 'AW', 'AY', 'EY', 'OW', 'OY']);

/** Phonemes of an English word by rule; the word should be lower case letters (an apostrophe is dropped). */
export function englishByRules(word: string): StressedPhone[] {
  const letters = word.toLowerCase().replace(/[^a-z']/g, '');
  const phones: string[] = [];
  let i = 0;
  while (i < letters.length) {
    const rule = RULES.find((candidate) => matches(candidate, letters, i));
    if (!rule) {
      i++; // no rule for this character: skip it
      continue;
    }
    if (rule.phones) phones.push(...rule.phones.split(' '));
    i += rule.letters.length;
  }
  // Doubled letters ("ll", "ss") give doubled phones; a consonant is said once.
  const merged = phones.filter((p, k) => k === 0 || p !== phones[k - 1] || VOWEL_PHONES.has(p));
  return withStress(merged, UNSTRESSED_PREFIXES.test(letters) ? 1 : 0);
}

function matches(rule: Rule, word: string, at: number): boolean {
  if (!word.startsWith(rule.letters, at)) return false;
  const before = `#${word.slice(0, at)}`;
  const after = `${word.slice(at + rule.letters.length)}#`;
  return (!rule.left || rule.left.test(before)) && (!rule.right || rule.right.test(after));
}

function withStress(phones: string[], stressedVowel: number): StressedPhone[] {
  const vowelCount = phones.filter((p) => VOWEL_PHONES.has(p)).length;
  const target = Math.min(stressedVowel, Math.max(0, vowelCount - 1));
  let vowelIndex = 0;
  return phones.map((p) => {
    if (!VOWEL_PHONES.has(p)) return { phone: p as Consonant };
    const stress = vowelIndex++ === target ? 1 : 0;
    // An unstressed AH is a schwa.
    return { phone: (p === 'AH' && stress === 0 ? 'AX' : p) as Vowel, stress };
  });
}
