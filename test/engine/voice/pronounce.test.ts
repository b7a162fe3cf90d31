import { beforeAll, describe, expect, it } from 'vitest';
import { demoLyricsCorpus } from '../../../src/demo/content/lyrics/index.js';
import { countLineSyllables } from '../../../src/engine/lyrics/syllables.js';
import { tokenizeLine } from '../../../src/engine/lyrics/tokenizer.js';
import { englishByRules } from '../../../src/engine/pronounce/english-rules.js';
import { englishPhones, loadEnglishDictionary, type PronouncingDictionary } from '../../../src/engine/pronounce/english.js';
import { createPronouncer, type Pronouncer } from '../../../src/engine/pronounce/index.js';
import type { Syllable } from '../../../src/engine/pronounce/phonemes.js';
import { syllabify } from '../../../src/engine/pronounce/syllabify.js';

const show = (syllables: Syllable[]) => syllables.map((s) => [...s.onset, ...s.nucleus, ...s.coda].join(' ')).join(' | ');
const stresses = (syllables: Syllable[]) => syllables.map((s) => s.stress);

describe('English pronunciation', () => {
  let en: Pronouncer;
  let dict: PronouncingDictionary;
  beforeAll(async () => {
    en = await createPronouncer('en');
    dict = await loadEnglishDictionary();
  });

  it('reads words from the CMU dictionary, with stress, and syllabifies by maximal onset', () => {
    const line = en.line('Hello, streetlights whisper through the rain tonight');
    expect(line.words.every((w) => w.source === 'dictionary')).toBe(true);
    expect(show(line.words[0].syllables)).toBe('HH AX | L OW');
    expect(stresses(line.words[0].syllables)).toEqual([0, 1]);
    expect(show(line.words[1].syllables)).toBe('S T R IY T | L AY T S'); // "streetlights": stem + suffix
    expect(show(line.words[2].syllables)).toBe('W IH | S P ER'); // s+p is an onset: "whi-sper"
    expect(line.syllables).toHaveLength(2 + 2 + 2 + 1 + 1 + 1 + 2);
    expect(show(en.line('extra').syllables)).toBe('EH K | S T R AX');
  });

  it('falls back to stem + suffix, compounds, then letter-to-sound rules for unknown words', () => {
    expect(dict['fogged']).toBeUndefined();
    expect(englishPhones('fogged', dict)).toMatchObject({ source: 'dictionary' });
    expect(
      englishPhones('fogged', dict)
        .phones.map((p) => p.phone)
        .join(' '),
    ).toBe('F AA G D');
    expect(
      englishPhones('starfield', dict)
        .phones.map((p) => p.phone)
        .join(' '),
    ).toBe('S T AA R F IY L D');

    const invented = en.line('blorptastic glimmerwave');
    expect(invented.words.map((w) => w.source)).toEqual(['rules', 'dictionary']);
    expect(show(invented.words[0].syllables)).toBe('B L AO R P | T AE | S T IH K');
    expect(
      englishByRules('shine')
        .map((p) => p.phone)
        .join(' '),
    ).toBe('SH AY N'); // magic e
    expect(
      englishByRules('nightly')
        .map((p) => p.phone)
        .join(' '),
    ).toBe('N AY T L IY');
    expect(
      englishByRules('station')
        .map((p) => p.phone)
        .join(' '),
    ).toContain('SH AX N');
  });

  it('gives the same syllable count as the dictionary for most of the lyric corpus words (rules alone)', () => {
    const words = new Set(
      demoLyricsCorpus.filter((d) => d.language === 'en').flatMap((d) => d.sections.flatMap((s) => s.lines.flatMap((l) => tokenizeLine(l, 'en')))),
    );
    let compared = 0;
    let agreed = 0;
    for (const word of words) {
      if (!dict[word]) continue;
      compared++;
      if (syllabify(englishPhones(word, dict).phones, 'en').length === syllabify(englishByRules(word), 'en').length) agreed++;
    }
    expect(compared).toBeGreaterThan(1000);
    expect(agreed / compared).toBeGreaterThan(0.9); // 0.946 when written
  });
});

describe('Spanish pronunciation', () => {
  let es: Pronouncer;
  beforeAll(async () => {
    es = await createPronouncer('es');
  });
  const word = (w: string) => es.line(w).syllables;

  it('applies the letter-to-sound rules', () => {
    expect(show(word('ciudad'))).toBe('S Y u | DH a DH'); // seseo, diphthong, soft final d
    expect(show(word('guerra'))).toBe('G e | RR a'); // silent u, trill
    expect(show(word('pingüino'))).toBe('P i NG | G W i | N o'); // n before a velar, ü is said
    expect(show(word('caro'))).toBe('K a | DX o'); // tap
    expect(show(word('rosa'))).toBe('RR o | S a'); // initial r is a trill
    expect(show(word('hoy'))).toBe('o Y'); // silent h, final y is a glide
    expect(show(word('llueve'))).toBe('Y W e | B e'); // yeísmo, v = b
    expect(show(word('niño'))).toBe('N i | NY o');
    expect(show(word('gente jota'))).toBe('X e N | T e | X o | T a');
    expect(show(word('queso'))).toBe('K e | S o');
    expect(show(word('poeta'))).toBe('P o | e | T a'); // hiatus
  });

  it('places stress by the written accent, else by the word ending', () => {
    expect(stresses(word('canción'))).toEqual([0, 1]);
    expect(stresses(word('casa'))).toEqual([1, 0]);
    expect(stresses(word('cantar'))).toEqual([0, 1]);
    expect(stresses(word('árboles'))).toEqual([1, 0, 0]);
    expect(stresses(word('día'))).toEqual([1, 0]); // accented í breaks the diphthong
  });

  it('joins vowels across words (synalepha) and counts every corpus line as the lyrics engine does', () => {
    const line = es.line('Tengo el corazón en tu mirada');
    expect(line.syllables).toHaveLength(10);
    expect(line.syllables[1].nucleus).toEqual(['o', 'e']);
    const lines = demoLyricsCorpus.filter((d) => d.language === 'es').flatMap((d) => d.sections.flatMap((s) => s.lines));
    expect(lines.length).toBeGreaterThan(100);
    for (const text of lines) expect(es.line(text).syllables.length, text).toBe(countLineSyllables(text, 'es'));
  });
});
