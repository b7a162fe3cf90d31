/**
 * Near-duplicate check of a generated track's style features against the catalog's. Each feature is
 * divided by a fixed tolerance (roughly the feature extractor's own run-to-run noise), so a distance of 1
 * means "different by about one measurement error everywhere". Groups (pitch, timbre, rhythm, level)
 * weigh equally, whatever their number of dimensions:
 *
 *   d = sqrt(mean over groups of mean over the group's dims of (Δ / tolerance)²)
 *   similarity = 1 / (1 + (d / 2)²)        identical -> 1, d = 2 -> 0.5, d = 4 -> 0.2
 *
 * Tempo is compared also at half and double speed (a tempo tracker's usual octave error).
 */
import type { AudioFeatures } from '../types.js';

export interface CatalogAudio {
  id: string;
  features: AudioFeatures;
}

export interface AudioDuplicateResult {
  similarity: number;
  nearestId: string | null;
  distance: number;
}

const TOLERANCE = {
  chroma: 0.02,
  mfccMean: 2,
  mfccStd: 1,
  tempoBpm: 3,
  onsetRate: 0.3,
  loudnessDb: 2,
  energy: 0.05,
  spectralCentroidHz: 150,
};

function meanSquared(a: readonly number[], b: readonly number[], tolerance: number): number {
  const n = Math.max(a.length, b.length);
  if (n === 0) return 0;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += (((a[i] ?? 0) - (b[i] ?? 0)) / tolerance) ** 2;
  return sum / n;
}

export function featureDistance(a: AudioFeatures, b: AudioFeatures): number {
  const tempoDiff = Math.min(...[b.tempoBpm, b.tempoBpm * 2, b.tempoBpm / 2].map((t) => Math.abs(a.tempoBpm - t)));
  const groups = [
    meanSquared(a.chroma, b.chroma, TOLERANCE.chroma) + (a.mode === b.mode ? 0 : 1),
    (meanSquared(a.mfccMean, b.mfccMean, TOLERANCE.mfccMean) + meanSquared(a.mfccStd, b.mfccStd, TOLERANCE.mfccStd) + (((a.spectralCentroidHz - b.spectralCentroidHz) / TOLERANCE.spectralCentroidHz) ** 2)) / 3,
    ((tempoDiff / TOLERANCE.tempoBpm) ** 2 + ((a.onsetRate - b.onsetRate) / TOLERANCE.onsetRate) ** 2) / 2,
    (((a.loudnessDb - b.loudnessDb) / TOLERANCE.loudnessDb) ** 2 + ((a.energy - b.energy) / TOLERANCE.energy) ** 2) / 2,
  ];
  return Math.sqrt(groups.reduce((s, g) => s + g, 0) / groups.length);
}

export function similarityFromDistance(distance: number): number {
  return 1 / (1 + (distance / 2) ** 2);
}

export class AudioDuplicateIndex {
  constructor(private readonly catalog: readonly CatalogAudio[]) {}

  get size(): number {
    return this.catalog.length;
  }

  nearest(features: AudioFeatures): AudioDuplicateResult {
    let best: AudioDuplicateResult = { similarity: 0, nearestId: null, distance: Number.POSITIVE_INFINITY };
    for (const item of this.catalog) {
      const distance = featureDistance(features, item.features);
      if (distance < best.distance) best = { similarity: similarityFromDistance(distance), nearestId: item.id, distance };
    }
    return best;
  }
}
