/**
 * Guards generation against reproducing the corpus: a candidate line is rejected when its normalised form
 * equals a corpus line, or when it contains any word 5-gram that occurs inside a corpus line. The same
 * shingles feed the copyright check in src/engine/safety, so a line the generator accepts cannot be flagged
 * there as a copy of the training corpus. Only hashes are stored, so a serialised model carries no lyrics.
 */
import { normaliseForMatching } from './tokenizer.js';

export const SHINGLE_SIZE = 5;

/** cyrb53: a fast 53-bit string hash; collisions among ~10^5 lines/shingles are negligible. */
export function hash53(text: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** Hashes of the word n-grams of one normalised line (none when the line is shorter than n words). */
export function lineShingles(normalisedLine: string, n = SHINGLE_SIZE): number[] {
  const words = normalisedLine.split(' ').filter((w) => w.length > 0);
  const out: number[] = [];
  for (let i = 0; i + n <= words.length; i++) out.push(hash53(words.slice(i, i + n).join(' ')));
  return out;
}

export interface CopyGuardJson {
  lines: number[];
  shingles: number[];
}

export class CopyGuard {
  private constructor(
    private readonly lineHashes: Set<number>,
    private readonly shingleHashes: Set<number>,
  ) {}

  static fromLines(lines: Iterable<string>): CopyGuard {
    const lineHashes = new Set<number>();
    const shingleHashes = new Set<number>();
    for (const line of lines) {
      const normalised = normaliseForMatching(line);
      if (!normalised) continue;
      lineHashes.add(hash53(normalised));
      for (const s of lineShingles(normalised)) shingleHashes.add(s);
    }
    return new CopyGuard(lineHashes, shingleHashes);
  }

  static fromJSON(json: CopyGuardJson): CopyGuard {
    return new CopyGuard(new Set(json.lines), new Set(json.shingles));
  }

  toJSON(): CopyGuardJson {
    return { lines: [...this.lineHashes], shingles: [...this.shingleHashes] };
  }

  /** True when the line is (or contains a 5-word run of) a corpus line. */
  isCopy(line: string): boolean {
    const normalised = normaliseForMatching(line);
    if (this.lineHashes.has(hash53(normalised))) return true;
    return lineShingles(normalised).some((s) => this.shingleHashes.has(s));
  }
}
