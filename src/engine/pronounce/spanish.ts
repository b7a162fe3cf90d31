/**
 * Spanish letter-to-sound rules. Spanish spelling is close to phonemic, so rules cover it: c/z (seseo,
 * as in Latin America and the Canaries: "cielo" /s/), g and j (the velar fricative before e/i), silent h,
 * qu/gu, ll/y (yeísmo), ñ, r/rr (tap vs trill), final and intervocalic d softened, n before velars.
 * Vowel letters run together into diphthongs the way the lyrics engine counts them
 * (src/engine/lyrics/syllables.ts): an unaccented i/u next to another vowel is a glide, two strong
 * vowels are a hiatus. Stress: the written accent, else the penultimate syllable for words ending in a
 * vowel, n or s, else the last.
 */
import { type Consonant, type PronouncedWord, type Vowel, isVowel } from './phonemes.js';
import { syllabify, type StressedPhone } from './syllabify.js';

const VOWEL_OF: Record<string, Vowel> = { a: 'a', e: 'e', i: 'i', o: 'o', u: 'u', á: 'a', é: 'e', í: 'i', ó: 'o', ú: 'u', ü: 'u', y: 'i' };
const ACCENTED = new Set(['á', 'é', 'í', 'ó', 'ú']);
const STRONG = new Set(['a', 'e', 'o', 'á', 'é', 'í', 'ó', 'ú']);

interface Token {
  phone?: Consonant;
  vowel?: string; // the vowel letter, when this token is one
}

/** Letters -> consonant phones and vowel letters (vowels are resolved to nuclei or glides afterwards). */
function tokenize(word: string): Token[] {
  const w = word.toLowerCase();
  const out: Token[] = [];
  const vowelAt = (k: number) => k >= 0 && k < w.length && /[aeiouáéíóúü]/.test(w[k]);
  for (let i = 0; i < w.length; i++) {
    const ch = w[i];
    const next = w[i + 1] ?? '';
    const push = (phone: Consonant) => out.push({ phone });
    if (ch === 'y') {
      // A vowel when it is the whole word or ends the word after a vowel ("y", "hoy", "rey"); else a consonant.
      if (w.length === 1 || (i === w.length - 1 && vowelAt(i - 1))) out.push({ vowel: 'y' });
      else push('Y');
      continue;
    }
    if (/[aeiouáéíóúü]/.test(ch)) {
      out.push({ vowel: ch });
      continue;
    }
    switch (ch) {
      case 'c':
        if (next === 'h') {
          push('CH');
          i++;
        } else push(/[eiéí]/.test(next) ? 'S' : 'K');
        break;
      case 'q':
        push('K');
        if (next === 'u') i++; // the u of que/qui is silent
        break;
      case 'g':
        if (/[eiéí]/.test(next)) push('X');
        else {
          push('G');
          if (next === 'u' && /[eiéí]/.test(w[i + 2] ?? '')) i++; // gue/gui: silent u (güe keeps it, as ü)
        }
        break;
      case 'l':
        if (next === 'l') {
          push('Y');
          i++;
        } else push('L');
        break;
      case 'r':
        if (next === 'r') {
          push('RR');
          i++;
        } else push(i === 0 || /[nls]/.test(w[i - 1]) ? 'RR' : 'DX');
        break;
      case 'n':
        push(/[gkjx]|c(?![eiéí])|q/.test(next) ? 'NG' : 'N');
        break;
      case 'd':
        // Final d and d between vowels are soft (approximant, close to English "th" in "this").
        push(i === w.length - 1 || (vowelAt(i - 1) && vowelAt(i + 1)) ? 'DH' : 'D');
        break;
      case 'h':
        break; // silent
      case 'ñ':
        push('NY');
        break;
      case 'j':
        push('X');
        break;
      case 'z':
        push('S');
        break;
      case 'v':
      case 'b':
        push('B');
        break;
      case 'x':
        push('K');
        push('S');
        break;
      case 'w':
        push('W');
        break;
      case 'k':
        push('K');
        break;
      default:
        if ('fmlnpst'.includes(ch)) push(ch.toUpperCase() as Consonant);
    }
  }
  return out;
}

/** Resolves runs of vowel letters into nuclei and glides (Y, W). */
function resolveVowels(tokens: Token[]): { phone: Vowel | Consonant; accented: boolean }[] {
  const out: { phone: Vowel | Consonant; accented: boolean }[] = [];
  for (let i = 0; i < tokens.length;) {
    if (tokens[i].phone) {
      out.push({ phone: tokens[i].phone!, accented: false });
      i++;
      continue;
    }
    const run: string[] = [];
    while (i < tokens.length && tokens[i].vowel) run.push(tokens[i++].vowel!);
    // Split the run at hiatus (two strong vowels side by side), then give each group one nucleus.
    const groups: string[][] = [[]];
    for (const letter of run) {
      const group = groups[groups.length - 1];
      if (group.length > 0 && STRONG.has(letter) && group.some((l) => STRONG.has(l))) groups.push([letter]);
      else group.push(letter);
    }
    for (const group of groups) {
      let nucleus = group.findIndex((l) => STRONG.has(l));
      if (nucleus < 0) nucleus = group.length > 1 && group[group.length - 1] === 'y' ? group.length - 2 : group.length - 1;
      group.forEach((letter, k) => {
        if (k === nucleus) out.push({ phone: VOWEL_OF[letter], accented: ACCENTED.has(letter) });
        else out.push({ phone: letter === 'u' || letter === 'ü' ? 'W' : 'Y', accented: false });
      });
    }
  }
  return out;
}

export function spanishPhones(word: string): StressedPhone[] {
  const resolved = resolveVowels(tokenize(word.replace(/[^\p{L}]/gu, '')));
  const vowelIndices = resolved.flatMap((p, k) => (isVowel(p.phone) ? [k] : []));
  let stressed = resolved.findIndex((p) => p.accented);
  if (stressed < 0 && vowelIndices.length > 0) {
    const plain = word.toLowerCase().replace(/[^\p{L}]/gu, '');
    const penultimate = /[aeiouns]$/.test(plain) && vowelIndices.length >= 2;
    stressed = vowelIndices[vowelIndices.length - (penultimate ? 2 : 1)];
  }
  return resolved.map((p, k) => (isVowel(p.phone) ? { phone: p.phone, stress: k === stressed ? 1 : 0 } : { phone: p.phone }));
}

export function pronounceSpanishWord(word: string): PronouncedWord {
  return { word, syllables: syllabify(spanishPhones(word), 'es', word), source: 'rules' };
}
