/** The store's money arithmetic: integer cents, 85/15, largest remainder; no cent lost or created. */
import { describe, expect, it } from 'vitest';
import { allocate, payoutLines, platformSplit } from '../../src/platform/store/split.js';
import { priceToCents } from '../../src/platform/store/store.views.js';

describe('platformSplit', () => {
  it('keeps floor(15%) for the platform and gives the artist the rest', () => {
    expect(platformSplit(999)).toEqual({ platformFeeCents: 149, artistShareCents: 850 });
    expect(platformSplit(1000)).toEqual({ platformFeeCents: 150, artistShareCents: 850 });
    expect(platformSplit(1)).toEqual({ platformFeeCents: 0, artistShareCents: 1 });
    for (let amount = 0; amount < 5000; amount++) {
      const { platformFeeCents, artistShareCents } = platformSplit(amount);
      expect(platformFeeCents + artistShareCents).toBe(amount);
      expect(artistShareCents * 100).toBeGreaterThanOrEqual(amount * 85);
    }
  });
});

describe('allocate', () => {
  it('hands the leftover cents to the largest remainders, ties to the earlier part', () => {
    expect(allocate(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(allocate(284, [5000, 3000, 2000])).toEqual([142, 85, 57]);
    expect(allocate(284, [3333, 3333, 3334])).toEqual([95, 94, 95]);
    expect(allocate(0, [1, 2])).toEqual([0, 0]);
  });

  it('always sums to the total, for any weights', () => {
    let seed = 7;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
    for (let i = 0; i < 2000; i++) {
      const total = next() % 1_000_000;
      const weights = Array.from({ length: 1 + (next() % 6) }, () => 1 + (next() % 10_000));
      const parts = allocate(total, weights);
      expect(parts.reduce((a, b) => a + b, 0)).toBe(total);
      expect(parts.every((p) => Number.isInteger(p) && p >= 0)).toBe(true);
    }
  });

  it('refuses what cannot be divided', () => {
    expect(() => allocate(10, [])).toThrow(RangeError);
    expect(() => allocate(10, [0, 0])).toThrow(RangeError);
    expect(() => allocate(1.5, [1])).toThrow(RangeError);
  });
});

describe('payoutLines', () => {
  it('divides the artist share by track, then by credits; a track without credits stays with the artist', () => {
    const lines = payoutLines(851, [
      {
        trackId: 't1',
        credits: [
          { songwriterId: 'a', basisPoints: 5000 },
          { songwriterId: 'b', basisPoints: 3000 },
          { songwriterId: 'c', basisPoints: 2000 },
        ],
      },
      { trackId: 't2', credits: [] },
    ]);
    expect(lines).toEqual([
      { trackId: 't1', songwriterId: 'a', splitBasisPoints: 5000, amountCents: 213 },
      { trackId: 't1', songwriterId: 'b', splitBasisPoints: 3000, amountCents: 128 },
      { trackId: 't1', songwriterId: 'c', splitBasisPoints: 2000, amountCents: 85 },
      { trackId: 't2', songwriterId: null, splitBasisPoints: 10_000, amountCents: 425 },
    ]);
    expect(lines.reduce((a, l) => a + l.amountCents, 0)).toBe(851);
  });
});

describe('priceToCents', () => {
  it('accepts whole cents only', () => {
    expect(priceToCents(9.99)).toBe(999);
    expect(priceToCents(0.1 + 0.2)).toBe(30);
    expect(priceToCents(1.001)).toBeNull();
  });
});
