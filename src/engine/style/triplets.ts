/**
 * Supervision for the embedding: a deterministic held-out split and triplet sampling.
 *
 * A triplet is (anchor, positive of the same genre, negative of another genre). When several positives
 * exist, one that also shares a mood is preferred, so mood shapes the space within a genre.
 * Sampling draws from an Rng derived from (seed, epoch), so epoch n samples the same triplets whether the
 * run was interrupted before it or not.
 */

import { type Rng } from '../random.js';

export interface Labelled {
  id: string;
  genre: string;
  mood: string[];
}

export type Triplet = [anchor: number, positive: number, negative: number];

/**
 * Per genre, about `fraction` of the items (ordered by a hash of their id, so the split does not depend on
 * input order) are held out; genres with fewer than 3 items stay entirely in training.
 */
export function splitHeldOut(items: Labelled[], fraction: number): { train: number[]; heldOut: number[] } {
  const byGenre = new Map<string, number[]>();
  items.forEach((item, i) => byGenre.set(item.genre, [...(byGenre.get(item.genre) ?? []), i]));
  const train: number[] = [];
  const heldOut: number[] = [];
  for (const members of byGenre.values()) {
    const ordered = [...members].sort((a, b) => hash32(items[a].id) - hash32(items[b].id) || items[a].id.localeCompare(items[b].id));
    const holdCount = members.length >= 3 ? Math.max(1, Math.round(members.length * fraction)) : 0;
    heldOut.push(...ordered.slice(0, holdCount));
    train.push(...ordered.slice(holdCount));
  }
  return { train: train.sort((a, b) => a - b), heldOut: heldOut.sort((a, b) => a - b) };
}

/**
 * One triplet per anchor that has both a positive and a negative among `pool`, anchors in random order.
 * Anchors and pool are indices into `items`.
 */
export function sampleTriplets(items: Labelled[], anchors: number[], pool: number[], rng: Rng): Triplet[] {
  const poolByGenre = new Map<string, number[]>();
  for (const i of pool) poolByGenre.set(items[i].genre, [...(poolByGenre.get(items[i].genre) ?? []), i]);
  const order = shuffle([...anchors], rng);
  const triplets: Triplet[] = [];
  for (const a of order) {
    const genre = items[a].genre;
    const sameGenre = (poolByGenre.get(genre) ?? []).filter((i) => i !== a);
    const otherCount = pool.length - (poolByGenre.get(genre)?.length ?? 0);
    if (sameGenre.length === 0 || otherCount === 0) continue;
    const sharingMood = sameGenre.filter((i) => items[i].mood.some((m) => items[a].mood.includes(m)));
    const positives = sharingMood.length > 0 && rng.next() < 0.75 ? sharingMood : sameGenre;
    triplets.push([a, rng.pick(positives), pickOtherGenre(items, pool, genre, otherCount, rng)]);
  }
  return triplets;
}

/** Uniform over pool items of another genre, without building that list for every anchor. */
function pickOtherGenre(items: Labelled[], pool: number[], genre: string, otherCount: number, rng: Rng): number {
  let target = rng.int(0, otherCount - 1);
  for (const i of pool) {
    if (items[i].genre === genre) continue;
    if (target-- === 0) return i;
  }
  throw new Error('unreachable: otherCount was positive');
}

export function shuffle<T>(values: T[], rng: Rng): T[] {
  for (let i = values.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [values[i], values[j]] = [values[j], values[i]];
  }
  return values;
}

/** FNV-1a, enough to order ids and fingerprint a data set; not a security hash. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h >>> 0;
}
