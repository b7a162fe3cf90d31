/**
 * Originality: the seeded retry. When the station's audio filter still blocks a generation, the generation
 * tries again with attempt seeds derived from its own seed, so the same request and seed always end with the
 * same track (or the same failure).
 */
import { Rng } from '../random.js';

/** Attempts a generation makes before it fails with the block (the first is the request's own seed). */
export const MAX_ORIGINALITY_ATTEMPTS = 8;

/** The seed of attempt `attempt` (0-based) of a generation whose seed is `seed`: attempt 0 is the seed itself. */
export function attemptSeed(seed: number, attempt: number): number {
  if (!Number.isInteger(attempt) || attempt < 0) throw new RangeError(`attempt ${attempt}`);
  if (attempt === 0) return seed;
  // 31 bits, like the station's seeds (a Postgres integer).
  return Rng.derive(seed, `originality-attempt:${attempt}`).nextUint32() & 0x7fffffff;
}

export interface OriginalityAttempt<T> {
  result: T;
  /** The audio filter let it through. */
  passed: boolean;
}

/**
 * Runs `attempt` with attempt seeds 0, 1, ... until one passes or `maxAttempts` ran; returns the passing
 * attempt, or the last one (the caller then withholds it). Sequential and seed-driven: the same seed always
 * takes the same path.
 */
export async function firstOriginalAttempt<T>(
  seed: number,
  attempt: (attemptSeed: number, index: number) => Promise<OriginalityAttempt<T>>,
  maxAttempts = MAX_ORIGINALITY_ATTEMPTS,
): Promise<OriginalityAttempt<T> & { attempts: number; seed: number }> {
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new RangeError(`maxAttempts ${maxAttempts}`);
  let last: (OriginalityAttempt<T> & { attempts: number; seed: number }) | null = null;
  for (let i = 0; i < maxAttempts; i++) {
    const s = attemptSeed(seed, i);
    last = { ...(await attempt(s, i)), attempts: i + 1, seed: s };
    if (last.passed) break;
  }
  return last!;
}
