/**
 * Draws candidate lines inside the learned grammar: pick a template (weighted by how many songwriter lines
 * have that shape, skipping shapes already used in the song and shapes whose length cannot fit the syllable
 * range), fix its last slot to a rhyme word of that part of speech when the line must rhyme, then fill the
 * slots left to right from the language model's next-word distribution restricted to the words that play
 * that part of speech. Function words stay as the template has them, so agreement, determiners and the verb
 * come from a real line's structure; the LineWriter then filters and reranks the candidates.
 */
import type { Rng } from '../random.js';
import { fixArticles, parseTemplate } from './grammar.js';
import { isAdjectiveTag, isNounTag, parseSpanishTemplate } from './grammar-es.js';
import type { GrammarJson } from './grammar-train.js';
import { countWordSyllables } from './syllables.js';
import type { Vocabulary } from './vocabulary.js';

/** A slot tag: English "NN", "VBZ" ...; Spanish "N.f.s", "V.3p" ... (grammar-es.ts). */
type Tag = string;

export interface LoadedTemplate {
  id: number;
  items: Array<{ word: string; tag: Tag | null }>;
  /** Literal word ids (slots -1). */
  literalIds: number[];
  weight: number;
  /** Syllables of the literal words plus ~1.5 per slot: a cheap guess of the filled line's length. */
  estimatedSyllables: number;
}

export interface LoadedGrammar {
  templates: LoadedTemplate[];
  idsByTag: Map<Tag, number[]>;
  tagsById: Map<number, Tag[]>;
  language: string;
}

export interface GrammarCandidate {
  ids: number[];
  template: number;
  tags: Array<Tag | null>;
}

/** A filled slot's syllables, roughly: English content words are shorter than Spanish ones. */
const SYLLABLES_PER_SLOT: Record<string, number> = { en: 1.5, es: 2.2 };
const TEMPERATURE = 0.5;

export function loadGrammar(json: GrammarJson, vocab: Vocabulary, language = 'en'): LoadedGrammar {
  const idsByTag = new Map<Tag, number[]>();
  const tagsById = new Map<number, Tag[]>();
  const perSlot = SYLLABLES_PER_SLOT[language] ?? 1.5;
  for (const [word, tags] of Object.entries(json.words)) {
    const id = vocab.idOrUndefined(word);
    if (id === undefined) continue;
    tagsById.set(id, tags);
    for (const tag of tags) {
      let ids = idsByTag.get(tag);
      if (!ids) idsByTag.set(tag, (ids = []));
      ids.push(id);
    }
  }
  const templates: LoadedTemplate[] = [];
  for (const [template, count] of json.templates) {
    const items: LoadedTemplate['items'] = language === 'es' ? parseSpanishTemplate(template) : parseTemplate(template);
    // Every slot needs words to fill it and every literal must be in the vocabulary.
    if (items.some((it) => (it.tag ? !idsByTag.has(it.tag) : vocab.idOrUndefined(it.word) === undefined))) continue;
    const estimatedSyllables = items.reduce((s, it) => s + (it.tag ? perSlot : countWordSyllables(it.word, language)), 0);
    templates.push({
      id: templates.length,
      items,
      literalIds: items.map((it) => (it.tag ? -1 : vocab.id(it.word))),
      weight: Math.sqrt(count),
      estimatedSyllables,
    });
  }
  return { templates, idsByTag, tagsById, language };
}

export interface GrammarSampleRequest {
  /** The LM's context: the song so far. */
  history: readonly number[];
  syllables: [number, number];
  /** Words the line may end on to rhyme, with their weights (empty for a free line). */
  rhymeWords: ReadonlyArray<{ id: number; weight: number }>;
  usedTemplates: ReadonlySet<number>;
  count: number;
  /** When every template is used, draw from them all again (instead of returning nothing). */
  reuseWhenExhausted?: boolean;
}

export class GrammarSampler {
  constructor(
    private readonly grammar: LoadedGrammar,
    private readonly vocab: Vocabulary,
    private readonly rng: Rng,
    /** Next-word weights given a context (LM mixture times mood multipliers); a fresh array. */
    private readonly nextWeights: (context: readonly number[]) => Float64Array,
    /** Whether a word may end a line. */
    private readonly canEnd: (id: number) => boolean,
  ) {}

  sample(req: GrammarSampleRequest): GrammarCandidate[] {
    const [min, max] = req.syllables;
    let pool = this.grammar.templates.filter((t) => !req.usedTemplates.has(t.id) && t.estimatedSyllables >= min - 2 && t.estimatedSyllables <= max + 2);
    if (pool.length === 0) pool = this.grammar.templates.filter((t) => !req.usedTemplates.has(t.id));
    // A small grammar (the Spanish corpus gives a few dozen shapes) runs out of unused shapes within a song:
    // a shape may then come back with other words, rather than leaving the line to the n-gram sampler.
    if (pool.length === 0 && req.reuseWhenExhausted) pool = this.grammar.templates;
    if (pool.length === 0) return [];
    const weights = pool.map((t) => t.weight);
    const out: GrammarCandidate[] = [];
    for (let i = 0; i < req.count; i++) {
      const template = pool[this.rng.weighted(weights)];
      const filled = this.fill(template, req);
      if (filled) out.push(filled);
    }
    return out;
  }

  private fill(template: LoadedTemplate, req: GrammarSampleRequest): GrammarCandidate | null {
    const { items } = template;
    const lastIndex = items.length - 1;
    let endWord: number | undefined;
    if (req.rhymeWords.length > 0) {
      const lastTag = items[lastIndex].tag;
      if (!lastTag) return null; // a line that must rhyme needs a content word at its end
      const fits = req.rhymeWords.filter((r) => this.grammar.tagsById.get(r.id)?.includes(lastTag) && this.endsNounPhrase(r.id, lastTag));
      if (fits.length === 0) return null;
      endWord = fits[this.rng.weighted(fits.map((r) => r.weight))].id;
    }
    const context = [...req.history];
    const ids: number[] = [];
    for (let i = 0; i < items.length; i++) {
      const it = items[i];
      let id: number;
      if (!it.tag) id = template.literalIds[i];
      else if (i === lastIndex && endWord !== undefined) id = endWord;
      else {
        const allowed = this.grammar.idsByTag.get(it.tag)!;
        const dist = this.nextWeights(context);
        const w = allowed.map((a) => (ids.includes(a) || (i === lastIndex && !this.endsNounPhrase(a, it.tag!)) ? 0 : dist[a] ** (1 / TEMPERATURE)));
        if (!w.some((x) => x > 0)) return null;
        id = allowed[this.rng.weighted(w)];
      }
      ids.push(id);
      context.push(id);
    }
    return { ids: this.withArticles(ids), template: template.id, tags: items.map((it) => it.tag) };
  }

  /** A line-final noun is not also an adjective: "on my cold" reads as a noun phrase without its noun. */
  private endsNounPhrase(id: number, tag: Tag): boolean {
    if (!this.canEnd(id)) return false;
    const noun = tag === 'NN' || tag === 'NNS' || isNounTag(tag);
    return !noun || !this.grammar.tagsById.get(id)?.some((t) => t === 'JJ' || isAdjectiveTag(t));
  }

  /** "a" and "an" agree with the sound of the word after them. */
  private withArticles(ids: number[]): number[] {
    if (this.grammar.language !== 'en') return ids;
    const fixed = fixArticles(ids.map((id) => this.vocab.token(id)));
    return fixed.map((w, i) => this.vocab.idOrUndefined(w) ?? ids[i]);
  }
}
