/**
 * The Spanish line grammar (grammar-es.ts): rules for agreement, determiners and the verb; the rule-based
 * tagger that turns a songwriter's line into a template; learning and filling templates; and the Spanish
 * syllable counts and rhymes the line writer fits to the melody.
 */
import { describe, expect, it } from 'vitest';
import {
  learnNounGenders,
  learnSpanishGrammar,
  parseSpanishTemplate,
  spanishGrammarFaults,
  tagSpanishLine,
  takesMasculineArticle,
  type SpanishTaggedWord,
} from '../../../src/engine/lyrics/grammar-es.js';
import { GrammarSampler, loadGrammar } from '../../../src/engine/lyrics/grammar-writer.js';
import { rhymeKey, spanishConsonantKey, wordsRhyme } from '../../../src/engine/lyrics/rhyme.js';
import { countLineSyllables } from '../../../src/engine/lyrics/syllables.js';
import { Vocabulary } from '../../../src/engine/lyrics/vocabulary.js';
import { Rng } from '../../../src/engine/random.js';
import type { LyricsDocument } from '../../../src/engine/types.js';

/** "la noche:N.f.s es larga:A.f.s" -> tagged words; a bare word is a function word. */
const line = (text: string): SpanishTaggedWord[] =>
  text.split(' ').map((item) => {
    const [word, tag] = item.split(':');
    return { word, tag: tag ?? null };
  });
const faults = (text: string) => spanishGrammarFaults(line(text)).sort();

describe('spanishGrammarFaults', () => {
  it('passes lines whose determiner, noun, adjective and verb agree', () => {
    for (const ok of [
      'la noche:N.f.s es larga:A.f.s',
      'las gaviotas:N.f.p cruzan:V.3p el puerto:N.m.s viejo:A.m.s',
      'yo vuelvo:V.1s cada primavera:N.f.s',
      'el mar:N.m.s me enseña:V.3s a volver:V.inf',
      'los barcos:N.m.p no se van:V.3p',
      'mi voz:N.f.s es mía',
      'el cielo:N.m.s gris:A.c.s me acompaña:V.3s',
    ])
      expect(faults(ok), ok).toEqual([]);
  });

  it('finds gender and number disagreement between determiner, noun and adjective', () => {
    expect(faults('la camino:N.m.s se queda:V.3s')).toEqual(['agreement']);
    expect(faults('los casa:N.f.s se queda:V.3s')).toEqual(['agreement']);
    expect(faults('la noche:N.f.s es largo:A.m.s')).toEqual(['agreement']);
    expect(faults('las noches:N.f.p son larga:A.f.s')).toEqual(['agreement']);
    expect(faults('el puerto:N.m.s viejos:A.m.p duerme:V.3s')).toEqual(['agreement']);
  });

  it('finds subject-verb disagreement in person and number', () => {
    expect(faults('yo canta:V.3s en la calle:N.f.s')).toEqual(['agreement']);
    expect(faults('nosotros bailan:V.3p')).toEqual(['agreement']);
    expect(faults('tú no me quieres:V.2s')).toEqual([]);
    expect(faults('la luna:N.f.s son blanca:A.f.s')).toEqual(['agreement']); // "son" is plural
    expect(faults('las olas:N.f.p me canta:V.3s')).toEqual(['agreement']);
    expect(faults('la luna:N.f.s es son')).toEqual(['agreement']); // two copulas
  });

  it('asks for one determiner per noun phrase, a noun after it, and no dangling end', () => {
    expect(faults('la el viento:N.m.s cae:V.3s')).toEqual(['determiner']);
    expect(faults('el mar:N.m.s canta:V.3s con el')).toEqual(['determiner']);
    expect(faults('la noche:N.f.s cae:V.3s de')).toEqual(['determiner']);
    expect(faults('no la doy:V.1s')).toEqual([]); // "la" after "no" is a pronoun
  });

  it('asks for a finite verb in the line and in each clause of three words or more', () => {
    expect(faults('luna de cobre:N.m.s')).toEqual(['verb']);
    expect(faults('una silla:N.f.s esperando:V.ger')).toEqual(['verb']);
    expect(faults('la noche:N.f.s cae:V.3s y la lluvia:N.f.s en el mar:N.m.s')).toEqual(['verb']);
    expect(faults('la noche:N.f.s cae:V.3s y la lluvia:N.f.s canta:V.3s')).toEqual([]);
    expect(faults('el mar:N.m.s canta:V.3s canta:V.3s')).toEqual(['doubled']);
  });
});

describe('tagSpanishLine', () => {
  const genders = learnNounGenders(['la sal del mar', 'el mar de noche', 'la noche entera']);

  it('learns noun genders from their determiners', () => {
    expect(genders.get('sal')).toBe('f');
    expect(genders.get('mar')).toBe('m');
  });

  it('tags nouns, adjectives and verbs with the features agreement needs', () => {
    const tags = (text: string) =>
      tagSpanishLine(text, genders)!
        .map((t) => (t.tag ? `${t.word}:${t.tag}` : t.word))
        .join(' ');
    expect(tags('las gaviotas cruzan el puerto viejo')).toBe('las gaviotas:N.f.p cruzan:V.3p el puerto:N.m.s viejo:A.m.s');
    expect(tags('pero yo vuelvo cada primavera')).toBe('pero yo vuelvo:V.1s cada primavera:N.f.s');
    expect(tags('la noche es larga')).toBe('la noche:N.f.s es larga:A.f.s');
    expect(tags('un faro lejano parpadea')).toBe('un faro:N.m.s lejano:A.m.s parpadea:V.3s');
    expect(tags('camino de sal')).toBe('camino de sal:N.f.s');
    expect(tags('no la presto')).toBe('no la presto'); // a clitic, not a determiner: "presto" stays literal
  });

  it('keeps feminine nouns with a stressed a- out of the slots ("el agua")', () => {
    expect(takesMasculineArticle('agua')).toBe(true);
    expect(takesMasculineArticle('alma')).toBe(true);
    expect(takesMasculineArticle('águila')).toBe(true);
    expect(takesMasculineArticle('amiga')).toBe(false);
    expect(tagSpanishLine('el agua canta')![1].tag).toBeNull();
  });
});

describe('Spanish templates', () => {
  const lines = [
    'las gaviotas cruzan el puerto viejo',
    'las farolas bailan con el viento',
    'las estrellas brillan con el tiempo',
    'las olas cantan el barco viejo',
    'la noche es larga',
    'la tarde es fría',
    'la casa es blanca',
  ];
  const doc = (id: string, text: string[]): LyricsDocument => ({
    id,
    title: id,
    songwriterId: 'w',
    artistId: 'a',
    language: 'es',
    mood: ['calm'],
    theme: 'night',
    sections: [{ name: 'verse_1', lines: text }],
  });
  const docs = [doc('a', lines), doc('b', lines)];
  const vocab = Vocabulary.build([lines.flatMap((l) => l.split(' '))], 1);

  it('learns templates that pass the rules and word tags from the corpus', () => {
    const grammar = learnSpanishGrammar(docs, vocab);
    const shapes = grammar.templates.map(([t]) => t);
    expect(shapes).toContain('las #N.f.p #V.3p el #N.m.s #A.m.s');
    expect(shapes).toContain('la #N.f.s es #A.f.s');
    expect(grammar.words.gaviotas).toEqual(['N.f.p']);
    expect(grammar.words.larga).toEqual(['A.f.s']);
    for (const [t] of grammar.templates) expect(spanishGrammarFaults(parseSpanishTemplate(t)), t).toEqual([]);
  });

  it('fills templates into lines that keep their agreement, deterministically per seed', () => {
    const grammar = loadGrammar(learnSpanishGrammar(docs, vocab), vocab, 'es');
    const flat = () => new Float64Array(vocab.size).fill(1);
    const sampler = (seed: number) => new GrammarSampler(grammar, vocab, new Rng(seed), flat, () => true);
    const request = {
      history: [Vocabulary.BOS_ID, Vocabulary.BOS_ID],
      syllables: [4, 12] as [number, number],
      rhymeWords: [],
      usedTemplates: new Set<number>(),
      count: 24,
    };
    const a = sampler(3).sample(request);
    expect(a.length).toBeGreaterThan(10);
    expect(sampler(3).sample(request)).toEqual(a);
    for (const c of a) {
      const words = c.ids.map((id) => vocab.token(id));
      expect(spanishGrammarFaults(words.map((word, i) => ({ word, tag: c.tags[i] }))), words.join(' ')).toEqual([]);
    }
  });
});

describe('Spanish syllables and rhyme', () => {
  it('counts sung syllables with synalepha, also across "y"', () => {
    expect(countLineSyllables('la noche es larga', 'es')).toBe(5); // la-no-chees-lar-ga
    expect(countLineSyllables('luna y sol', 'es')).toBe(3); // lu-nay-sol
    expect(countLineSyllables('mi alma', 'es')).toBe(2); // mial-ma
    expect(countLineSyllables('te espero en la esquina', 'es')).toBe(6); // tes-pe-roen-laes-qui-na
  });

  it('rhymes from the stressed vowel: assonance by vowels, consonance by every sound', () => {
    expect(rhymeKey('luna', 'es')).toBe('ua');
    expect(wordsRhyme('luna', 'bruma', 'es')).toBe(true); // assonant
    expect(spanishConsonantKey('luna')).toBe(spanishConsonantKey('ninguna')); // consonant: "-una"
    expect(spanishConsonantKey('luna')).not.toBe(spanishConsonantKey('bruma'));
    expect(spanishConsonantKey('canción')).toBe('on');
    expect(spanishConsonantKey('corazón')).toBe('on');
    expect(spanishConsonantKey('noche')).toBe('oche');
    expect(spanishConsonantKey('cielo')).toBe(spanishConsonantKey('vuelo'));
    expect(spanishConsonantKey('voz')).toBe(spanishConsonantKey('dos')); // z and s sound alike (seseo)
  });
});
