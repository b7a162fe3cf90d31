/**
 * The Spanish grammaticality measure of bench/lyrics-grammar.ts (`--language es`). One line passes when none
 * of these faults is found. Parts of speech come from the tagger of the npm package `es-compromise` (MIT, the
 * Spanish sibling of the `compromise` the English measure uses; a devDependency), tagging the line in
 * context; gender and number come from the determiner and the word's ending, because the tagger guesses
 * gender by suffix and gets "el día" or "la mano" wrong:
 *
 *   verb          no finite verb: no term tagged Verb, other than "no"/"nunca" (tagged Verb/Negative), a bare
 *                 infinitive or a bare gerund ("una silla esperando" is an image, not a clause); an
 *                 infinitive or gerund counts after a finite verb, which the line then has anyway
 *   determiner    two determiners in a row ("la el noche"), a determiner without a word after it, or a line
 *                 ending on a determiner, possessive, preposition or conjunction ("camino de")
 *   agreement     a determiner and its noun, or the noun's adjective, or a copula's adjective, disagree in
 *                 number ("los casa", "las noche larga") or gender ("la camino", "el noche", "la noche
 *                 es largo"); a subject pronoun and its verb disagree in person or number ("yo canta",
 *                 "nosotros bailan"); a determiner + noun subject and its verb disagree in number ("las
 *                 olas canta", "la luna son"); two copulas in a row ("es son")
 *   doubled       the same word twice in a row
 *
 * The measure is independent of the generator (which tags its vocabulary with its own rules learned from
 * the corpus, src/engine/lyrics/grammar-es.ts), so it does not grade the generator with its own tags.
 */
import nlp from 'es-compromise';
import type { GrammarFault } from './grammaticality.js';

export type { GrammarFault };

interface Term {
  word: string;
  tags: Set<string>;
}

const set = (s: string) => new Set(s.split(' '));
const SINGULAR_MASC = set('el un este ese aquel otro nuestro vuestro ningún algún cada');
const SINGULAR_FEM = set('la una esta esa aquella otra nuestra vuestra ninguna alguna');
const SINGULAR_ANY = set('mi tu su cada');
const PLURAL_MASC = set('los unos estos esos aquellos otros nuestros vuestros algunos');
const PLURAL_FEM = set('las unas estas esas aquellas otras nuestras vuestras algunas');
const PLURAL_ANY = set('mis tus sus');
const DETERMINERS = new Set([...SINGULAR_MASC, ...SINGULAR_FEM, ...SINGULAR_ANY, ...PLURAL_MASC, ...PLURAL_FEM, ...PLURAL_ANY]);
/** Articles and possessives that must be followed by their noun (unlike "la", also a clitic pronoun). */
const STRICT = set('el un una los unos unas mi tu su mis tus sus cada');
const CLITICS = set('me te se nos os lo la le los las les no ya');
const COPULAS = set('es son soy eres somos era eran fue fueron está están estoy estás estamos estaba estaban');
const PREPOSITIONS = set('a ante bajo con contra de del al desde en entre hacia hasta para por según sin sobre tras');
const CONJUNCTIONS = set('y e o u ni pero sino que porque aunque si cuando como');
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
/** Nouns whose ending lies about their gender or number. */
const MASC_IN_A = set('día días mapa mapas planeta planetas sofá tranvía idioma clima tema temas poema poemas problema problemas sistema drama programa alma');
const FEM_IN_O = set('mano manos foto fotos radio moto');
const INVARIANT_S = set('paraguas lunes martes miércoles jueves viernes crisis tesis dios adiós autobús compás anís país mes gris');

type Gender = 'm' | 'f' | null;
type Number_ = 's' | 'p';

function determinerAgreement(word: string): { gender: Gender; number: Number_ } | null {
  if (SINGULAR_MASC.has(word)) return { gender: word === 'cada' ? null : 'm', number: 's' };
  if (SINGULAR_FEM.has(word)) return { gender: 'f', number: 's' };
  if (SINGULAR_ANY.has(word)) return { gender: null, number: 's' };
  if (PLURAL_MASC.has(word)) return { gender: 'm', number: 'p' };
  if (PLURAL_FEM.has(word)) return { gender: 'f', number: 'p' };
  if (PLURAL_ANY.has(word)) return { gender: null, number: 'p' };
  return null;
}

/** Number by spelling: a final s after a vowel or -es is plural, unless the s ends a stressed syllable ("adiós"). */
function numberOf(word: string): Number_ {
  if (INVARIANT_S.has(word) || /[áéíóú]s$/.test(word)) return 's';
  return /[aeiou]s$|[^aeiou]es$/.test(word) ? 'p' : 's';
}

/** Gender by ending, for words with a gendered ending only (-o/-os masculine, -a/-as feminine). */
function genderOfNoun(word: string): Gender {
  if (MASC_IN_A.has(word)) return 'm';
  if (FEM_IN_O.has(word)) return 'f';
  if (/(o|os)$/.test(word)) return 'm';
  if (/(a|as)$/.test(word)) return 'f';
  return null;
}

function genderOfAdjective(word: string): Gender {
  if (/(o|os)$/.test(word)) return 'm';
  if (/(a|as)$/.test(word) && !/(ista|istas)$/.test(word)) return 'f';
  return null;
}

function terms(line: string): Term[] {
  const out: Term[] = [];
  for (const sentence of nlp(line).json() as Array<{ terms: Array<{ text: string; normal: string; tags: string[] }> }>) {
    for (const t of sentence.terms) {
      const word = (t.normal || t.text).toLowerCase().replace(/[^\p{L}]/gu, '');
      // The tagger splits "al"/"del" into a preposition and an empty determiner: keep the written word.
      if (word) out.push({ word, tags: new Set(t.tags) });
    }
  }
  return out;
}

/** An imperative with enclitic pronouns ("llévame", "guárdanos", "decírtelo"): the tagger reads it as a noun. */
const ENCLITIC_IMPERATIVE = /[áéíóú]\p{L}*(me|te|se|nos|la|lo|las|los|le|les)$/u;
const isVerb = (t: Term) => (t.tags.has('Verb') && !t.tags.has('Negative')) || (ENCLITIC_IMPERATIVE.test(t.word) && t.word.length > 4);
const isNonFinite = (t: Term) => t.tags.has('Infinitive') || t.tags.has('Gerund') || /(ar|er|ir|ando|iendo|ándo|iéndo)$/.test(t.word);

function personOf(t: Term): string | null {
  // The tagger reads present subjunctives as imperatives of a guessed person ("que el humo suba" -> 2p).
  if (t.tags.has('Imperative')) return null;
  if (t.tags.has('FirstPersonPlural')) return '1p';
  if (t.tags.has('SecondPersonPlural')) return '2p';
  if (t.tags.has('ThirdPersonPlural')) return '3p';
  if (t.tags.has('FirstPerson')) return '1s';
  if (t.tags.has('SecondPerson')) return '2s';
  if (t.tags.has('ThirdPerson')) return '3s';
  return null;
}

/** Imperfect, conditional and past subjunctive share the first and third persons ("yo tenía", "ella tenía"). */
const sharedFirstThird = (word: string) => /(ía|aba|ara|iera|ese|iese)$/.test(word);

function personsAgree(subject: string, verb: Term): boolean {
  if (isNonFinite(verb)) return true;
  const person = personOf(verb);
  if (person === null || person === subject) return true;
  if ((subject === '1s' || subject === '3s') && (person === '1s' || person === '3s') && sharedFirstThird(verb.word)) return true;
  return false;
}

export function grammarFaultsEs(line: string): GrammarFault[] {
  const ts = terms(line);
  const words = ts.map((t) => t.word);
  const faults = new Set<GrammarFault>();
  if (ts.length === 0) return ['verb'];

  if (!ts.some((t) => isVerb(t) && !isNonFinite(t))) faults.add('verb');

  for (let i = 0; i < ts.length; i++) {
    const w = words[i];
    const next = words[i + 1];
    if (next !== undefined && w === next) faults.add('doubled');
    if (next !== undefined && COPULAS.has(w) && COPULAS.has(next)) faults.add('agreement');
    // "no la presto", "se la llevo": after a negation or another clitic, "la"/"los" is a pronoun.
    const cliticContext = i > 0 && (words[i - 1] === 'no' || words[i - 1] === 'se' || words[i - 1] === 'me' || words[i - 1] === 'te');
    if (STRICT.has(w) && next !== undefined && DETERMINERS.has(next) && !CLITICS.has(next)) faults.add('determiner');
    if (DETERMINERS.has(w) && !cliticContext && next !== undefined && STRICT.has(next) && next !== 'los') faults.add('determiner');

    // Determiner + noun (+ adjective): number and gender agree.
    const det = cliticContext ? null : determinerAgreement(w);
    const atClauseStart = i === 0 || CONJUNCTIONS.has(words[i - 1]);
    if (det && next !== undefined && (ts[i + 1].tags.has('Noun') || ts[i + 1].tags.has('Adjective')) && !ts[i + 1].tags.has('Pronoun')) {
      // "la" / "los" before a verb is a clitic ("la llevo"); the tagger tells a noun from a verb here.
      const noun = next;
      if (numberOf(noun) !== det.number && !INVARIANT_S.has(noun)) faults.add('agreement');
      const nounGender = genderOfNoun(noun);
      // "el agua", "un alma": a feminine noun with a stressed a- takes "el"/"un".
      const stressedA = (w === 'el' || w === 'un') && /^h?[aá]/.test(noun);
      if (det.gender && nounGender && nounGender !== det.gender && !stressedA) faults.add('agreement');
      const gender = stressedA ? 'f' : (det.gender ?? nounGender);
      // The adjective right after the noun, or after a copula that follows it.
      let j = i + 2;
      const subjectVerb = ts[j];
      if (ts[j] && COPULAS.has(words[j])) j++;
      const adj = ts[j];
      if (adj && adj.tags.has('Adjective') && !adj.tags.has('Noun')) {
        const adjGender = genderOfAdjective(adj.word);
        if (gender && adjGender && adjGender !== gender) faults.add('agreement');
        if (numberOf(adj.word) !== det.number && !INVARIANT_S.has(adj.word)) faults.add('agreement');
      }
      // Determiner + noun as a clause's subject: the verb after it (clitics between) agrees in number.
      if (atClauseStart && ts[i + 1].tags.has('Noun')) {
        let k = i + 2;
        while (k < ts.length && CLITICS.has(words[k]) && !isVerb(ts[k])) k++;
        const verb = ts[k];
        if (verb && isVerb(verb) && !isNonFinite(verb) && subjectVerb !== undefined) {
          const person = personOf(verb);
          if (person !== null) {
            const plural = person.endsWith('p');
            if (plural !== (det.number === 'p')) faults.add('agreement');
          }
        }
      }
    }

    // A subject pronoun and its verb (clitics between): person and number agree.
    const subject = SUBJECT_PERSON[w];
    if (subject) {
      let k = i + 1;
      while (k < ts.length && CLITICS.has(words[k])) k++;
      const verb = ts[k];
      if (verb && isVerb(verb) && !personsAgree(subject, verb)) faults.add('agreement');
    }
  }
  const last = ts[ts.length - 1];
  const lastWord = words[words.length - 1];
  if (
    STRICT.has(lastWord) ||
    PLURAL_ANY.has(lastWord) ||
    PREPOSITIONS.has(lastWord) ||
    (CONJUNCTIONS.has(lastWord) && lastWord !== 'como') ||
    last.tags.has('Determiner')
  )
    faults.add('determiner');
  return [...faults];
}
