import { describe, expect, it } from 'vitest';
import { documentTokens, tokenizeLine, detectLanguage, normaliseForMatching } from '../../../src/engine/lyrics/tokenizer.js';
import { countLineSyllables, countWordSyllables } from '../../../src/engine/lyrics/syllables.js';
import { rhymeKey, wordsRhyme } from '../../../src/engine/lyrics/rhyme.js';

describe('tokenizer', () => {
  it('keeps English contractions and drops punctuation', () => {
    expect(tokenizeLine("Don't  stop, I’m FLYING!", 'en')).toEqual(["don't", 'stop', "i'm", 'flying']);
  });

  it('keeps Spanish accents and ñ and drops ¿ ¡', () => {
    expect(tokenizeLine('¿Dónde está el año, señor?', 'es')).toEqual(['dónde', 'está', 'el', 'año', 'señor']);
  });

  it('marks line breaks and section boundaries as tokens', () => {
    const tokens = documentTokens(
      {
        id: 'x',
        title: 'x',
        songwriterId: 'w',
        artistId: 'a',
        language: 'en',
        mood: [],
        theme: 't',
        sections: [
          { name: 'verse_1', lines: ['Hello there', 'blue sky'] },
          { name: 'chorus', lines: ['la la'] },
        ],
      },
      2,
    );
    expect(tokens).toEqual(['<s>', '<s>', '<sec:verse>', 'hello', 'there', '<nl>', 'blue', 'sky', '<nl>', '<sec:chorus>', 'la', 'la', '<nl>', '</s>']);
  });

  it('normalises lines for copy matching and detects language', () => {
    expect(normaliseForMatching('Hold ON, to the Light!')).toBe(normaliseForMatching('hold on to the light'));
    expect(normaliseForMatching('Canción del Corazón')).toBe('cancion del corazon');
    expect(detectLanguage('la luna y el mar de mi corazón')).toBe('es');
    expect(detectLanguage('you and me under the sky')).toBe('en');
  });
});

describe('syllables', () => {
  it('counts English words from spelling', () => {
    expect(
      [
        ['home', 1],
        ['tonight', 2],
        ['remember', 3],
        ['wanted', 2],
        ['loved', 1],
        ['beautiful', 3],
        ['table', 2],
      ].map(([w]) => countWordSyllables(w as string, 'en')),
    ).toEqual([1, 2, 3, 2, 1, 3, 2]);
    expect(countLineSyllables('Hold on to the summer light', 'en')).toBe(7);
  });

  it('counts Spanish with diphthongs, hiatus and synalepha', () => {
    expect(countWordSyllables('ciudad', 'es')).toBe(2);
    expect(countWordSyllables('poeta', 'es')).toBe(3);
    expect(countWordSyllables('día', 'es')).toBe(2);
    expect(countWordSyllables('que', 'es')).toBe(1);
    expect(countLineSyllables('La luz del faro cruza la noche', 'es')).toBe(10);
    expect(countLineSyllables('todo el mar', 'es')).toBe(3); // to-doel-mar
  });
});

describe('rhyme keys', () => {
  it('English: last stressed vowel sound + coda', () => {
    for (const [a, b] of [
      ['night', 'bright'],
      ['time', 'rhyme'],
      ['me', 'free'],
      ['day', 'away'],
      ['heart', 'apart'],
      ['slow', 'go'],
      ['fire', 'higher'],
      ['find', 'mind'],
      ['town', 'down'],
    ]) {
      expect(wordsRhyme(a, b, 'en'), `${a}/${b}`).toBe(true);
    }
    for (const [a, b] of [
      ['night', 'day'],
      ['town', 'known'],
      ['love', 'home'],
    ])
      expect(wordsRhyme(a, b, 'en'), `${a}/${b}`).toBe(false);
    expect(wordsRhyme('light', 'light', 'en')).toBe(false);
  });

  it('Spanish: assonance from the stressed vowel', () => {
    expect(rhymeKey('corazón', 'es')).toBe('o');
    expect(rhymeKey('amor', 'es')).toBe('o');
    expect(wordsRhyme('luna', 'ninguna', 'es')).toBe(true);
    expect(wordsRhyme('cielo', 'vuelo', 'es')).toBe(true);
    expect(wordsRhyme('noche', 'mar', 'es')).toBe(false);
  });
});
