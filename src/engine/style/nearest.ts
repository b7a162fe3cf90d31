/**
 * Inference with a trained style embedding: embed one piece, and rank catalog masters by style similarity
 * (the transparency panel's "influenced by" list).
 */

import { featureVector } from '../features/vector.js';
import type { AudioFeatures } from '../types.js';
import { dot } from './evaluate.js';
import type { StyleEmbeddingModel } from './model.js';
import { forward } from './network.js';

export interface CatalogEntry {
  id: string;
  features: AudioFeatures;
  /** A stored embedding from the same model skips recomputing it. */
  embedding?: number[];
}

export interface StyleNeighbour {
  id: string;
  similarity: number; // cosine similarity, -1..1
}

/** Unit-length style embedding (STYLE_EMBEDDING_DIM values) of one piece. */
export function embed(model: StyleEmbeddingModel, features: AudioFeatures): number[] {
  const params = Float64Array.from(model.parameters);
  return Array.from(forward(model, params, model.standardiser, featureVector(features)).embedding);
}

/** The k catalog entries most similar in style to the query, most similar first; ties broken by id. */
export function nearest(model: StyleEmbeddingModel, queryFeatures: AudioFeatures, catalog: CatalogEntry[], k: number): StyleNeighbour[] {
  const params = Float64Array.from(model.parameters);
  const embedOne = (f: AudioFeatures) => Array.from(forward(model, params, model.standardiser, featureVector(f)).embedding);
  const query = embedOne(queryFeatures);
  return catalog
    .map((entry) => ({ id: entry.id, similarity: dot(query, entry.embedding ?? embedOne(entry.features)) }))
    .sort((a, b) => b.similarity - a.similarity || a.id.localeCompare(b.id))
    .slice(0, Math.max(0, k));
}
