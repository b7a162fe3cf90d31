/**
 * Rhyme keys from spelling. Two words rhyme when their keys are equal and the words differ.
 *
 * English: the sound of the last stressed vowel plus the consonants after it, approximated from spelling
 * ("night" and "bright" -> "ai|t", "time" and "rhyme" -> "ai|m", "me" and "free" -> "ee|"). Spelling is
 * ambiguous ("down"/"known"), so a few word lists settle the common cases.
 * Spanish: assonance, the vowels from the stressed one to the end of the word ("corazón"/"amor" -> "o",
 * "luna"/"ninguna" -> "ua"), with stress from the written accent or the penultimate/last-syllable rule;
 * `spanishConsonantKey` adds the consonants ("luna"/"ninguna" -> "una": consonant rhyme, the stronger one).
 */
import { foldDiacritics } from './tokenizer.js';
import { spanishNuclei } from './syllables.js';

export function rhymeKey(word: string, language: string): string {
  const w = word.toLowerCase().replace(/'/g, '');
  if (!/\p{L}/u.test(w)) return '';
  if (language === 'es') return spanishRhymeKey(w);
  if (language === 'en') return englishRhymeKey(w);
  return foldDiacritics(w).slice(-3); // other languages: the last three letters, a crude but safe default
}

export function wordsRhyme(a: string, b: string, language: string): boolean {
  if (a.toLowerCase() === b.toLowerCase()) return false;
  const ka = rhymeKey(a, language);
  return ka !== '' && ka === rhymeKey(b, language);
}

// ---- English ----

const OW_AS_IN_NOW = new Set([
  'now',
  'how',
  'cow',
  'wow',
  'allow',
  'vow',
  'bow',
  'down',
  'town',
  'crown',
  'gown',
  'brown',
  'drown',
  'frown',
  'clown',
  'owl',
  'howl',
  'crowd',
  'loud',
]);
const SHORT_EA = new Set(['head', 'dead', 'bread', 'read', 'instead', 'thread', 'spread', 'ahead', 'breath', 'death', 'dread', 'bed']);
const O_AS_IN_DO = new Set(['do', 'to', 'who', 'two', 'into', 'through', 'you', 'lose', 'move', 'prove', 'whose']);
const SPECIAL: Record<string, string> = {
  eyes: 'ai|s',
  eye: 'ai|',
  i: 'ai|',
  the: 'uh|',
  a: 'uh|',
  love: 'u|v',
  above: 'u|v',
  of: 'u|v',
  come: 'u|m',
  some: 'u|m',
  done: 'u|n',
  one: 'u|n',
  none: 'u|n',
  higher: 'ai|',
  tongue: 'u|ng',
  young: 'u|ng',
  among: 'u|ng',
  gone: 'o|n',
  heart: 'ar|t',
  are: 'ar|',
  were: 'er|',
  your: 'or|',
  four: 'or|',
  more: 'or|',
  door: 'or|',
  floor: 'or|',
  soul: 'oa|l',
  though: 'oa|',
  again: 'e|n',
  said: 'e|d',
  says: 'e|s',
  been: 'i|n',
  they: 'ay|',
  grey: 'ay|',
  give: 'i|v',
  live: 'i|v',
  have: 'a|v',
  friend: 'e|nd',
  word: 'er|d',
  world: 'er|ld',
};

const LONG_VOWEL: Record<string, string> = { a: 'ay', e: 'ee', i: 'ai', y: 'ai', o: 'oa', u: 'oo' };

function englishRhymeKey(raw: string): string {
  const w = foldDiacritics(raw).replace(/[^a-z]/g, '');
  if (w.length === 0) return '';
  if (SPECIAL[w]) return SPECIAL[w];
  if (SHORT_EA.has(w)) return `e|${normaliseCoda(w.slice(w.lastIndexOf('ea') + 2))}`;
  if (O_AS_IN_DO.has(w)) return `oo|${normaliseCoda(w.replace(/.*?(?:ou|o)(?=[^aeiou]*e?$)/, '').replace(/e$/, ''))}`;

  // Magic e: single vowel + one consonant + final e makes the vowel long ("time", "home", "late").
  const magic = /([aeiouy])([^aeiouy]{1,2})e(s|d)?$/.exec(w);
  if (magic && !/[aeiou]$/.test(w.slice(0, magic.index)) && w.length > 3) {
    const coda = magic[2] === 'r' ? `r${magic[3] ?? ''}` : normaliseCoda(magic[2] + (magic[3] ?? ''));
    if (magic[2] === 'r') return `${magic[1] === 'i' || magic[1] === 'y' ? 'ai' : magic[1] === 'o' ? 'or' : magic[1] + 'r'}|${coda.slice(1)}`;
    return `${LONG_VOWEL[magic[1]]}|${coda}`;
  }
  const core = w.replace(/e$/, '').length >= 2 ? w.replace(/([^aeiouy])e$/, '$1') : w;
  // A w after a vowel belongs to the vowel ("slow", "down", "new").
  const lastVowel = /([aeiouy]+w?)([^aeiouyw]*)$/;
  const match = lastVowel.exec(core.slice(1)) ?? lastVowel.exec(core);
  if (!match) return `${core}|`;
  const vowels = match[1];
  let coda = match[2];
  const before = core.slice(0, core.length - vowels.length - coda.length);
  const multiSyllable = /[aeiouy]/.test(before.slice(1));
  let sound = vowelSound(vowels, coda, core, multiSyllable);
  if (coda.startsWith('gh')) {
    coda = coda.slice(2); // "night", "high", "though"
    if (vowels === 'i') sound = 'ai';
  }
  if (coda.startsWith('r') && !/[aeiou]{2}/.test(vowels)) {
    sound = vowels === 'a' ? 'ar' : vowels === 'o' ? 'or' : 'er';
    coda = coda.slice(1);
  }
  if (vowels === 'i' && /^(nd|ld)$/.test(coda)) sound = 'ai'; // "find", "mind", "wild"
  if (vowels === 'o' && /^(ld|lt|st)$/.test(coda) && !/^(lost|cost|frost)$/.test(core)) sound = 'oa'; // "cold", "most"
  if (vowels === 'a' && /^(ll|lk)$/.test(coda)) sound = 'aw';
  return `${sound}|${normaliseCoda(coda)}`;
}

function vowelSound(vowels: string, coda: string, word: string, multiSyllable: boolean): string {
  const open = coda === '';
  switch (vowels) {
    case 'ee':
    case 'ea':
    case 'ei':
      return 'ee';
    case 'ie':
      return open && !multiSyllable ? 'ai' : multiSyllable ? 'ee' : 'ai';
    case 'ey':
      return 'ee';
    case 'ai':
    case 'ay':
      return 'ay';
    case 'oa':
    case 'oe':
      return 'oa';
    case 'oo':
    case 'ue':
    case 'ui':
      return 'oo';
    case 'au':
    case 'aw':
      return 'aw';
    case 'ew':
    case 'iew':
      return 'oo';
    case 'ow':
    case 'ou':
      return OW_AS_IN_NOW.has(word) ? 'au' : vowels === 'ou' ? (open ? 'oo' : 'au') : 'oa';
    case 'oi':
    case 'oy':
      return 'oy';
    case 'eye':
    case 'uy':
      return 'ai';
    case 'y':
      return multiSyllable ? 'ee' : 'ai';
    case 'e':
      return open ? 'ee' : 'e';
    case 'o':
      return open ? 'oa' : 'o';
    case 'a':
      return open ? 'ah' : 'a';
    case 'i':
      return open ? 'ee' : 'i';
    case 'u':
      return open ? 'oo' : 'u';
    default: {
      if (vowels.endsWith('y') && vowels.length === 2) return vowelSound(vowels, coda, word, multiSyllable);
      return vowelSound(vowels.slice(-1), coda, word, multiSyllable);
    }
  }
}

function normaliseCoda(coda: string): string {
  return coda.replace(/ck/g, 'k').replace(/ph/g, 'f').replace(/gh/g, '').replace(/mb$/, 'm').replace(/z/g, 's').replace(/c$/, 'k').replace(/(.)\1/g, '$1');
}

// ---- Spanish ----

const ACCENTED = /[áéíóú]/;

function stressedNucleus(w: string, nuclei: readonly string[]): number {
  const stressed = nuclei.findIndex((n) => ACCENTED.test(n));
  if (stressed >= 0) return stressed;
  return /[aeiouns]$/.test(w) && nuclei.length > 1 ? nuclei.length - 2 : nuclei.length - 1;
}

/**
 * Spanish consonant rhyme: every sound from the stressed vowel to the end ("canción"/"corazón" -> "on",
 * "luna"/"ninguna" -> "una"), spelt as heard: accents off, silent h dropped, b/v, c/z/s before e/i, ll/y,
 * g/j before e/i merged. Two words with equal keys rhyme in consonance; equal `rhymeKey`s only in assonance.
 */
export function spanishConsonantKey(word: string): string {
  const w = word.toLowerCase().replace(/[^a-záéíóúüñ]/g, '');
  const nuclei = spanishNuclei(w);
  if (nuclei.length === 0) return '';
  const stressed = stressedNucleus(w, nuclei);
  // The stressed nucleus's vowel letters are found from the end, past the nuclei after it.
  let at = w.length;
  for (let i = nuclei.length - 1; i >= stressed; i--) at = w.lastIndexOf(nuclei[i], at - 1);
  const tail = w.slice(at + Math.max(0, nuclei[stressed].length - 1));
  return foldDiacritics(tail)
    .replace(/ch/g, 'ʧ')
    .replace(/h/g, '')
    .replace(/v/g, 'b')
    .replace(/z/g, 's')
    .replace(/c(?=[ei])/g, 's')
    .replace(/ll/g, 'y')
    .replace(/g(?=[ei])/g, 'j')
    .replace(/qu/g, 'k')
    .replace(/c/g, 'k')
    .replace(/ʧ/g, 'ch');
}

function spanishRhymeKey(w: string): string {
  const nuclei = spanishNuclei(w.replace(/[^a-záéíóúüñ]/g, ''));
  if (nuclei.length === 0) return '';
  const stressed = stressedNucleus(w, nuclei);
  return nuclei
    .slice(stressed)
    .map((n, i) => nucleusVowel(n, i === 0))
    .join('');
}

/** The vowel heard in a nucleus: the accented one, else the strong one, else (two weak vowels) the second. */
function nucleusVowel(nucleus: string, stressed: boolean): string {
  const accented = /[áéíóú]/.exec(nucleus);
  if (accented) return foldDiacritics(accented[0]);
  const strong = /[aeo]/.exec(nucleus);
  if (strong) return strong[0];
  const letters = nucleus.replace(/y/g, 'i').replace(/ü/g, 'u');
  return stressed ? letters.slice(-1) : letters.slice(-1);
}
