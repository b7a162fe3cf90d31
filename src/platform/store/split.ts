/**
 * How a sale's cents are divided. Integer cents throughout, and no cent is lost or created: every division
 * hands out exactly the whole.
 *
 * 1. Platform and artist: platform fee = floor(amount x 15 / 100), artist share = amount - fee. The artist
 *    never gets less than 85%; a fractional cent goes to the artist. (This fee is Stripe's
 *    application_fee_amount, so what the processor transfers and what the payout history says agree.)
 * 2. Artist share by track: equal parts per track of the product (largest remainder, below).
 * 3. A track's part by its songwriter credits, in proportion to split_pct (basis points). Splits that sum to
 *    100% are the rule (products refuse tracks whose credits do not); a track without credits is kept whole
 *    by the artist (songwriter null).
 *
 * Largest remainder (Hamilton): each part gets floor(total x weight / sum of weights); the cents left over
 * (fewer than the number of parts) go one each to the parts with the largest fractional remainders, ties to
 * the earlier part in the given order. The parts always sum to the total.
 */
export const PLATFORM_FEE_PERCENT = 15;

export function platformSplit(amountCents: number): { platformFeeCents: number; artistShareCents: number } {
  assertCents(amountCents);
  const platformFeeCents = Math.floor((amountCents * PLATFORM_FEE_PERCENT) / 100);
  return { platformFeeCents, artistShareCents: amountCents - platformFeeCents };
}

/** Divides `total` cents in proportion to non-negative integer `weights`; the result sums to `total`. */
export function allocate(total: number, weights: readonly number[]): number[] {
  assertCents(total);
  if (weights.length === 0) throw new RangeError('nothing to allocate to');
  if (weights.some((w) => !Number.isSafeInteger(w) || w < 0)) throw new RangeError('weights must be non-negative integers');
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum === 0) throw new RangeError('weights sum to zero');
  // BigInt: total x weight may pass 2^53 for large amounts and basis-point weights.
  const parts = weights.map((w) => {
    const product = BigInt(total) * BigInt(w);
    return { base: Number(product / BigInt(sum)), remainder: Number(product % BigInt(sum)) };
  });
  let left = total - parts.reduce((a, p) => a + p.base, 0);
  const order = parts.map((_, i) => i).sort((a, b) => parts[b].remainder - parts[a].remainder || a - b);
  const result = parts.map((p) => p.base);
  for (const i of order) {
    if (left === 0) break;
    result[i] += 1;
    left -= 1;
  }
  return result;
}

export interface TrackCredits {
  trackId: string;
  /** One entry per songwriter: their summed split in basis points. */
  credits: { songwriterId: string; basisPoints: number }[];
}

export interface PayoutLine {
  trackId: string;
  songwriterId: string | null;
  splitBasisPoints: number;
  amountCents: number;
}

/** The artist share divided by track, then by songwriter credits. The lines sum to `artistShareCents`. */
export function payoutLines(artistShareCents: number, tracks: readonly TrackCredits[]): PayoutLine[] {
  const perTrack = allocate(
    artistShareCents,
    tracks.map(() => 1),
  );
  const lines: PayoutLine[] = [];
  tracks.forEach((track, i) => {
    if (track.credits.length === 0) {
      lines.push({ trackId: track.trackId, songwriterId: null, splitBasisPoints: 10_000, amountCents: perTrack[i] });
      return;
    }
    const amounts = allocate(
      perTrack[i],
      track.credits.map((c) => c.basisPoints),
    );
    track.credits.forEach((credit, j) =>
      lines.push({ trackId: track.trackId, songwriterId: credit.songwriterId, splitBasisPoints: credit.basisPoints, amountCents: amounts[j] }),
    );
  });
  return lines;
}

/** split_pct (numeric(5,2)) as integer basis points. */
export function basisPoints(splitPct: number): number {
  return Math.round(splitPct * 100);
}

function assertCents(value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`not a number of cents: ${value}`);
}
