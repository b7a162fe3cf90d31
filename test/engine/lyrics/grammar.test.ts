import { describe, expect, it } from 'vitest';
import { fixArticles, grammarFaults, isContentWord, parseTemplate, takesAn, type SlotTag, type TaggedWord } from '../../../src/engine/lyrics/grammar.js';
import { learnGrammar, tagLine } from '../../../src/engine/lyrics/grammar-train.js';
import { GrammarSampler, loadGrammar } from '../../../src/engine/lyrics/grammar-writer.js';
import { Vocabulary } from '../../../src/engine/lyrics/vocabulary.js';
import { Rng } from '../../../src/engine/random.js';
import type { LyricsDocument } from '../../../src/engine/types.js';

/** "we are turning:VBG" -> tagged words: a word with ":TAG" fills that slot, a bare word is a function word. */
const line = (text: string): TaggedWord[] =>
  text.split(' ').map((item) => {
    const [word, tag] = item.split(':');
    return { word, tag: (tag as SlotTag | undefined) ?? null };
  });
const faults = (text: string) => grammarFaults(line(text)).sort();

describe('grammarFaults', () => {
  it('passes lines with a subject, an agreeing verb and whole noun phrases', () => {
    for (const ok of [
      'the ferry:NN coughed:VBD its engine:NN through the frost:NN',
      'we are turning:VBG home:NN',
      'she knows:VBZ the way:NN',
      'the lights:NNS are low:JJ',
      'i will wind:VB the old:JJ clock:NN',
      "don't let:VB the fire:NN down",
      "let's go:VB",
      'hold:VB on',
    ])
      expect(faults(ok), ok).toEqual([]);
  });

  it('asks for a verb in the line and in every clause of three words or more', () => {
    expect(faults('salt:NN upon my cheek:NN')).toEqual(['verb']);
    expect(faults('the island:NN shrinking:VBG small:JJ')).toEqual(['verb']); // an -ing form alone is no verb
    expect(faults('the island:NN is shrinking:VBG')).toEqual([]);
    expect(faults('the night:NN falls:VBZ and the rain:NN on the roof:NN')).toEqual(['verb']);
    expect(faults('the night:NN falls:VBZ and the rain:NN sings:VBZ')).toEqual([]);
    expect(faults('salt:NN and bread:NN')).toEqual(['verb']); // a list is no clause, but the line still needs its verb
  });

  it('allows one determiner per noun phrase, a noun after it, and no line ending on a determiner', () => {
    expect(faults('the night:NN is a the night:NN')).toEqual(['determiner']);
    expect(faults('i hold:VB my the hand:NN')).toEqual(['determiner']);
    expect(faults('the harbour:NN is a slow:JJ')).toEqual(['determiner']);
    expect(faults('the cold:JJ were young:JJ')).toEqual(['determiner']);
    expect(faults('the harbour:NN is a')).toEqual(['determiner']);
    expect(faults('i wrote:VBD a letter:NN to')).toEqual(['determiner']);
    expect(faults('the one is gone:VBN')).toEqual([]);
    expect(faults('i know:VB that the night:NN is long:JJ')).toEqual([]); // "that" is a conjunction here
  });

  it('makes subject and verb agree', () => {
    expect(faults('we knows:VBZ the way:NN')).toEqual(['agreement']);
    expect(faults('she hold:VB the light:NN')).toEqual(['agreement']);
    expect(faults('i are lost:VBN')).toEqual(['agreement']);
    expect(faults('the answers:NNS is velvet:JJ')).toEqual(['agreement']);
    expect(faults('the night:NN are long:JJ')).toEqual(['agreement']);
    expect(faults('the old:JJ night:NN turn:VB')).toEqual(['agreement']);
    expect(faults('we are is turning:VBG')).toEqual(['agreement']);
    expect(faults('i will goes:VBZ home:NN')).toEqual(['agreement']);
    expect(faults("don't dancing:VBG")).toEqual(['agreement']);
    expect(faults('i will find:VB the shore:NN go:VB')).toEqual(['agreement']); // verb + object + bare verb
    expect(faults('and she knows:VBZ the way:NN')).toEqual([]);
    expect(faults('the night:NN falls:VBZ and we run:VB')).toEqual([]);
    expect(faults('and we knows:VBZ')).toEqual(['agreement']); // checked at the start of every clause
  });

  it('refuses a word twice in a row', () => {
    expect(faults('the the night:NN falls:VBZ')).toEqual(['determiner', 'doubled']);
    expect(faults('we run:VB run:VB')).toEqual(['doubled']);
  });
});

describe('articles', () => {
  it('agree with the sound of the next word', () => {
    expect(fixArticles('a answer is an night and a hour an one'.split(' ')).join(' ')).toBe('an answer is a night and an hour a one');
    expect(takesAn('umbrella')).toBe(true);
    expect(takesAn('union')).toBe(false);
  });
});

describe('isContentWord', () => {
  it('counts content words and leaves function words free', () => {
    expect(['night', 'burning', 'harbour'].every((w) => isContentWord(w, 'en'))).toBe(true);
    expect(['the', 'is', "don't", 'with', 'i'].some((w) => isContentWord(w, 'en'))).toBe(false);
    expect(isContentWord('noche', 'es')).toBe(true);
    expect(isContentWord('la', 'es')).toBe(false);
  });
});

const doc = (id: string, lines: string[]): LyricsDocument => ({
  id,
  title: id,
  songwriterId: 'w',
  artistId: 'a',
  language: 'en',
  mood: ['calm'],
  theme: 'night',
  sections: [{ name: 'verse_1', lines }],
});
const DOCS = [
  doc('one', ['I hold the light in my hands', 'the river keeps the secret of the stone', 'salt upon my cheek', 'Fold the blanket, climb the stair']),
  doc('two', [
    'I hold the lamp in my hands',
    'the harbour keeps the promise of the night',
    'we are turning home tonight',
    'the river sings',
    'Mother wrapped a loaf in cloth',
    'is mine in my hand',
  ]),
];
const vocabularyOf = (docs: LyricsDocument[]) =>
  Vocabulary.build([docs.flatMap((d) => d.sections.flatMap((s) => s.lines.flatMap((l) => tagLine(l)!.map((t) => t.word))))], 1);

describe('learnGrammar', () => {
  it('keeps the shapes of songwriter lines that have a verb, and the parts of speech their words play', () => {
    const grammar = learnGrammar(DOCS, vocabularyOf(DOCS));
    const templates = new Map(grammar.templates);
    expect(templates.get('i #VB the #NN in my #NNS')).toBe(2);
    expect(templates.get('the #NN #VBZ the #NN of the #NN')).toBe(2);
    expect([...templates.keys()].some((t) => t.includes('upon'))).toBe(false); // "salt upon my cheek" has no verb
    expect([...templates.keys()].some((t) => t.includes('#VB the #NN #VB'))).toBe(false); // the comma line
    expect([...templates.keys()].some((t) => t.startsWith('#NN '))).toBe(false); // "Mother wrapped ...": a bare noun
    expect([...templates.keys()].some((t) => t.startsWith('is '))).toBe(false); // "is mine in my hand": no subject
    expect(grammar.words.river).toEqual(['NN']);
    expect(grammar.words.keeps).toEqual(['VBZ']);
    expect(grammar.words.hands).toEqual(['NNS']);
    for (const [template] of grammar.templates) expect(grammarFaults(parseTemplate(template)), template).toEqual([]);
  });
});

describe('GrammarSampler', () => {
  const vocab = vocabularyOf(DOCS);
  const grammar = loadGrammar(learnGrammar(DOCS, vocab), vocab);
  const sampler = (seed: number) =>
    new GrammarSampler(
      grammar,
      vocab,
      new Rng(seed),
      () => new Float64Array(vocab.size).fill(1),
      () => true,
    );
  const request = { history: [Vocabulary.BOS_ID, Vocabulary.BOS_ID], syllables: [4, 12] as [number, number], usedTemplates: new Set<number>(), count: 20 };

  it('fills every slot with a word of its part of speech, deterministically for a seed', () => {
    const a = sampler(7).sample({ ...request, rhymeWords: [] });
    expect(a.length).toBeGreaterThan(0);
    expect(sampler(7).sample({ ...request, rhymeWords: [] })).toEqual(a);
    for (const c of a) {
      const words = c.ids.map((id) => vocab.token(id));
      c.tags.forEach((tag, i) => {
        if (tag) expect(grammar.tagsById.get(c.ids[i]), `${words.join(' ')}: ${words[i]}`).toContain(tag);
      });
      expect(grammarFaults(words.map((word, i) => ({ word, tag: c.tags[i] as SlotTag | null })))).toEqual([]);
    }
  });

  it('ends a rhyming line on one of the rhyme words that fits the last slot, and skips used templates', () => {
    const stone = vocab.id('stone');
    const out = sampler(3).sample({ ...request, rhymeWords: [{ id: stone, weight: 1 }] });
    expect(out.length).toBeGreaterThan(0);
    for (const c of out) expect(c.ids.at(-1)).toBe(stone);
    const used = new Set(grammar.templates.map((t) => t.id));
    expect(sampler(3).sample({ ...request, rhymeWords: [], usedTemplates: used })).toEqual([]);
  });
});
