/**
 * The station's lyrics model trained on its real corpus (src/demo/content: 60 English and 10 Spanish original
 * songs) with the default hyperparameters, as the training job does. Measured on this corpus (seed 1):
 * English held-out perplexity KN 45.3, neural 44.5, interpolated 40.3 vs unigram 73.0 (ratio 0.55);
 * generation over 10 fixed-seed songs rhymes ~98% of the asked pairs at ~-3.1 nats per token.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { demoLyricsCorpus } from '../../../src/demo/content/index.js';
import { DEFAULT_LYRICS_HYPERPARAMS, trainLyricsModel } from '../../../src/engine/lyrics/train.js';
import { generateLyrics, type GenerateLyricsRequest, type GeneratedLyrics } from '../../../src/engine/lyrics/generate.js';
import { loadLanguage, type LyricsModel } from '../../../src/engine/lyrics/model.js';
import { UnsupportedLanguageError } from '../../../src/engine/lyrics/errors.js';
import { biasWordsFor } from '../../../src/engine/lyrics/lexicon.js';
import { SECTION_PLANS, rhymePairs } from '../../../src/engine/lyrics/section-plan.js';
import { countLineSyllables } from '../../../src/engine/lyrics/syllables.js';
import { wordsRhyme } from '../../../src/engine/lyrics/rhyme.js';
import { normaliseForMatching, sectionToken, tokenizeLine } from '../../../src/engine/lyrics/tokenizer.js';
import { CopyGuard } from '../../../src/engine/lyrics/copy-guard.js';

let model: LyricsModel;

const STRUCTURE = 'verse-chorus-verse-chorus-bridge-chorus';
const ENGLISH_REQUESTS: Array<[string, string[]]> = [
  ['leaving home', ['melancholic']],
  ['city nights', ['restless']],
  ['first love', ['romantic']],
  ['summer', ['joyful']],
  ['rain', ['calm']],
  ['winter', ['nostalgic']],
  ['road trips', ['energetic']],
  ['loss', ['melancholic']],
  ['stars', ['dreamy']],
  ['friendship', ['warm']],
];
const request = (over: Partial<GenerateLyricsRequest>): GenerateLyricsRequest => ({
  mood: ['hopeful'],
  theme: 'summer',
  language: 'en',
  structure: STRUCTURE,
  seed: 1,
  ...over,
});

beforeAll(async () => {
  model = await trainLyricsModel(demoLyricsCorpus, DEFAULT_LYRICS_HYPERPARAMS, { seed: 1 });
}, 120_000);

/** Mean natural-log probability per token of the song as sung (repeats included), under the 50/50 KN + neural mixture. */
function meanTokenLogProb(out: GeneratedLyrics): number {
  const lang = loadLanguage(model, out.meta.language);
  const history = [0, 0];
  let total = 0,
    tokens = 0;
  for (const key of out.meta.order) {
    history.push(lang.vocabulary.id(sectionToken(out.meta.sections[key].kind)));
    for (const line of out.structure[key].split('\n')) {
      for (const id of [...lang.vocabulary.encode(tokenizeLine(line, out.meta.language)), lang.vocabulary.newlineId]) {
        total += Math.log(0.5 * lang.forward.probability(id, history) + 0.5 * Math.exp(lang.neural!.logProbs(history)[id]));
        tokens++;
        history.push(id);
      }
    }
  }
  return total / tokens;
}

describe('lyrics model trained on the demo corpus', () => {
  it('beats the unigram baseline on held-out English songs by a clear margin', () => {
    expect(model.training.epochsCompleted).toBe(DEFAULT_LYRICS_HYPERPARAMS.epochs);
    const en = model.perLanguage.en.metrics;
    expect(en.heldOutDocs).toBeGreaterThanOrEqual(5);
    const p = en.perplexity!;
    // Measured 0.55; 0.6 leaves room for backend rounding without letting a regression to KN alone (0.62) pass.
    expect(p.interpolated!).toBeLessThan(0.6 * p.unigram);
    expect(p.kneserNey).toBeLessThan(0.7 * p.unigram);
    expect(p.neural!).toBeLessThan(0.7 * p.unigram);
    expect(p.interpolated!).toBeLessThan(Math.min(p.kneserNey, p.neural!));
    expect(model.perLanguage.es.metrics.perplexity!.interpolated!).toBeLessThan(model.perLanguage.es.metrics.perplexity!.unigram);
  });

  it('writes English songs that rhyme, scan, read fluently and copy no corpus line (10 fixed seeds)', () => {
    const corpusLines = demoLyricsCorpus.flatMap((d) => d.sections.flatMap((s) => s.lines));
    const exact = new Set(corpusLines.map(normaliseForMatching));
    const guard = CopyGuard.fromLines(corpusLines);
    let rhymed = 0,
      pairs = 0,
      inRange = 0,
      lines = 0,
      logProb = 0;
    ENGLISH_REQUESTS.forEach(([theme, mood], i) => {
      const out = generateLyrics(model, request({ theme, mood, seed: 100 + i }));
      logProb += meanTokenLogProb(out) / ENGLISH_REQUESTS.length;
      for (const [key, text] of Object.entries(out.structure)) {
        const {
          scheme,
          syllables: [min, max],
        } = SECTION_PLANS[out.meta.sections[key].kind];
        const sectionLines = text.split('\n');
        for (const line of sectionLines) {
          lines++;
          const n = countLineSyllables(line, 'en');
          if (n >= min && n <= max) inRange++;
          expect(exact.has(normaliseForMatching(line)), `copied: ${line}`).toBe(false);
          expect(guard.isCopy(line), `5-gram copy: ${line}`).toBe(false);
          expect(line, 'word repeated back to back').not.toMatch(/\b(\w+) \1\b/i);
        }
        for (const [a, b] of rhymePairs(scheme)) {
          const end = (j: number) => tokenizeLine(sectionLines[j], 'en').at(-1)!;
          pairs++;
          if (wordsRhyme(end(a), end(b), 'en')) rhymed++;
        }
      }
    });
    expect(pairs).toBe(70);
    expect(rhymed / pairs).toBeGreaterThanOrEqual(0.8); // measured 0.99; the previous writer reached 0.89 with looser rhymes
    expect(inRange / lines).toBeGreaterThanOrEqual(0.95);
    expect(logProb).toBeGreaterThan(-3.6); // measured -3.1; the previous writer's songs scored -4.6
  });

  it("pulls generation toward the request's theme and mood words", () => {
    const themes: Array<[string, string[]]> = [
      ['rain', ['calm']],
      ['summer', ['joyful']],
      ['winter', ['nostalgic']],
      ['stars', ['dreamy']],
    ];
    const songs = themes.map(([theme, mood]) => {
      const out = generateLyrics(model, request({ theme, mood, seed: 7 }));
      return Object.values(out.structure).flatMap((text) => tokenizeLine(text, 'en'));
    });
    themes.forEach(([theme, mood], i) => {
      const lexicon = biasWordsFor(model.perLanguage.en.lexicon, mood, theme, 'en');
      const share = (words: string[]) => words.filter((w) => lexicon.has(w)).length / words.length;
      const others = songs.filter((_, j) => j !== i).map(share);
      expect(share(songs[i]), theme).toBeGreaterThan(Math.max(...others));
    });
  });

  it('writes Spanish, and refuses a language it was not trained on', () => {
    const out = generateLyrics(model, request({ language: 'es', theme: 'el mar', mood: ['melancholic'], seed: 5 }));
    expect(out.meta.language).toBe('es');
    expect(Object.keys(out.structure)).toEqual(['verse_1', 'chorus', 'verse_2', 'bridge']);
    const text = Object.values(out.structure).join('\n');
    expect(text).toMatch(/\b(el|la|de|mi|tu|y|que)\b/i);
    expect(out.meta.rhymedPairs / out.meta.rhymePairsAsked).toBeGreaterThanOrEqual(0.7);
    expect(() => generateLyrics(model, request({ language: 'fr' }))).toThrow(UnsupportedLanguageError);
  });
});
