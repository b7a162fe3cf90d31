/**
 * Writes one line under constraints by sample-and-select. With a learned grammar (English, Spanish), candidates are
 * drawn inside it (grammar-writer.ts: a songwriter's line shape, slots filled by the LM, the last slot a
 * rhyme word when the line must rhyme). Without one (older models), draw candidates forwards from the song so far
 * (sampling the Kneser-Ney + neural mixture at a temperature below 1) and, when the line must rhyme,
 * backwards from rhyme words (the line-reversed model), drop candidates that break a hard rule (syllable
 * range, corpus copy, repeated line or word, an end word that rarely ends a corpus line), drop word salad
 * (mean log-probability under the floor, unless nothing is left), and keep the best score:
 *
 *   score = mean log P_mix(line + <nl> | song so far)      P_mix = 0.5 * P_KN + 0.5 * P_neural
 *         + 0.2 * log P_mix of its least likely token
 *         + 0.4 * mean lexicon weight of its words (mood/theme)  + 3 if it rhymes as asked (+0.5 Spanish consonant rhyme)
 *         + 0.4 * log P(a line ends on its last word)  [+0.25 per rhyme partner of a free line's end word, max 0.75; -2 if none]
 *         - 0.3 per earlier use in the song of each of its content words
 *         - 0.3 per syllable away from the section's first line (the melody's phrase repeats)
 *
 * Candidates within two syllables of the section's first line are kept over the others when there are any
 * (among the candidates that rhyme as asked, when some do).
 *
 * Hard rules besides: no content word more than MAX_WORD_USES times in the song (a chorus counted once), no
 * line the caller asked to avoid (lines of the session's earlier songs), and a grammar line must pass
 * `grammarFaults` (Spanish: `spanishGrammarFaults`); a rhyme line that finds no grammar candidate falls back to the n-gram candidates.
 *
 * P_KN is the global model, or with style artists 0.5 * global + 0.5 * mean(artist models); without a
 * neural model P_mix is P_KN.
 */
import type { Rng } from '../random.js';
import { grammarFaults, isContentWord, type TaggedWord } from './grammar.js';
import { spanishGrammarFaults, tagSpanishLine } from './grammar-es.js';
import { GrammarSampler } from './grammar-writer.js';
import type { KneserNeyModel } from './kneser-ney.js';
import { FORBIDDEN_WEIGHT } from './lexicon.js';
import type { LoadedLanguage } from './model.js';
import { rhymeKey, spanishConsonantKey } from './rhyme.js';
import { countLineSyllables } from './syllables.js';
import { isSpecialToken, normaliseForMatching } from './tokenizer.js';
import { Vocabulary } from './vocabulary.js';

export interface LineRequest {
  history: readonly number[];
  syllables: [number, number];
  /** Rhyme key the line must end on, or null for a free line. */
  rhymeWith: string | null;
  /** The end word of the line it rhymes with: a Spanish line that rhymes in consonance with it scores more. */
  rhymePartner?: string;
  /** End words already used in this song (rhyming a word with itself is not a rhyme). */
  usedEndWords: ReadonlySet<string>;
  /** Normalised lines already in this song, and lines the caller asked to avoid. */
  usedLines: ReadonlySet<string>;
  /** Content word -> uses so far in this song (the chorus counted once). */
  wordUses: ReadonlyMap<string, number>;
  /** Grammar templates already used in this song. */
  usedTemplates: ReadonlySet<number>;
  /** Syllables of the section's first line, which the others should match. */
  targetSyllables?: number;
}

export interface WrittenLine {
  text: string;
  ids: number[];
  syllables: number;
  rhymeKey: string;
  rhymed: boolean;
  /** The grammar template it was written in, or null for an n-gram line. */
  template: number | null;
}

export interface LineWriterStats {
  candidates: number;
  rejectedCopies: number;
}

const FORWARD_CANDIDATES = 32;
const RHYME_WORDS = 8;
const BACKWARD_PER_WORD = 3;
const MAX_WORDS = 12;
const ARTIST_WEIGHT = 0.5;
const NEURAL_WEIGHT = 0.5;
const BIAS_STRENGTH = 1.5;
/** Sampling temperature: below 1 sharpens the distribution toward what the corpus actually says. */
const TEMPERATURE = 0.5;
/** Mean log-probability per token below which a line reads as word salad (perplexity ~ e^5 = 148). */
const FLUENCY_FLOOR = -5;
const WORST_TOKEN_WEIGHT = 0.2;
/** A line may not end on a word that ends under 5% of its corpus occurrences ("the", "my", "with"). */
const MIN_LINE_END_RATE = 0.05;
const LINE_START = [Vocabulary.BOS_ID, Vocabulary.BOS_ID];
/** No content word more often than this in one song (a chorus counted once). */
export const MAX_WORD_USES = 3;
const GRAMMAR_CANDIDATES = 32;
const REUSE_PENALTY = 0.3;
const SYLLABLE_PENALTY = 0.3;
const CONSONANT_RHYME_BONUS = 0.5;
/** Rounds a line that must rhyme gets to find a rhyming candidate before it settles for another. */
const RHYME_ROUNDS = 5;
/** Syllables a line may differ from its section's first line and still fit the same melodic phrase. */
const MAX_SYLLABLE_DRIFT = 2;
/** Whether a song may reuse a grammar template once it has used them all (see GrammarSampleRequest). */
const REUSE_TEMPLATES = false;

interface Candidate {
  ids: number[];
  text: string;
  syllables: number;
  key: string;
  /** Mean log P_mix per token (the line's words and its <nl>). */
  fluency: number;
  /** The least likely token's log P_mix: one impossible transition makes word salad even in a likely line. */
  worst: number;
  score: number;
  template: number | null;
  /** An n-gram line the language's rule check finds faults in (Spanish: tagged by grammar-es.ts rules). */
  faulty: boolean;
}

interface RawCandidate {
  ids: number[];
  template: number | null;
  tags: ReadonlyArray<string | null> | null;
}

export class LineWriter {
  readonly stats: LineWriterStats = { candidates: 0, rejectedCopies: 0 };
  private readonly multiplier: Float64Array;
  private readonly lineStops: Set<number>;
  /** Neural next-word distributions by context window, reset per line (candidates share most prefixes). */
  private neuralCache = new Map<string, Float64Array>();
  private readonly grammar: GrammarSampler | null;

  constructor(
    private readonly lang: LoadedLanguage,
    private readonly artistModels: KneserNeyModel[],
    private readonly biasWeights: Map<number, number>,
    private readonly rng: Rng,
  ) {
    const v = lang.vocabulary;
    this.multiplier = new Float64Array(v.size).fill(1);
    v.tokens.forEach((t, id) => {
      if (isSpecialToken(t) && id !== v.newlineId) this.multiplier[id] = 0; // never <unk>, <s>, </s> or a section mid-line
    });
    // A forbidden word (a rest word in an upbeat song) gets multiplier 0, like markup: never sampled or kept.
    for (const [id, w] of biasWeights) this.multiplier[id] = w <= FORBIDDEN_WEIGHT ? 0 : this.multiplier[id] * Math.exp(BIAS_STRENGTH * w);
    this.lineStops = new Set([v.newlineId]);
    this.grammar = lang.grammar
      ? new GrammarSampler(
          lang.grammar,
          v,
          rng,
          (context) => {
            const dist = this.mixedDistribution(context);
            for (let id = 0; id < dist.length; id++) dist[id] *= this.multiplier[id];
            return dist;
          },
          (id) => this.canEndLine(id),
        )
      : null;
  }

  /** Returns null only when every candidate of every round broke a hard rule. */
  write(req: LineRequest): WrittenLine | null {
    this.neuralCache.clear();
    const pool: Candidate[] = [];
    for (let round = 0; round < 6; round++) {
      const widen = round >= 3 ? round - 2 : 0;
      const range: [number, number] = [Math.max(1, req.syllables[0] - widen), req.syllables[1] + widen];
      // The n-gram sampler is the last resort of a grammar that found nothing in four rounds.
      const useGrammar = this.grammar !== null && (round < 4 || pool.length > 0);
      pool.push(...this.candidates(req, range, pool, useGrammar));
      // A line that must rhyme gets a few more rounds to find a rhyming candidate before settling.
      // Lines the rule check faults (Spanish n-gram lines) count only when nothing else is found.
      const usable = pool.filter((c) => !c.faulty);
      const satisfied = req.rhymeWith === null ? usable.length > 0 : usable.some((c) => this.rhymes(c, req));
      if (satisfied || (round >= RHYME_ROUNDS - 1 && usable.length > 0)) return this.pick(pool, req);
    }
    return pool.length > 0 ? this.pick(pool, req) : null;
  }

  /** -2 when nothing in the vocabulary could rhyme with this line's end, up to +0.75 with several partners. */
  private partnerScore(c: Candidate, req: LineRequest): number {
    const last = c.ids[c.ids.length - 1];
    const partners = (this.lang.rhymeIndex.get(c.key) ?? []).filter(
      (id) => id !== last && this.canEndLine(id) && !req.usedEndWords.has(this.lang.vocabulary.token(id)),
    ).length;
    return partners === 0 ? -2 : Math.min(3, partners) * 0.25;
  }

  /** Spanish: +0.5 when the rhyme is consonant ("luna"/"ninguna"), not only assonant ("luna"/"cuna" both are; "luna"/"bruma" is assonant). */
  private consonance(c: Candidate, req: LineRequest): number {
    if (this.lang.language !== 'es' || !req.rhymePartner) return 0;
    const own = spanishConsonantKey(this.lang.vocabulary.token(c.ids[c.ids.length - 1]));
    return own !== '' && own === spanishConsonantKey(req.rhymePartner) ? CONSONANT_RHYME_BONUS : 0;
  }

  private canEndLine(id: number): boolean {
    return this.lang.lineEndRate[id] >= MIN_LINE_END_RATE;
  }

  private rhymes(c: Candidate, req: LineRequest): boolean {
    return req.rhymeWith !== null && c.key === req.rhymeWith && !req.usedEndWords.has(this.lang.vocabulary.token(c.ids[c.ids.length - 1]));
  }

  private rawCandidates(req: LineRequest, range: [number, number], useGrammar: boolean): RawCandidate[] {
    const raw: RawCandidate[] = [];
    if (useGrammar && this.grammar) {
      const sample = (rhymeWords: Array<{ id: number; weight: number }>, count: number) =>
        this.grammar!.sample({
          history: req.history,
          syllables: range,
          rhymeWords,
          usedTemplates: req.usedTemplates,
          count,
          reuseWhenExhausted: REUSE_TEMPLATES,
        }).map((c) => ({
          ids: c.ids,
          template: c.template,
          tags: c.tags,
        }));
      if (req.rhymeWith !== null) raw.push(...sample(this.rhymeWords(req.rhymeWith, req.usedEndWords), GRAMMAR_CANDIDATES));
      raw.push(...sample([], req.rhymeWith === null ? GRAMMAR_CANDIDATES : GRAMMAR_CANDIDATES / 4));
      // A small grammar has few words per slot to rhyme with: Spanish also draws lines backwards from the
      // rhyme words, which compete only when the rule check finds no fault in them (see `faulty`).
      if (req.rhymeWith !== null && this.lang.language === 'es') raw.push(...this.backwardCandidates(req.rhymeWith, req.usedEndWords));
      return raw;
    }
    for (let i = 0; i < FORWARD_CANDIDATES; i++) raw.push({ ids: this.sampleForward(req.history), template: null, tags: null });
    if (req.rhymeWith !== null) raw.push(...this.backwardCandidates(req.rhymeWith, req.usedEndWords));
    return raw;
  }

  private backwardCandidates(rhymeWith: string, usedEndWords: ReadonlySet<string>): RawCandidate[] {
    const raw: RawCandidate[] = [];
    for (const word of this.pickRhymeWords(rhymeWith, usedEndWords)) {
      for (let i = 0; i < BACKWARD_PER_WORD; i++) raw.push({ ids: this.sampleBackward(word), template: null, tags: null });
    }
    return raw;
  }

  /** The language's grammar rule check on a filled line (grammar.ts, grammar-es.ts). */
  private faults(words: readonly string[], tags: ReadonlyArray<string | null>) {
    if (this.lang.language === 'es') return spanishGrammarFaults(words.map((word, i) => ({ word, tag: tags[i] })));
    // The English sampler fills only English slot tags (grammar-train.ts SLOT_OF).
    return grammarFaults(words.map((word, i) => ({ word, tag: tags[i] as TaggedWord['tag'] })));
  }

  /** Over the limit when a content word of the line would be used more than MAX_WORD_USES times in the song. */
  private overusesWords(words: readonly string[], req: LineRequest): boolean {
    const content = words.filter((w) => isContentWord(w, this.lang.language));
    // One line never says a word twice, nor two forms of it ("slow" and "slowly", "night" and "nights").
    if (new Set(content.map(crudeStem)).size < content.length) return true;
    return content.some((w) => (req.wordUses.get(w) ?? 0) + 1 > MAX_WORD_USES);
  }

  private candidates(req: LineRequest, range: [number, number], earlier: readonly Candidate[], useGrammar: boolean): Candidate[] {
    const raw = this.rawCandidates(req, range, useGrammar);
    const seen = new Set<string>(earlier.map((c) => normaliseForMatching(c.text)));
    const out: Candidate[] = [];
    for (const { ids, template, tags } of raw) {
      this.stats.candidates++;
      if (ids.length < 3 || ids.length > MAX_WORDS || ids.some((id) => this.multiplier[id] === 0 || id === this.lang.vocabulary.newlineId)) continue; // markup or a forbidden word
      if (ids.some((id, i) => i >= 1 && id === ids[i - 1])) continue; // "the the"
      if (!this.canEndLine(ids[ids.length - 1])) continue;
      // Two lines of a song ending on one word sound like a rhyme that failed ("sky" ... "sky").
      if (useGrammar && req.usedEndWords.has(this.lang.vocabulary.token(ids[ids.length - 1]))) continue;
      const words = ids.map((id) => this.lang.vocabulary.token(id));
      if (this.overusesWords(words, req)) continue;
      if (tags && this.faults(words, tags).length > 0) continue;
      const text = words.join(' ');
      const normalised = normaliseForMatching(text);
      if (seen.has(normalised) || req.usedLines.has(normalised)) continue;
      seen.add(normalised);
      const syllables = countLineSyllables(text, this.lang.language);
      if (syllables < range[0] || syllables > range[1]) continue;
      if (this.lang.copyGuard.isCopy(text)) {
        this.stats.rejectedCopies++;
        continue;
      }
      const last = words[words.length - 1];
      // An n-gram line in Spanish is tagged by the grammar's rules, so a grammatical one wins over salad.
      const faulty = tags === null && this.lang.language === 'es' && spanishGrammarFaults(tagSpanishLine(text) ?? []).length > 0;
      out.push({ ids, text, syllables, key: rhymeKey(last, this.lang.language), ...this.lineLogProbs(req.history, ids), score: 0, template, faulty });
    }
    return out;
  }

  private pick(pool: Candidate[], req: LineRequest): WrittenLine {
    const sound = pool.filter((c) => !c.faulty);
    const fluent = (sound.length > 0 ? sound : pool).filter((c) => c.fluency >= FLUENCY_FLOOR);
    const settled = fluent.length > 0 ? fluent : sound.length > 0 ? sound : pool;
    // The melody repeats its phrase: a line within MAX_SYLLABLE_DRIFT of the section's first line wins
    // whenever one was found (the penalty below then orders those by closeness); among the lines that rhyme
    // as asked when there are any, the rhyme being the stronger ask (it scores +3 below anyway).
    const rhyming = settled.filter((c) => this.rhymes(c, req));
    const group = rhyming.length > 0 ? rhyming : settled;
    const fitting = req.targetSyllables === undefined ? [] : group.filter((c) => Math.abs(c.syllables - req.targetSyllables!) <= MAX_SYLLABLE_DRIFT);
    const candidates = fitting.length > 0 ? fitting : group;
    for (const c of candidates) {
      const lexical = c.ids.reduce((s, id) => s + (this.biasWeights.get(id) ?? 0), 0) / c.ids.length;
      // A free line ending on a word with rhyme partners gives the next line something to rhyme with.
      const partners = req.rhymeWith === null ? this.partnerScore(c, req) : 0;
      // How often songs end a line on this word: keeps lines from stopping on "the" or "my".
      const ending = 0.4 * Math.log(this.lang.reverse.probability(c.ids[c.ids.length - 1], LINE_START));
      const reuse = c.ids.reduce((s, id) => s + (req.wordUses.get(this.lang.vocabulary.token(id)) ?? 0), 0);
      const fit = req.targetSyllables === undefined ? 0 : Math.abs(c.syllables - req.targetSyllables);
      c.score =
        c.fluency +
        WORST_TOKEN_WEIGHT * c.worst +
        0.4 * lexical +
        (this.rhymes(c, req) ? 3 + this.consonance(c, req) : 0) +
        partners +
        ending -
        REUSE_PENALTY * reuse -
        SYLLABLE_PENALTY * fit;
    }
    const best = candidates.reduce((a, b) => (b.score > a.score ? b : a));
    return { text: best.text, ids: best.ids, syllables: best.syllables, rhymeKey: best.key, rhymed: this.rhymes(best, req), template: best.template };
  }

  private sampleForward(history: readonly number[]): number[] {
    const context = [...history];
    const out: number[] = [];
    for (let i = 0; i <= MAX_WORDS; i++) {
      const dist = this.mixedDistribution(context);
      for (let id = 0; id < dist.length; id++) dist[id] = (dist[id] * this.multiplier[id]) ** (1 / TEMPERATURE);
      const next = this.rng.weighted(dist);
      if (this.lineStops.has(next)) return out;
      out.push(next);
      context.push(next);
    }
    return out;
  }

  /** Right to left from a fixed last word with the line-reversed model, then flipped. */
  private sampleBackward(lastWord: number): number[] {
    const reverse = this.lang.reverse;
    const eos = this.lang.vocabulary.eosId;
    const context = [Vocabulary.BOS_ID, Vocabulary.BOS_ID, lastWord];
    const out = [lastWord];
    for (let i = 0; i < MAX_WORDS; i++) {
      const dist = reverse.distribution(context.slice(-(reverse.order - 1)));
      for (let id = 0; id < dist.length; id++) dist[id] = (id === eos ? dist[id] : dist[id] * this.multiplier[id]) ** (1 / TEMPERATURE);
      const next = this.rng.weighted(dist);
      if (next === eos) break;
      out.push(next);
      context.push(next);
    }
    return out.reverse();
  }

  /** Every word that can end a line on this rhyme key, weighted by how often it ends one and by the mood bias. */
  private rhymeWords(key: string, used: ReadonlySet<string>): Array<{ id: number; weight: number }> {
    return (this.lang.rhymeIndex.get(key) ?? [])
      .filter((id) => !used.has(this.lang.vocabulary.token(id)) && this.multiplier[id] > 0 && this.canEndLine(id))
      .map((id) => ({ id, weight: this.lang.reverse.probability(id, LINE_START) * this.multiplier[id] }));
  }

  /** Rhyme words for a key, drawn in proportion to how often they end a line (and to the mood bias). */
  private pickRhymeWords(key: string, used: ReadonlySet<string>): number[] {
    const words = (this.lang.rhymeIndex.get(key) ?? []).filter(
      (id) => !used.has(this.lang.vocabulary.token(id)) && this.multiplier[id] > 0 && this.canEndLine(id),
    );
    const start = [Vocabulary.BOS_ID, Vocabulary.BOS_ID];
    const weights = words.map((id) => this.lang.reverse.probability(id, start) * this.multiplier[id]);
    const chosen: number[] = [];
    while (chosen.length < RHYME_WORDS && chosen.length < words.length) {
      const i = this.rng.weighted(weights);
      chosen.push(words[i]);
      weights[i] = 0;
      if (weights.every((w) => w === 0)) break;
    }
    return chosen;
  }

  /** Next-word distribution of the sampling mixture: Kneser-Ney (with style artists) and the neural LM. */
  private mixedDistribution(context: readonly number[]): Float64Array {
    const dist = this.lang.forward.distribution(context);
    if (this.artistModels.length > 0) {
      const share = ARTIST_WEIGHT / this.artistModels.length;
      for (let id = 0; id < dist.length; id++) dist[id] *= 1 - ARTIST_WEIGHT;
      for (const artist of this.artistModels) {
        const d = artist.distribution(context);
        for (let id = 0; id < dist.length; id++) dist[id] += share * d[id];
      }
    }
    const neural = this.neuralLogProbs(context);
    if (neural) for (let id = 0; id < dist.length; id++) dist[id] = (1 - NEURAL_WEIGHT) * dist[id] + NEURAL_WEIGHT * Math.exp(neural[id]);
    return dist;
  }

  private neuralLogProbs(context: readonly number[]): Float64Array | null {
    const neural = this.lang.neural;
    if (!neural) return null;
    const key = context.slice(-neural.config.contextSize).join(',');
    let logProbs = this.neuralCache.get(key);
    if (!logProbs) this.neuralCache.set(key, (logProbs = neural.logProbs(context)));
    return logProbs;
  }

  private lineLogProbs(history: readonly number[], ids: readonly number[]): { fluency: number; worst: number } {
    const context = [...history];
    let total = 0;
    let worst = 0;
    for (const id of [...ids, this.lang.vocabulary.newlineId]) {
      let p = this.lang.forward.probability(id, context);
      if (this.artistModels.length > 0) {
        const artistMean = this.artistModels.reduce((s, m) => s + m.probability(id, context), 0) / this.artistModels.length;
        p = (1 - ARTIST_WEIGHT) * p + ARTIST_WEIGHT * artistMean;
      }
      const neural = this.neuralLogProbs(context);
      if (neural) p = (1 - NEURAL_WEIGHT) * p + NEURAL_WEIGHT * Math.exp(neural[id]);
      const logP = Math.log(p);
      total += logP;
      worst = Math.min(worst, logP);
      context.push(id);
    }
    return { fluency: total / (ids.length + 1), worst };
  }
}

/** "slowly" -> "slow", "nights" -> "night", "burning" -> "burn": close enough to catch a word said twice. */
function crudeStem(word: string): string {
  return word.length > 4 ? word.replace(/(ly|ing|ed|es|s)$/, '') : word;
}
