/**
 * Learns the English line grammar from the songwriters' own lines (training step 4): each corpus line is
 * tagged in context by the Brill tagger of the npm package `en-pos` (MIT), its content words become slots
 * ("the ferry coughed its engine" -> "the #NN #VBD its #NN"), and the template is kept when it passes
 * `grammarFaults` (so fragments without a verb never become templates). The same tagging gives each
 * vocabulary word the parts of speech it is used in; a word fills a slot only in a role it mostly plays.
 * The model stores templates and word tags, never the lines.
 */
import { Tag } from 'en-pos';
import type { LyricsDocument } from '../types.js';
import { FUNCTION_WORDS, grammarFaults, type SlotTag, type TaggedWord } from './grammar.js';
import { tokenizeLine } from './tokenizer.js';
import type { Vocabulary } from './vocabulary.js';

export interface GrammarJson {
  /** Template ("i #VB the #NN") -> number of corpus lines with that shape. */
  templates: Array<[string, number]>;
  /** Word -> the slot tags it may fill (SlotTag in English, grammar-es.ts tags in Spanish). */
  words: Record<string, string[]>;
}

/** Penn Treebank tag -> slot; anything else (DT, PRP, IN, CC, MD, TO ...) stays a literal word. */
const SLOT_OF: Record<string, SlotTag> = {
  NN: 'NN',
  NNP: 'NN',
  NNS: 'NNS',
  NNPS: 'NNS',
  VB: 'VB',
  VBP: 'VB',
  VBZ: 'VBZ',
  VBD: 'VBD',
  VBN: 'VBN',
  VBG: 'VBG',
  JJ: 'JJ',
  JJR: 'JJ',
  JJS: 'JJ',
  RB: 'RB',
};
/** A word fills a slot when at least this share of its tagged uses are in that role. */
const MIN_ROLE_SHARE = 0.34;
const MAX_TEMPLATE_WORDS = 10;
const SUBJECTLESS_OPENINGS = new Set(['is', 'are', 'am', 'was', 'were', 'has', 'have', 'had', 'does', 'did']);
const INNER_PUNCTUATION = /[,;:\u2013\u2014]|\s-\s|[.!?](?=.)/;

/** The spelling a slot's words must have, a guard against the tagger's occasional slip. */
function spellingFits(word: string, tag: SlotTag): boolean {
  switch (tag) {
    case 'NNS':
    case 'VBZ':
      return /s$/.test(word) && !/ss$/.test(word);
    case 'VBG':
      return /ing$/.test(word);
    case 'RB':
      return /ly$/.test(word);
    case 'VB':
      return !/(ing|ed)$/.test(word) && !/[^s]s$/.test(word);
    default:
      return true;
  }
}

export function tagLine(line: string): TaggedWord[] | null {
  const tokens = tokenizeLine(line, 'en');
  if (tokens.length === 0) return null;
  const tags = new Tag(tokens).initial().smooth().tags;
  return tokens.map((word, i) => {
    const slot = SLOT_OF[tags[i]];
    return FUNCTION_WORDS.has(word) || !slot || !spellingFits(word, slot) ? { word, tag: null } : { word, tag: slot };
  });
}

export function learnGrammar(docs: readonly LyricsDocument[], vocabulary: Vocabulary): GrammarJson {
  const templates = new Map<string, number>();
  const roles = new Map<string, Map<SlotTag, number>>();
  for (const doc of docs) {
    for (const line of doc.sections.flatMap((s) => s.lines)) {
      const tagged = tagLine(line);
      if (!tagged) continue;
      for (const { word, tag } of tagged) {
        if (!tag) continue;
        let byTag = roles.get(word);
        if (!byTag) roles.set(word, (byTag = new Map()));
        byTag.set(tag, (byTag.get(tag) ?? 0) + 1);
      }
      // A literal the model never saw twice cannot be scored; a slotless line is a copy, not a template; a
      // comma or dash inside a line joins two phrases that run together once the punctuation is gone.
      if (
        INNER_PUNCTUATION.test(line.trim()) ||
        tagged.length > MAX_TEMPLATE_WORDS ||
        tagged.some((t) => t.tag === null && vocabulary.idOrUndefined(t.word) === undefined)
      )
        continue;
      if (tagged.filter((t) => t.tag !== null).length < 2 || grammarFaults(tagged).length > 0) continue;
      // A bare singular noun opening the line is a name or a mass noun there ("Mother wrapped", "Salt is");
      // filled with a count noun it reads "Bus is slow".
      if (tagged[0].tag === 'NN') continue;
      // A line opening on a finite verb continues the line before ("is mine in my hand"): alone, or as a
      // hook, it has no subject.
      if (tagged[0].tag === 'VBZ' || tagged[0].tag === 'VBD' || (tagged[0].tag === null && SUBJECTLESS_OPENINGS.has(tagged[0].word))) continue;
      const template = tagged.map((t) => (t.tag ? `#${t.tag}` : t.word)).join(' ');
      templates.set(template, (templates.get(template) ?? 0) + 1);
    }
  }
  const words: Record<string, SlotTag[]> = {};
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
