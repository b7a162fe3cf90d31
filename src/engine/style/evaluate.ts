/** Retrieval quality of an embedding, as reported in the trained model's metrics. */

import type { Labelled } from './triplets.js';

/**
 * For each query item, the share of its k nearest catalog items (cosine similarity of `embed`) that have
 * the query's genre, averaged over queries. Null when there is nothing to query.
 */
export function genrePrecisionAtK(items: Labelled[], queries: number[], catalog: number[], embed: (index: number) => number[], k: number): number | null {
  if (queries.length === 0 || catalog.length === 0) return null;
  const catalogVectors = catalog.map((i) => unit(embed(i)));
  let total = 0;
  for (const q of queries) {
    const query = unit(embed(q));
    const ranked = catalog
      .map((item, c) => ({ item, similarity: dot(query, catalogVectors[c]) }))
      .sort((a, b) => b.similarity - a.similarity)
      .slice(0, k);
    total += ranked.filter((r) => items[r.item].genre === items[q].genre).length / ranked.length;
  }
  return total / queries.length;
}

export function unit(v: number[]): number[] {
  const norm = Math.hypot(...v);
  return norm > 0 ? v.map((x) => x / norm) : v;
}

export function dot(a: number[], b: number[]): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i] * b[i];
  return sum;
}
