/**
 * When a failed delivery is tried again: exponential backoff with full jitter (a uniformly random wait
 * between 0 and min(cap, base x 2^(n-1))), so receivers that failed together are not hit together again.
 * The default (14 attempts, base 30 s, cap 6 h) gives up after at most ~26.5 h, on average ~13 h.
 */
export interface RetryPolicy {
  /** Total attempts, including the first. */
  maxAttempts: number;
  baseMs: number;
  capMs: number;
  /** In [0, 1); tests pin it. */
  random: () => number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 14,
  baseMs: 30_000,
  capMs: 6 * 60 * 60_000,
  random: Math.random,
};

/** The wait before the attempt after `failedAttempt` (1-based), or null when none is left. */
export function retryDelayMs(failedAttempt: number, policy: RetryPolicy): number | null {
  if (failedAttempt >= policy.maxAttempts) return null;
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** (failedAttempt - 1));
  return Math.floor(Math.min(1, Math.max(0, policy.random())) * ceiling);
}

/** The longest a delivery can keep retrying (every jitter at its maximum). */
export function worstCaseRetryWindowMs(policy: RetryPolicy): number {
  let total = 0;
  for (let attempt = 1; attempt < policy.maxAttempts; attempt++) total += Math.min(policy.capMs, policy.baseMs * 2 ** (attempt - 1));
  return total;
}
