/**
 * Word <-> id mapping shared by every model of one language (Kneser-Ney, the neural LM, the unigram baseline),
 * so their perplexities are measured over the same outcomes and can be compared. Words seen fewer than
 * `minCount` times in training become `<unk>`: it gives the models an honest estimate of "a word I don't
 * know" instead of pretending every held-out word was seen.
 */
import { BOS, EOS, NEWLINE, UNKNOWN, isSpecialToken } from './tokenizer.js';
import { ModelFormatError } from './errors.js';

export interface VocabularyJson {
  tokens: string[];
}

export class Vocabulary {
  private readonly index = new Map<string, number>();

  /** id 0 is always `<s>`: it is only ever context, never predicted. */
  static readonly BOS_ID = 0;

  private constructor(readonly tokens: readonly string[]) {
    tokens.forEach((t, i) => this.index.set(t, i));
    if (tokens[0] !== BOS || !this.index.has(UNKNOWN) || !this.index.has(NEWLINE) || !this.index.has(EOS)) {
      throw new ModelFormatError('vocabulary must start with <s> and contain <unk>, <nl> and </s>');
    }
  }

  static build(streams: readonly string[][], minCount: number): Vocabulary {
    const counts = new Map<string, number>();
    for (const stream of streams) for (const t of stream) counts.set(t, (counts.get(t) ?? 0) + 1);
    const specials = [...counts.keys()].filter((t) => isSpecialToken(t) && t !== BOS).sort();
    const words = [...counts.entries()]
      .filter(([t, c]) => !isSpecialToken(t) && c >= minCount)
      // Frequency order, ties alphabetical, so ids do not depend on corpus order.
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .map(([t]) => t);
    const tokens = [BOS, UNKNOWN, NEWLINE, EOS, ...specials.filter((t) => t !== UNKNOWN && t !== NEWLINE && t !== EOS), ...words];
    return new Vocabulary(tokens);
  }

  static fromJSON(json: VocabularyJson): Vocabulary {
    return new Vocabulary(json.tokens);
  }

  toJSON(): VocabularyJson {
    return { tokens: [...this.tokens] };
  }

  get size(): number {
    return this.tokens.length;
  }

  has(token: string): boolean {
    return this.index.has(token);
  }

  id(token: string): number {
    return this.index.get(token) ?? this.index.get(UNKNOWN)!;
  }

  idOrUndefined(token: string): number | undefined {
    return this.index.get(token);
  }

  token(id: number): string {
    return this.tokens[id] ?? UNKNOWN;
  }

  encode(tokens: readonly string[]): number[] {
    return tokens.map((t) => this.id(t));
  }

  get unknownId(): number {
    return this.index.get(UNKNOWN)!;
  }

  get newlineId(): number {
    return this.index.get(NEWLINE)!;
  }

  get eosId(): number {
    return this.index.get(EOS)!;
  }
}
