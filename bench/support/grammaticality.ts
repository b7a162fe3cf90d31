/**
 * The grammaticality measure of bench/lyrics-grammar.ts: one English lyric line passes when the part-of-speech
 * tagger of the npm package `compromise` (MIT), tagging the line in context, finds none of these faults:
 *
 *   verb          no verb: no term tagged Verb (a gerund alone, "the island shrinking", does not count
 *                 unless a copula or auxiliary comes before it)
 *   determiner    two determiners in one noun phrase ("a the night", "my the"), a line ending on a
 *                 determiner, possessive, preposition or conjunction ("the harbour is a"), a noun
 *                 phrase ending on an adjective ("is a slow": the tagger, given "a slow" alone, does not
 *                 read a determiner and a noun), or a/an before the wrong sound ("a hour", "an night")
 *   agreement     subject and verb disagree: "we is", "they holds", "she hold", "I are", "the answers is",
 *                 "the night are", two finite verbs in a row ("we are is turning"); a pronoun or noun
 *                 right after "let", "watch", "heard" ... is an object ("let it go" passes)
 *   doubled       the same word twice in a row ("the the")
 *
 * The tagger is independent of the generator (which tags its vocabulary with its own rules), so the
 * measure does not grade the generator with its own tags.
 */
import nlp from 'compromise';

export type GrammarFault = 'verb' | 'determiner' | 'agreement' | 'doubled';

interface Term {
  word: string;
  tags: Set<string>;
}

const DETERMINERS = new Set(['a', 'an', 'the', 'this', 'these', 'those', 'my', 'your', 'his', 'its', 'our', 'their', 'every']);
const STRICT_FIRST = new Set(['a', 'an', 'the', 'my', 'your', 'our', 'their', 'its', 'every']);
const DANGLING = new Set([
  ...DETERMINERS,
  'her',
  'and',
  'or',
  'but',
  'of',
  'to',
  'with',
  'from',
  'for',
  'at',
  'into',
  'onto',
  'upon',
  'beneath',
  'across',
  'toward',
  'towards',
  'between',
  'than',
  'if',
  'because',
  'nor',
]);
const SINGULAR_VERBS = new Set(['is', 'was', 'has', 'does', "isn't", "wasn't", "doesn't", "hasn't"]);
const PLURAL_VERBS = new Set(['are', 'were', 'have', 'do', "aren't", "weren't", "don't", "haven't"]);
const COPULAS = new Set(['is', 'are', 'am', 'was', 'were']);
const PLURAL_SUBJECTS = new Set(['you', 'we', 'they']);
const THIRD_SINGULAR = new Set(['he', 'she', 'it']);
/** Words spelt with a vowel but said with a consonant, and the reverse: the a/an check goes by sound. */
const CONSONANT_SOUND = /^(one|once|uni|use|usu|eu|ewe|u[bcfhjkqrstn][aeiou])/;
const VOWEL_SOUND = /^(hour|honest|honou?r|heir)/;

const BARE_INFINITIVE_TAKERS = new Set(
  'let lets make makes made watch watches watched see sees saw hear hears heard feel feels felt help helps helped have has had'.split(' '),
);

const articles = new Map<string, boolean>();
/** Whether the tagger reads "a X" on its own as a determiner and a noun. */
function articleReading(phrase: string): boolean {
  let ok = articles.get(phrase);
  if (ok === undefined) {
    const t = (nlp(phrase).json() as Array<{ terms: Array<{ tags: string[] }> }>)[0]?.terms ?? [];
    articles.set(phrase, (ok = t[0]?.tags.includes('Determiner') === true && t.at(-1)?.tags.includes('Noun') === true));
  }
  return ok;
}

function terms(line: string): Term[] {
  const out: Term[] = [];
  for (const sentence of nlp(line).json() as Array<{ terms: Array<{ text: string; normal: string; implicit?: string; tags: string[] }> }>) {
    for (const t of sentence.terms) {
      // A contraction is one written word with an implicit second term ("i'm" -> "i" + "am").
      const word = (t.implicit ?? t.normal ?? t.text).toLowerCase();
      if (word) out.push({ word, tags: new Set(t.tags) });
    }
  }
  return out;
}

function startsWithVowelSound(word: string): boolean {
  if (VOWEL_SOUND.test(word)) return true;
  if (CONSONANT_SOUND.test(word)) return false;
  return /^[aeiou]/.test(word);
}

export function grammarFaults(line: string): GrammarFault[] {
  const ts = terms(line);
  const faults = new Set<GrammarFault>();
  const words = ts.map((t) => t.word);

  const hasVerb = ts.some(
    (t, i) => t.tags.has('Verb') && (!t.tags.has('Gerund') || ts.slice(0, i).some((p) => p.tags.has('Copula') || p.tags.has('Auxiliary'))),
  );
  if (!hasVerb) faults.add('verb');

  for (let i = 0; i < ts.length; i++) {
    const w = words[i];
    const next = words[i + 1];
    if (next !== undefined && w === next) faults.add('doubled');
    if (STRICT_FIRST.has(w) && next !== undefined && (DETERMINERS.has(next) || next === 'her')) faults.add('determiner');
    if ((w === 'a' && next && startsWithVowelSound(next)) || (w === 'an' && next && !startsWithVowelSound(next))) faults.add('determiner');
    // "is a slow": the tagger reads "a" + a line-final adjective as no determiner at all.
    if ((w === 'a' || w === 'an') && i === ts.length - 2 && !articleReading(`a ${words[i + 1]}`)) faults.add('determiner');

    // Agreement between a subject and the verb right after it.
    if (next !== undefined) {
      const nextTerm = ts[i + 1];
      const presentBase = nextTerm.tags.has('PresentTense') && nextTerm.tags.has('Infinitive');
      const presentThird =
        nextTerm.tags.has('PresentTense') && !nextTerm.tags.has('Infinitive') && !nextTerm.tags.has('Gerund') && !COPULAS.has(next) && /s$/.test(next);
      // After "let", "watch", "heard" ... the noun or pronoun is an object and the bare verb is right ("let it go").
      const object = i > 0 && BARE_INFINITIVE_TAKERS.has(words[i - 1]);
      if (object) continue;
      if (w === 'i' && (next === 'is' || next === 'are' || next === 'has' || next === 'does' || presentThird)) faults.add('agreement');
      if (PLURAL_SUBJECTS.has(w) && (SINGULAR_VERBS.has(next) || next === 'am' || presentThird)) faults.add('agreement');
      if (THIRD_SINGULAR.has(w) && (PLURAL_VERBS.has(next) || next === 'am' || presentBase)) faults.add('agreement');
      if (ts[i].tags.has('Noun') && !ts[i].tags.has('Pronoun') && i > 0 && DETERMINERS.has(words[i - 1])) {
        if (ts[i].tags.has('Plural') && SINGULAR_VERBS.has(next)) faults.add('agreement');
        if (ts[i].tags.has('Singular') && (PLURAL_VERBS.has(next) || presentBase)) faults.add('agreement');
      }
      if (COPULAS.has(w) && COPULAS.has(next)) faults.add('agreement');
    }
  }
  // A noun phrase ending on an adjective has no noun ("the night is a steady old").
  let j = ts.length - 1;
  if (j > 0 && ts[j].tags.has('Adjective') && !ts[j].tags.has('Noun')) {
    while (j > 0 && ts[j - 1].tags.has('Adjective')) j--;
    if (j > 0 && STRICT_FIRST.has(words[j - 1])) faults.add('determiner'); // "this long" is an adverb and an adjective
  }
  const last = words[words.length - 1];
  if (last !== undefined && DANGLING.has(last)) faults.add('determiner');
  return [...faults];
}
