/**
 * The Spanish line grammar, learned like the English one (grammar.ts, grammar-train.ts) from the songwriters'
 * own lines, with rules over the closed word classes instead of a tagger (no Spanish tagger of good enough
 * quality ships on npm for the engine; bench/support/grammaticality-es.ts measures with `es-compromise`, so
 * the measure stays independent of these rules). Function words (articles, possessives, pronouns, clitics,
 * prepositions, conjunctions, forms of ser/estar/haber) stay literal; an open-class word becomes a slot whose
 * tag carries the features agreement needs:
 *
 *   N.g.n   noun of gender g (m/f) and number n (s/p): after a determiner, which gives both; after a
 *           preposition, by the gender the word has after determiners elsewhere in the corpus
 *   A.g.n   adjective after its noun or after a copula, agreeing with the noun phrase (g = c for one
 *           form for both genders: "gris", "dulce")
 *   V.p     finite verb of person p (1s 2s 3s 1p 2p 3p): after a subject pronoun, or after a determiner +
 *           noun subject (3s/3p by its number), clitics and "no" allowed between
 *   V.inf   infinitive, V.ger gerund, V.part participle after haber
 *
 * A word the rules cannot place keeps its literal form in that template. Filling a slot with a word of the same
 * tag keeps the agreement of gender and number between determiner, noun and adjective and the person of the
 * verb; `spanishGrammarFaults` is the rule check every template and filled line must pass:
 *
 *   verb        a finite verb (a V.p slot or a literal form of ser/estar/haber) in the line, and in each
 *               clause of three or more words after a conjunction
 *   determiner  one determiner per noun phrase ("la el noche") and a noun after it; no line ends on a
 *               determiner, preposition or conjunction
 *   agreement   determiner, noun and adjective agree in gender and number; a subject pronoun and its verb in
 *               person; a determiner + noun subject and its verb in number; no two copulas in a row
 *   doubled     no word twice in a row
 */
import type { LyricsDocument } from '../types.js';
import type { GrammarFault } from './grammar.js';
import { spanishNuclei } from './syllables.js';
import { tokenizeLine } from './tokenizer.js';
import type { Vocabulary } from './vocabulary.js';

export interface SpanishTaggedWord {
  word: string;
  tag: string | null;
}

const set = (s: string) => new Set(s.split(' '));

type Gender = 'm' | 'f';
type Num = 's' | 'p';
interface Features {
  gender: Gender | null;
  number: Num;
}

const DET_FEATURES: Record<string, Features> = {};
for (const w of 'el un este ese aquel otro nuestro vuestro ningún algún'.split(' ')) DET_FEATURES[w] = { gender: 'm', number: 's' };
for (const w of 'la una esta esa aquella otra nuestra vuestra ninguna alguna'.split(' ')) DET_FEATURES[w] = { gender: 'f', number: 's' };
for (const w of 'mi tu su cada'.split(' ')) DET_FEATURES[w] = { gender: null, number: 's' };
for (const w of 'los unos estos esos aquellos otros nuestros vuestros algunos'.split(' ')) DET_FEATURES[w] = { gender: 'm', number: 'p' };
for (const w of 'las unas estas esas aquellas otras nuestras vuestras algunas'.split(' ')) DET_FEATURES[w] = { gender: 'f', number: 'p' };
for (const w of 'mis tus sus'.split(' ')) DET_FEATURES[w] = { gender: null, number: 'p' };
export const SPANISH_DETERMINERS = new Set(Object.keys(DET_FEATURES));
/** Determiners that never double as a pronoun ("la", "los", "las" are clitics too). */
const STRICT_DETERMINERS = set('el un una unos unas mi tu su mis tus sus cada este esta estos estas ese esa esos esas');
const CLITICS = set('me te se nos os lo la le los las les');
const SUBJECT_PERSON: Record<string, string> = {
  yo: '1s',
  tú: '2s',
  él: '3s',
  ella: '3s',
  usted: '3s',
  nosotros: '1p',
  nosotras: '1p',
  ellos: '3p',
  ellas: '3p',
  ustedes: '3p',
};
const COPULA_PERSON: Record<string, string> = {
  soy: '1s',
  eres: '2s',
  es: '3s',
  somos: '1p',
  son: '3p',
  era: '3s',
  eran: '3p',
  fue: '3s',
  fueron: '3p',
  estoy: '1s',
  estás: '2s',
  está: '3s',
  estamos: '1p',
  están: '3p',
  estaba: '3s',
  estaban: '3p',
};
const HABER_PERSON: Record<string, string> = { he: '1s', has: '2s', ha: '3s', hemos: '1p', han: '3p', había: '3s', habían: '3p', hay: '3s' };
const COPULAS = new Set(Object.keys(COPULA_PERSON));
const PREPOSITIONS = set('a ante bajo con contra de del al desde en entre hacia hasta para por según sin sobre tras junto');
const CONJUNCTIONS = set('y e o u ni pero sino que porque aunque si cuando mientras donde');
const OTHER_FUNCTION = set(
  'no ya muy más menos tan tanto todo toda todos todas nada nadie algo alguien aquí allí ahí así hoy ayer mañana siempre nunca jamás también tampoco ' +
    'solo sólo lejos cerca antes después luego otra vez como qué quién cómo dónde cuándo conmigo contigo mío mía tuyo tuya uno dos tres cuatro cinco seis siete ocho nueve diez quince cien mil',
);
const FINITE_LITERALS = new Set([...COPULAS, ...Object.keys(HABER_PERSON)]);
export const SPANISH_FUNCTION_WORDS = new Set([
  ...SPANISH_DETERMINERS,
  ...CLITICS,
  ...Object.keys(SUBJECT_PERSON),
  ...COPULAS,
  ...Object.keys(HABER_PERSON),
  ...PREPOSITIONS,
  ...CONJUNCTIONS,
  ...OTHER_FUNCTION,
  'ser',
  'estar',
  'haber',
]);
const FINITE_TAGS = set('V.1s V.2s V.3s V.1p V.2p V.3p');
const LINE_END_FORBIDDEN = new Set([...SPANISH_DETERMINERS, ...PREPOSITIONS, ...CONJUNCTIONS]);

export const isNounTag = (tag: string) => tag.startsWith('N.');
export const isAdjectiveTag = (tag: string) => tag.startsWith('A.');

function featuresOf(tag: string): Features | null {
  const [, g, n] = tag.split('.');
  if (n !== 's' && n !== 'p') return null;
  return { gender: g === 'm' || g === 'f' ? g : null, number: n };
}

/** Number by spelling: a final s after a vowel, or -es after a consonant, is plural ("adiós" is not). */
export function spanishNumber(word: string): Num {
  if (/[áéíóú]s$/.test(word)) return 's';
  return /[aeiou]s$|[^aeiou]es$/.test(word) ? 'p' : 's';
}

/** Gender by ending where the ending tells it; null otherwise ("mar", "luz", "calle"). */
export function spanishGenderByEnding(word: string): Gender | null {
  if (/^(día|días|mapa|planeta|sofá|tema|poema|problema|idioma|clima)$/.test(word)) return 'm';
  if (/^(mano|manos|foto|radio|moto)$/.test(word)) return 'f';
  if (/(o|os)$/.test(word)) return 'm';
  if (/(a|as|ión|iones|dad|dades|tad|tud)$/.test(word)) return 'f';
  return null;
}

/** An adjective's gender by its ending: -o/-os m, -a/-as f, anything else one form for both (c). */
function adjectiveGender(word: string): 'm' | 'f' | 'c' {
  if (/(o|os)$/.test(word)) return 'm';
  if (/(a|as)$/.test(word)) return 'f';
  return 'c';
}

/**
 * A feminine noun whose first syllable is stressed and starts with a-/ha- takes "el"/"un" ("el agua"): its
 * determiner hides its gender, so it is never a slot word (kept literal wherever it appears).
 */
export function takesMasculineArticle(word: string): boolean {
  if (!/^h?[aá]/.test(word)) return false;
  if (/^h?á/.test(word)) return true;
  const nuclei = spanishNuclei(word.replace(/^h/, ''));
  return nuclei.length === 2 && /[aeiouns]$/.test(word) && !/[áéíóú]/.test(word);
}

const isOpen = (w: string) => !SPANISH_FUNCTION_WORDS.has(w) && /^\p{L}+$/u.test(w) && w.length > 1;
const isInfinitive = (w: string) => /(ar|er|ir|ír)$/.test(w) && w.length > 3;
const isGerund = (w: string) => /(ando|iendo|yendo)$/.test(w);
const isParticiple = (w: string) => /(ado|ada|ados|adas|ido|ida|idos|idas|to|cho)$/.test(w);

/**
 * Tags one line in context. `nounGender` is the gender each noun has after determiners elsewhere in the
 * corpus (learned in a first pass), used for bare nouns after a preposition.
 */
export function tagSpanishLine(line: string, nounGender: ReadonlyMap<string, Gender> = new Map()): SpanishTaggedWord[] | null {
  const tokens = tokenizeLine(line, 'es');
  if (tokens.length === 0) return null;
  const out: SpanishTaggedWord[] = tokens.map((word) => ({ word, tag: null }));
  /** The noun phrase in progress: its features, set by a determiner and kept through noun and adjectives. */
  let np: Features | null = null;
  let npHasNoun = false;
  /** Person the next finite verb must have (from a subject pronoun or a noun phrase subject), or null. */
  let subject: string | null = null;
  let clauseStart = true;
  /** The word after a copula: only an adjective agreeing with the subject may take the slot. */
  let predicate = false;
  for (let i = 0; i < tokens.length; i++) {
    const w = tokens[i];
    const prev = tokens[i - 1];
    const det = DET_FEATURES[w];
    // "la"/"los"/"las" after "no" or a clitic, or before a verb-like word, are clitic pronouns.
    const cliticContext = prev === 'no' || (prev !== undefined && CLITICS.has(prev) && !DET_FEATURES[prev]);
    if (det && !(CLITICS.has(w) && cliticContext)) {
      np = det;
      npHasNoun = false;
      predicate = false;
      continue;
    }
    if (!isOpen(w)) {
      if (SUBJECT_PERSON[w]) subject = SUBJECT_PERSON[w];
      else if (COPULAS.has(w)) {
        // After a copula an adjective agrees with the subject noun phrase, kept in np.
        subject = null;
        if (!npHasNoun) np = null;
        predicate = np !== null;
        clauseStart = false;
        continue;
      } else if (HABER_PERSON[w]) subject = null;
      else if (CONJUNCTIONS.has(w)) {
        subject = null;
        clauseStart = true;
      } else if (PREPOSITIONS.has(w)) {
        subject = null;
        clauseStart = false;
      }
      // A clitic or "no" ends the noun phrase (the subject it set stays); anything else ends both.
      np = null;
      npHasNoun = false;
      predicate = false;
      continue;
    }
    // An open-class word.
    let tag: string | null = null;
    if (predicate && np) {
      const g = adjectiveGender(w);
      if (np.gender !== null && (g === 'c' || g === np.gender) && spanishNumber(w) === np.number && !nounGender.has(w)) tag = `A.${g}.${np.number}`;
      np = null;
      npHasNoun = false;
      predicate = false;
    } else if (np && !npHasNoun) {
      // The noun of a determiner's phrase: features from the determiner, checked against the spelling.
      const gender: Gender | null = np.gender ?? nounGender.get(w) ?? spanishGenderByEnding(w);
      const known = nounGender.get(w);
      if (gender && spanishNumber(w) === np.number && (!known || known === gender) && !takesMasculineArticle(w)) {
        tag = `N.${gender}.${np.number}`;
        np = { gender, number: np.number };
      }
      npHasNoun = true;
      if (clauseStart && !subject && np) subject = np.number === 's' ? '3s' : '3p';
    } else if (np && npHasNoun) {
      // After the noun (or after a copula): an adjective agreeing with the phrase, else the phrase is over.
      const g = adjectiveGender(w);
      // At the head of a clause, a word with one form for both genders after the subject is read as its
      // verb ("cada piedra sabe"), a gendered one as its adjective ("un faro lejano parpadea").
      const subjectPosition = subject !== null && g === 'c';
      const fits =
        !subjectPosition && np.gender !== null && (g === 'c' || g === np.gender) && spanishNumber(w) === np.number && !isGerund(w) && !isInfinitive(w);
      if (fits && !nounGender.has(w)) {
        tag = `A.${g}.${np.number}`;
        np = null;
        npHasNoun = false;
      } else {
        np = null;
        npHasNoun = false;
        tag = verbTag(w, prev, subject);
        if (tag && FINITE_TAGS.has(tag)) subject = null;
      }
    } else if (prev !== undefined && PREPOSITIONS.has(prev) && !isInfinitive(w) && nounGender.has(w)) {
      const gender = nounGender.get(w)!;
      if (!takesMasculineArticle(w)) tag = `N.${gender}.${spanishNumber(w)}`;
    } else {
      tag = verbTag(w, prev, subject);
      if (tag && FINITE_TAGS.has(tag)) subject = null;
    }
    clauseStart = false;
    out[i].tag = tag;
  }
  return out;
}

function verbTag(w: string, prev: string | undefined, subject: string | null): string | null {
  if (isGerund(w)) return 'V.ger';
  if (prev !== undefined && HABER_PERSON[prev] && isParticiple(w)) return 'V.part';
  if (isInfinitive(w) && (prev === undefined || PREPOSITIONS.has(prev) || !subject)) return 'V.inf';
  // A finite verb needs its person from context (a subject before it) and an ending that person can have.
  if (subject && !isInfinitive(w) && !/(mente)$/.test(w) && PERSON_ENDINGS[subject].test(w)) return `V.${subject}`;
  return null;
}

/** Endings of finite verbs by person (present, preterite, imperfect, future, conditional, subjunctive). */
const PERSON_ENDINGS: Record<string, RegExp> = {
  '1s': /([^aeiouáéíóú]o|oy|é|í|ía|aba|ra|se)$/,
  '2s': /(as|es|ás|és|ís|ste)$/,
  '3s': /([^i]a|[^aeiou]e|ó|ía|aba|ra|se|á)$/,
  '1p': /mos$/,
  '2p': /(áis|éis|ís)$/,
  '3p': /(an|en|on|ían|aban|ron)$/,
};

/** The gender each noun shows after gendered determiners in the corpus (the majority, ties left out). */
export function learnNounGenders(lines: readonly string[]): Map<string, Gender> {
  const votes = new Map<string, { m: number; f: number }>();
  for (const line of lines) {
    const tokens = tokenizeLine(line, 'es');
    for (let i = 0; i + 1 < tokens.length; i++) {
      const det = DET_FEATURES[tokens[i]];
      const noun = tokens[i + 1];
      if (!det?.gender || !isOpen(noun) || (i > 0 && (tokens[i - 1] === 'no' || CLITICS.has(tokens[i - 1])))) continue;
      if (takesMasculineArticle(noun)) continue;
      let v = votes.get(noun);
      if (!v) votes.set(noun, (v = { m: 0, f: 0 }));
      v[det.gender]++;
    }
  }
  const genders = new Map<string, Gender>();
  for (const [noun, v] of votes) if (v.m !== v.f) genders.set(noun, v.m > v.f ? 'm' : 'f');
  return genders;
}

function isFinite(it: SpanishTaggedWord): boolean {
  return it.tag === null ? FINITE_LITERALS.has(it.word) : FINITE_TAGS.has(it.tag);
}

export function spanishGrammarFaults(items: readonly SpanishTaggedWord[]): GrammarFault[] {
  const faults = new Set<GrammarFault>();
  if (items.length === 0) return ['verb'];
  if (!items.some(isFinite)) faults.add('verb');
  // Clauses: a conjunction starts one; three words or more need their own verb.
  let start = 0;
  const clauseEnds = [...items.map((it, i) => (it.tag === null && CONJUNCTIONS.has(it.word) ? i : -1)).filter((i) => i >= 0), items.length];
  for (const end of clauseEnds) {
    if (end - start >= 3 && !items.slice(start, end).some(isFinite)) faults.add('verb');
    start = end + 1;
  }
  for (let i = 0; i < items.length; i++) {
    const it = items[i];
    const next = items[i + 1];
    if (next && it.word !== '' && it.word === next.word) faults.add('doubled');
    if (next && it.tag === null && COPULAS.has(it.word) && next.tag === null && COPULAS.has(next.word)) faults.add('agreement');
    const prevWord = items[i - 1]?.word;
    const clitic = prevWord === 'no' || (prevWord !== undefined && CLITICS.has(prevWord) && !DET_FEATURES[prevWord]);
    const det = it.tag === null && !(CLITICS.has(it.word) && clitic) ? DET_FEATURES[it.word] : undefined;
    if (det) {
      if (next && next.tag === null && STRICT_DETERMINERS.has(next.word)) faults.add('determiner');
      // A strict determiner needs its noun: a noun slot, or an open literal word.
      if (STRICT_DETERMINERS.has(it.word) && (!next || (next.tag === null ? !isOpen(next.word) : !isNounTag(next.tag)))) faults.add('determiner');
      if (next?.tag && isNounTag(next.tag)) {
        const f = featuresOf(next.tag)!;
        if (f.number !== det.number || (det.gender && f.gender && det.gender !== f.gender)) faults.add('agreement');
        // The noun's adjective, right after it or after a copula.
        let j = i + 2;
        if (items[j]?.tag === null && COPULAS.has(items[j].word)) j++;
        const adj = items[j];
        if (adj?.tag && isAdjectiveTag(adj.tag)) {
          const a = featuresOf(adj.tag)!;
          const [, g] = adj.tag.split('.');
          if (a.number !== f.number || (g !== 'c' && f.gender && g !== f.gender)) faults.add('agreement');
        }
        // A subject at the start of a clause: the finite verb after it (clitics, "no" between) agrees in number.
        const atStart = i === 0 || (items[i - 1].tag === null && CONJUNCTIONS.has(items[i - 1].word));
        if (atStart) {
          let k = i + 2;
          if (items[k]?.tag && isAdjectiveTag(items[k].tag!)) k++;
          while (items[k] && items[k].tag === null && (CLITICS.has(items[k].word) || items[k].word === 'no')) k++;
          const verb = items[k];
          const person = verb
            ? verb.tag && FINITE_TAGS.has(verb.tag)
              ? verb.tag.slice(2)
              : verb.tag === null
                ? COPULA_PERSON[verb.word]
                : undefined
            : undefined;
          if (person && (person.endsWith('p') ? 'p' : 's') !== f.number) faults.add('agreement');
        }
      }
    }
    const subject = it.tag === null ? SUBJECT_PERSON[it.word] : undefined;
    if (subject) {
      let k = i + 1;
      while (items[k] && items[k].tag === null && (CLITICS.has(items[k].word) || items[k].word === 'no')) k++;
      const verb = items[k];
      const person = verb
        ? verb.tag && FINITE_TAGS.has(verb.tag)
          ? verb.tag.slice(2)
          : verb.tag === null
            ? (COPULA_PERSON[verb.word] ?? HABER_PERSON[verb.word])
            : undefined
        : undefined;
      if (person && person !== subject) faults.add('agreement');
    }
  }
  const last = items[items.length - 1];
  if (last.tag === null && LINE_END_FORBIDDEN.has(last.word) && !CLITICS.has(last.word)) faults.add('determiner');
  return [...faults];
}

export interface SpanishGrammarJson {
  templates: Array<[string, number]>;
  words: Record<string, string[]>;
}

/** A word fills a slot when at least this share of its tagged uses are in that role (as in English). */
const MIN_ROLE_SHARE = 0.34;
const MAX_TEMPLATE_WORDS = 10;
const INNER_PUNCTUATION = /[,;:\u2013\u2014]|\s-\s|[.!?¡¿](?=.)/;

/** The spelling a slot's words must have, a guard against a rule's slip. */
function spellingFits(word: string, tag: string): boolean {
  if (tag === 'V.ger') return isGerund(word);
  if (tag === 'V.inf') return isInfinitive(word);
  if (tag === 'V.part') return isParticiple(word);
  if (FINITE_TAGS.has(tag)) return !isInfinitive(word) && !isGerund(word);
  const f = featuresOf(tag);
  if (!f || spanishNumber(word) !== f.number) return false;
  if (isAdjectiveTag(tag)) return adjectiveGender(word) === tag.split('.')[1];
  return !takesMasculineArticle(word);
}

/**
 * Learns templates and word tags from the corpus lines (training step 4 for Spanish): a first pass learns
 * each noun's gender from its determiners, a second tags every line in context. A template is kept when
 * it passes `spanishGrammarFaults`, has two slots or more and no literal outside the vocabulary.
 */
export function learnSpanishGrammar(docs: readonly LyricsDocument[], vocabulary: Vocabulary): SpanishGrammarJson {
  const lines = docs.flatMap((d) => d.sections.flatMap((s) => s.lines));
  const genders = learnNounGenders(lines);
  const templates = new Map<string, number>();
  const roles = new Map<string, Map<string, number>>();
  for (const line of lines) {
    const tagged = tagSpanishLine(line, genders);
    if (!tagged) continue;
    for (const t of tagged) {
      if (t.tag && !spellingFits(t.word, t.tag)) t.tag = null;
      if (!t.tag) continue;
      let byTag = roles.get(t.word);
      if (!byTag) roles.set(t.word, (byTag = new Map()));
      byTag.set(t.tag, (byTag.get(t.tag) ?? 0) + 1);
    }
    if (
      INNER_PUNCTUATION.test(line.trim()) ||
      tagged.length > MAX_TEMPLATE_WORDS ||
      tagged.some((t) => t.tag === null && vocabulary.idOrUndefined(t.word) === undefined)
    )
      continue;
    if (tagged.filter((t) => t.tag !== null).length < 2 || spanishGrammarFaults(tagged).length > 0) continue;
    const template = tagged.map((t) => (t.tag ? `#${t.tag}` : t.word)).join(' ');
    templates.set(template, (templates.get(template) ?? 0) + 1);
  }
  const words: Record<string, string[]> = {};
  for (const [word, byTag] of [...roles.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    if (vocabulary.idOrUndefined(word) === undefined) continue;
    const total = [...byTag.values()].reduce((a, b) => a + b, 0);
    const fits = [...byTag.entries()]
      .filter(([, n]) => n / total >= MIN_ROLE_SHARE)
      .map(([t]) => t)
      .sort();
    if (fits.length > 0) words[word] = fits;
  }
  return { templates: [...templates.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)), words };
}

/** A template string "la #N.f.s #V.3s" as tagged positions (the slot words empty). */
export function parseSpanishTemplate(template: string): SpanishTaggedWord[] {
  return template.split(' ').map((item) => (item.startsWith('#') ? { word: '', tag: item.slice(1) } : { word: item, tag: null }));
}
