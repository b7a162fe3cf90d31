/**
 * Word n-gram language model with interpolated modified Kneser-Ney smoothing (Chen & Goodman 1998):
 *
 *   P(w | h) = max(c(h w) - D(c), 0) / c(h)  +  gamma(h) * P(w | h')      gamma(h) = (D1 N1 + D2 N2 + D3 N3+) / c(h)
 *
 * where h' drops the oldest word of h, the highest order uses raw counts and every lower order uses
 * continuation counts (how many distinct words precede the n-gram), and the recursion ends in the uniform
 * distribution over the vocabulary. Three discounts per order come from that order's count-of-counts.
 * Sequences are id arrays from a `Vocabulary`, padded with `order - 1` copies of `<s>` (id 0), which is never
 * predicted: the distribution covers ids 1..V-1 and sums to 1 there.
 */
import type { Rng } from '../random.js';
import { ModelFormatError } from './errors.js';

interface ContextCounts {
  counts: Map<number, number>;
  total: number;
  gamma: number;
}

export interface KneserNeyJson {
  format: 'kneser-ney-v1';
  order: number;
  vocabSize: number;
  /** Per order (index 0 = unigram): [D1, D2, D3+]. */
  discounts: number[][];
  /** Per order: [context key, [word, count, word, count, ...]]. */
  levels: Array<Array<[string, number[]]>>;
}

/** Added to a token's log-probability before sampling (e.g. +1.5 for mood words, -Infinity to forbid). */
export type TokenBias = (tokenId: number) => number;

const contextKey = (ids: readonly number[]): string => ids.join(',');

export class KneserNeyModel {
  private readonly levels: Array<Map<string, ContextCounts>>;
  private unigramCache: Float64Array | undefined;

  private constructor(
    readonly order: number,
    readonly vocabSize: number,
    readonly discounts: number[][],
    rawLevels: Array<Map<string, Map<number, number>>>,
  ) {
    this.levels = rawLevels.map((level, i) => {
      const frozen = new Map<string, ContextCounts>();
      for (const [key, counts] of level) frozen.set(key, freeze(counts, discounts[i]));
      return frozen;
    });
  }

  /** Count n-grams in already padded id sequences (each starts with `order - 1` BOS ids). */
  static train(sequences: readonly number[][], order: number, vocabSize: number): KneserNeyModel {
    if (order < 2 || order > 5) throw new RangeError(`Kneser-Ney order must be 2..5, got ${order}`);
    const levels: Array<Map<string, Map<number, number>>> = Array.from({ length: order }, () => new Map());
    const top = levels[order - 1];
    for (const seq of sequences) {
      for (let i = order - 1; i < seq.length; i++) {
        add(top, contextKey(seq.slice(i - order + 1, i)), seq[i], 1);
      }
    }
    // Continuation counts: each distinct n-gram at level k+1 adds one to its suffix at level k.
    for (let k = order - 1; k >= 1; k--) {
      for (const [key, words] of levels[k]) {
        const suffix = key === '' ? '' : key.split(',').slice(1).join(',');
        for (const w of words.keys()) add(levels[k - 1], suffix, w, 1);
      }
    }
    const discounts = levels.map(estimateDiscounts);
    return new KneserNeyModel(order, vocabSize, discounts, levels);
  }

  static fromJSON(json: KneserNeyJson): KneserNeyModel {
    if (json.format !== 'kneser-ney-v1') throw new ModelFormatError(`unknown Kneser-Ney format ${String(json.format)}`);
    const levels = json.levels.map((level) => {
      const map = new Map<string, Map<number, number>>();
      for (const [key, flat] of level) {
        const counts = new Map<number, number>();
        for (let i = 0; i < flat.length; i += 2) counts.set(flat[i], flat[i + 1]);
        map.set(key, counts);
      }
      return map;
    });
    return new KneserNeyModel(json.order, json.vocabSize, json.discounts, levels);
  }

  toJSON(): KneserNeyJson {
    return {
      format: 'kneser-ney-v1',
      order: this.order,
      vocabSize: this.vocabSize,
      discounts: this.discounts,
      levels: this.levels.map((level) => [...level.entries()].map(([key, ctx]) => [key, [...ctx.counts.entries()].flat()] as [string, number[]])),
    };
  }

  /** P(word | history); only the last `order - 1` ids of history matter. */
  probability(word: number, history: readonly number[]): number {
    if (word === 0) return 0;
    let p = 1 / (this.vocabSize - 1);
    for (let k = 1; k <= this.order; k++) {
      const ctx = this.context(history, k);
      if (!ctx) continue;
      const c = ctx.counts.get(word) ?? 0;
      p = Math.max(c - discountFor(this.discounts[k - 1], c), 0) / ctx.total + ctx.gamma * p;
    }
    return p;
  }

  /** The full next-token distribution (index = token id, entry 0 = `<s>` = 0). Costs O(V * order). */
  distribution(history: readonly number[]): Float64Array {
    const dist = Float64Array.from(this.unigramDistribution());
    for (let k = 2; k <= this.order; k++) {
      const ctx = this.context(history, k);
      if (!ctx) continue;
      applyLevel(dist, ctx, this.discounts[k - 1]);
    }
    return dist;
  }

  /** Raw training counts of the words that followed exactly this full-order context (empty if never seen). */
  followerCounts(history: readonly number[]): ReadonlyMap<number, number> {
    return this.context(history, this.order)?.counts ?? new Map();
  }

  /** Raw training count of every predicted token (each occurrence is predicted once at the highest order). */
  tokenCounts(): Map<number, number> {
    const totals = new Map<number, number>();
    for (const ctx of this.levels[this.order - 1].values()) for (const [w, c] of ctx.counts) totals.set(w, (totals.get(w) ?? 0) + c);
    return totals;
  }

  /** Natural-log probability of each non-padding token of a padded sequence, summed. */
  logProb(sequence: readonly number[]): { logProb: number; tokens: number } {
    let logProb = 0;
    let tokens = 0;
    for (let i = this.order - 1; i < sequence.length; i++) {
      logProb += Math.log(this.probability(sequence[i], sequence.slice(Math.max(0, i - this.order + 1), i)));
      tokens++;
    }
    return { logProb, tokens };
  }

  perplexity(sequences: readonly number[][]): number {
    let logProb = 0;
    let tokens = 0;
    for (const seq of sequences) {
      const r = this.logProb(seq);
      logProb += r.logProb;
      tokens += r.tokens;
    }
    return Math.exp(-logProb / Math.max(1, tokens));
  }

  /** Sample continuation tokens until a stop token (included) or maxTokens. */
  sample(history: readonly number[], rng: Rng, opts: { maxTokens: number; stopAt: ReadonlySet<number>; bias?: TokenBias }): number[] {
    const context = [...history];
    const out: number[] = [];
    for (let i = 0; i < opts.maxTokens; i++) {
      const next = sampleFrom(this.distribution(context), rng, opts.bias);
      out.push(next);
      context.push(next);
      if (opts.stopAt.has(next)) break;
    }
    return out;
  }

  private context(history: readonly number[], k: number): ContextCounts | undefined {
    if (k === 1) return this.levels[0].get('');
    if (history.length < k - 1) return undefined;
    return this.levels[k - 1].get(contextKey(history.slice(history.length - (k - 1))));
  }

  private unigramDistribution(): Float64Array {
    if (!this.unigramCache) {
      const dist = new Float64Array(this.vocabSize).fill(1 / (this.vocabSize - 1));
      dist[0] = 0;
      const ctx = this.levels[0].get('');
      if (ctx) applyLevel(dist, ctx, this.discounts[0]);
      this.unigramCache = dist;
    }
    return this.unigramCache;
  }
}

/** Draw an index from a (not necessarily normalised) distribution with an optional log-space bias. */
export function sampleFrom(dist: ArrayLike<number>, rng: Rng, bias?: TokenBias): number {
  const weights = new Float64Array(dist.length);
  for (let i = 0; i < dist.length; i++) {
    const b = bias ? bias(i) : 0;
    weights[i] = b === 0 ? dist[i] : dist[i] * Math.exp(b);
  }
  return rng.weighted(weights);
}

function applyLevel(dist: Float64Array, ctx: ContextCounts, discounts: number[]): void {
  for (let i = 0; i < dist.length; i++) dist[i] *= ctx.gamma;
  for (const [w, c] of ctx.counts) dist[w] += Math.max(c - discountFor(discounts, c), 0) / ctx.total;
}

function add(level: Map<string, Map<number, number>>, key: string, word: number, by: number): void {
  let counts = level.get(key);
  if (!counts) level.set(key, (counts = new Map()));
  counts.set(word, (counts.get(word) ?? 0) + by);
}

function freeze(counts: Map<number, number>, discounts: number[]): ContextCounts {
  let total = 0;
  let mass = 0;
  for (const c of counts.values()) {
    total += c;
    mass += Math.min(c, discountFor(discounts, c));
  }
  return { counts, total, gamma: total > 0 ? mass / total : 1 };
}

function discountFor(discounts: number[], count: number): number {
  if (count <= 0) return 0;
  return discounts[Math.min(count, 3) - 1];
}

/** Chen & Goodman's closed-form estimates from the count-of-counts n1..n4; sane defaults on tiny data. */
function estimateDiscounts(level: Map<string, Map<number, number>>): number[] {
  const n = [0, 0, 0, 0, 0];
  for (const counts of level.values()) for (const c of counts.values()) if (c <= 4) n[c]++;
  const [, n1, n2, n3, n4] = n;
  if (n1 === 0 || n2 === 0 || n3 === 0 || n4 === 0) return [0.5, 1.0, 1.5];
  const y = n1 / (n1 + 2 * n2);
  const clamp = (d: number, max: number) => Math.min(Math.max(d, 0.05), max);
  return [clamp(1 - 2 * y * (n2 / n1), 1), clamp(2 - 3 * y * (n3 / n2), 2), clamp(3 - 4 * y * (n4 / n3), 3)];
}
