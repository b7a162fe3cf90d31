/**
 * Labelled AudioFeatures for training tests, drawn around per-genre prototypes with seeded noise. Genres
 * overlap on most single features (as real genres do), so separating them needs several dimensions at once.
 */

import { Rng } from '../../../src/engine/random.js';
import type { AudioFeatures } from '../../../src/engine/types.js';
import type { StyleTrainingItem } from '../../../src/engine/style/model.js';

interface GenrePrototype {
  tempo: number;
  energy: number;
  centroid: number;
  onsetRate: number;
  minorShare: number;
  moods: string[];
  timbre: number; // shifts the MFCC profile
}

export const GENRES: Record<string, GenrePrototype> = {
  techno: { tempo: 126, energy: 0.8, centroid: 2600, onsetRate: 6, minorShare: 0.7, moods: ['driving', 'dark'], timbre: 1 },
  ambient: { tempo: 90, energy: 0.35, centroid: 1300, onsetRate: 1.5, minorShare: 0.4, moods: ['calm', 'dreamy'], timbre: -1 },
  hiphop: { tempo: 92, energy: 0.7, centroid: 1800, onsetRate: 4, minorShare: 0.6, moods: ['confident', 'dark'], timbre: 0.3 },
  jazz: { tempo: 118, energy: 0.5, centroid: 2100, onsetRate: 3.5, minorShare: 0.3, moods: ['warm', 'calm'], timbre: -0.4 },
};

const KEYS = ['C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#', 'A', 'A#', 'B'];

export function syntheticFeatures(genre: string, rng: Rng): AudioFeatures {
  const g = GENRES[genre];
  const n = () => rng.gaussian();
  const mode = rng.next() < g.minorShare ? 'minor' : 'major';
  const chords = Array.from({ length: 32 }, () => {
    const root = rng.pick(['C', 'F', 'G', 'A', 'D', 'E']);
    return rng.next() < g.minorShare ? `${root}m` : root;
  });
  const rawChroma = Array.from({ length: 12 }, () => 0.5 + rng.next());
  const chromaSum = rawChroma.reduce((a, b) => a + b, 0);
  return {
    durationSec: 120 + 60 * rng.next(),
    tempoBpm: g.tempo * (1 + 0.08 * n()),
    tempoConfidence: 0.4 + 0.5 * rng.next(),
    key: rng.pick(KEYS),
    mode,
    keyConfidence: 0.3 + 0.5 * rng.next(),
    chroma: rawChroma.map((c) => c / chromaSum),
    mfccMean: Array.from({ length: 13 }, (_, i) => (i === 0 ? 40 : 8 / (i + 1)) * (1 + 0.35 * g.timbre * Math.cos(i)) + 3 * n()),
    mfccStd: Array.from({ length: 13 }, () => 3 + 2 * rng.next()),
    loudnessDb: -30 + 25 * g.energy + 3 * n(),
    energy: Math.max(0, Math.min(1, g.energy + 0.12 * n())),
    spectralCentroidHz: g.centroid * 2 ** (0.3 * n()),
    onsetRate: Math.max(0.2, g.onsetRate * 2 ** (0.4 * n())),
    beatChords: chords,
  };
}

export function labelledItems(perGenre: number, seed: number): StyleTrainingItem[] {
  const rng = new Rng(seed);
  return Object.entries(GENRES).flatMap(([genre, g]) =>
    Array.from({ length: perGenre }, (_, i) => ({
      id: `${genre}-${i}`,
      genre,
      mood: [rng.pick(g.moods)],
      features: syntheticFeatures(genre, rng),
    })),
  );
}
