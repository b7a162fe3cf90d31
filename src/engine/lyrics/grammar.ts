/**
 * The English line grammar. A line is a template learned from a songwriter's line: its function words kept
 * as they are ("i", "the", "with", "is", "don't") and every content word replaced by a slot for its part of
 * speech ("#NN" singular noun, "#NNS" plural noun, "#VB" base or non-third-person present verb, "#VBZ"
 * third-person present, "#VBD" past, "#VBN" participle, "#VBG" -ing form, "#JJ" adjective, "#RB" -ly
 * adverb). Filling slots with words of the same part of speech keeps the line's agreement, its determiners
 * and its verb. `grammarFaults` is the rule check every template and every filled line must pass:
 *
 *   verb        the line, and each clause of three or more words after a conjunction, has a verb: a verb
 *               slot, a copula, modal or auxiliary ("is", "will", "don't", "i'm"); an -ing form or
 *               participle counts only after a copula or auxiliary ("the island shrinking" has none)
 *   determiner  one determiner per noun phrase ("a the night" fails) and a noun after it ("is a slow",
 *               "the cold were young" fail); no line ends on a determiner,
 *               possessive, conjunction or a preposition that needs an object ("the harbour is a")
 *   agreement   subject and verb agree at the start of a clause: "we #VBZ", "she #VB", "i are", "the #NN
 *               are", "the #NNS is"; no two copulas in a row ("we are is"); after a modal, "to" or "do", a
 *               base form; no verb + object + bare verb ("#VB the #NN #VB": right only after let/see/hear)
 *   doubled     no word twice in a row
 */

export const SLOT_TAGS = ['NN', 'NNS', 'VB', 'VBZ', 'VBD', 'VBN', 'VBG', 'JJ', 'RB'] as const;
export type SlotTag = (typeof SLOT_TAGS)[number];
export type GrammarFault = 'verb' | 'determiner' | 'agreement' | 'doubled';

/** One position of a line: a function word (tag null) or a content word in a slot of its part of speech. */
export interface TaggedWord {
  word: string;
  tag: SlotTag | null;
}

const words = (s: string) => new Set(s.split(' '));
export const DETERMINERS = words('a an the this that these those every each no some another');
export const POSSESSIVES = words('my your his her its our their');
/** Determiners that always open a noun phrase (unlike "that", also a conjunction, or "her", also an object). */
const STRICT_DETERMINERS = words('a an the my your our their its every each another');
const SUBJECT_PLURAL = words('you we they');
const SUBJECT_THIRD = words('he she it');
const COPULAS = words('is are am was were');
const SINGULAR_VERBS = words("is was has does isn't wasn't doesn't hasn't");
const PLURAL_VERBS = words("are were have do aren't weren't don't haven't");
const MODALS = words("will would can could should shall may might must won't can't couldn't wouldn't shouldn't");
const AUXILIARIES = words("be been being do does did have has had don't doesn't didn't let's ain't");
/** Contractions that carry a verb ("i'm" = "i am"). */
const VERB_CONTRACTIONS = words(
  "i'm you're we're they're he's she's it's that's there's what's who's i'll you'll we'll they'll she'll he'll it'll i've you've we've they've i'd you'd we'd they'd she'd he'd",
);
const BE_CONTRACTIONS = words("i'm you're we're they're he's she's it's that's there's what's who's");
const OBJECT_PRONOUNS = words('me you him her it us them');
const DO_FORMS = words("do does did don't doesn't didn't");
/** Function words that can head a noun phrase after a determiner ("the one", "the other"). */
const NOUN_LIKE_LITERALS = words('one ones other others');
const CONJUNCTIONS = words('and but or so while when till until because as if where then though');
/** Prepositions and conjunctions a line cannot stop on; particles that end phrasal verbs ("hold on") may. */
const NO_LINE_END = words(
  'of to with from for at into onto upon beneath across toward towards between than if because nor and or but the a an my your our their its every',
);
export const FUNCTION_WORDS = new Set([
  ...DETERMINERS,
  ...POSSESSIVES,
  ...SUBJECT_PLURAL,
  ...SUBJECT_THIRD,
  ...COPULAS,
  ...MODALS,
  ...AUXILIARIES,
  ...VERB_CONTRACTIONS,
  ...CONJUNCTIONS,
  ...NO_LINE_END,
  ...words(
    "i me him us them it's not n't to in on at by up down out off away over under through along around above below behind beside past like all just still too very here there now again never ever always only what who how why no yes oh one",
  ),
]);

/** A template string "i #VB the #NN" as tagged positions (the slot words empty). */
export function parseTemplate(template: string): TaggedWord[] {
  return template.split(' ').map((item) => (item.startsWith('#') ? { word: '', tag: item.slice(1) as SlotTag } : { word: item, tag: null }));
}

function isVerb(items: readonly TaggedWord[], i: number): boolean {
  const { word, tag } = items[i];
  if (tag === 'VB' || tag === 'VBZ' || tag === 'VBD') return true;
  if (tag === 'VBG' || tag === 'VBN')
    return items
      .slice(0, i)
      .some((p) => p.tag === null && (COPULAS.has(p.word) || AUXILIARIES.has(p.word) || BE_CONTRACTIONS.has(p.word) || MODALS.has(p.word)));
  return tag === null && (COPULAS.has(word) || MODALS.has(word) || AUXILIARIES.has(word) || VERB_CONTRACTIONS.has(word));
}

/** Clause boundaries: a conjunction starts a new clause. Returns [start, end) index pairs. */
function clauses(items: readonly TaggedWord[]): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let start = 0;
  items.forEach((it, i) => {
    if (it.tag === null && CONJUNCTIONS.has(it.word)) {
      if (i > start) out.push([start, i]);
      start = i + 1;
    }
  });
  out.push([start, items.length]);
  return out;
}

const isDeterminer = (it: TaggedWord | undefined) => it !== undefined && it.tag === null && (DETERMINERS.has(it.word) || POSSESSIVES.has(it.word));

export function grammarFaults(items: readonly TaggedWord[]): GrammarFault[] {
  const faults = new Set<GrammarFault>();
  if (items.length === 0) return ['verb'];

  const verbAt = items.map((_, i) => isVerb(items, i));
  if (!verbAt.some(Boolean)) faults.add('verb');
  for (const [start, end] of clauses(items)) {
    // "salt and pepper" is a list; three words or more after a conjunction make a clause that needs its verb.
    if (end - start >= 3 && !verbAt.slice(start, end).some(Boolean)) faults.add('verb');
    const first = items[start];
    const second = items[start + 1];
    if (first?.tag === null && second) {
      const w = first.word;
      const bad =
        (w === 'i' && (second.tag === 'VBZ' || (second.tag === null && ['is', 'are', 'has', 'does'].includes(second.word)))) ||
        (SUBJECT_PLURAL.has(w) && (second.tag === 'VBZ' || (second.tag === null && (SINGULAR_VERBS.has(second.word) || second.word === 'am')))) ||
        (SUBJECT_THIRD.has(w) && (second.tag === 'VB' || (second.tag === null && (PLURAL_VERBS.has(second.word) || second.word === 'am'))));
      if (bad) faults.add('agreement');
    }
    // Determiner + adjectives + noun as the subject: the verb after it agrees with the noun.
    if (isDeterminer(first)) {
      let j = start + 1;
      while (j < end && items[j].tag === 'JJ') j++;
      const noun = items[j];
      const verb = items[j + 1];
      if (noun && verb && j + 1 < end) {
        if (noun.tag === 'NN' && (verb.tag === 'VB' || (verb.tag === null && (PLURAL_VERBS.has(verb.word) || verb.word === 'am')))) faults.add('agreement');
        if (noun.tag === 'NNS' && (verb.tag === 'VBZ' || (verb.tag === null && (SINGULAR_VERBS.has(verb.word) || verb.word === 'am')))) faults.add('agreement');
      }
    }
  }
  for (let i = 0; i < items.length; i++) {
    const it = items[i];
    // A noun phrase has its noun: determiner, adjectives, then a noun (or a function word: "the one").
    if (it.tag === null && STRICT_DETERMINERS.has(it.word)) {
      let j = i + 1;
      while (items[j]?.tag === 'JJ') j++;
      const head = items[j];
      if (!head || (head.tag === null ? !NOUN_LIKE_LITERALS.has(head.word) : head.tag !== 'NN' && head.tag !== 'NNS' && head.tag !== 'VBG'))
        faults.add('determiner');
    }
    const next = items[i + 1];
    if (!next) continue;
    if (it.word !== '' && it.word === next.word) faults.add('doubled');
    if (it.tag === null && STRICT_DETERMINERS.has(it.word) && isDeterminer(next)) faults.add('determiner');
    if (it.tag === null && COPULAS.has(it.word) && next.tag === null && COPULAS.has(next.word)) faults.add('agreement');
    // After a modal, "to" or "do", a verb is in its base form ("will go", not "will goes" or "don't dancing").
    if (
      it.tag === null &&
      (MODALS.has(it.word) || DO_FORMS.has(it.word) || it.word === 'to') &&
      next.tag !== null &&
      next.tag !== 'VB' &&
      next.tag.startsWith('VB')
    )
      faults.add('agreement');
    // A verb, its object, then a bare verb ("watch the city climb") is right only after let/make/see/hear;
    // those verbs are slots here, so the shape is refused rather than filled with "find the shore go".
    if (it.tag !== null && it.tag.startsWith('VB')) {
      let j = i + 1;
      if (items[j]?.tag === null && OBJECT_PRONOUNS.has(items[j].word)) j++;
      else if (isDeterminer(items[j])) {
        j++;
        while (items[j]?.tag === 'JJ') j++;
        if (items[j]?.tag === 'NN' || items[j]?.tag === 'NNS') j++;
        else j = -1;
      } else j = -1;
      if (j > 0 && items[j]?.tag === 'VB') faults.add('agreement');
    }
  }
  const last = items[items.length - 1];
  if (last.tag === null && (NO_LINE_END.has(last.word) || POSSESSIVES.has(last.word) || DETERMINERS.has(last.word))) faults.add('determiner');
  return [...faults];
}

/** Starts with a vowel sound, by spelling with the common exceptions ("an hour", "a union", "a one"). */
export function takesAn(word: string): boolean {
  if (/^(hour|honest|honou?r|heir)/.test(word)) return true;
  if (/^(one|once|uni|use|usu|eu|ewe|u[bcfhjkqrstn][aeiou])/.test(word)) return false;
  return /^[aeiou]/.test(word);
}

/** "a" or "an" as the next word asks: the article agrees with the sound that follows it. */
export function fixArticles(lineWords: string[]): string[] {
  return lineWords.map((w, i) => {
    const next = lineWords[i + 1];
    if ((w === 'a' || w === 'an') && next) return takesAn(next) ? 'an' : 'a';
    return w;
  });
}

const SPANISH_FUNCTION_WORDS = words(
  'el la los las un una unos unas de del al a en y o pero que con por para sin sobre entre hasta desde como cuando donde si no ya mi mis tu tus su sus me te se le lo nos yo tú él ella nosotros ellos es son está están era fue ser estar hay muy más tan todo toda todos este esta ese esa aquí allí',
);

/** Content words are the ones the repetition limit counts ("night", "burning"); function words are free. */
export function isContentWord(word: string, language: string): boolean {
  if (word.length < 2) return false;
  return language === 'es' ? !SPANISH_FUNCTION_WORDS.has(word) : !FUNCTION_WORDS.has(word);
}
