/**
 * The audio model: everything the composer knows about style, learned from the platform catalog's audio
 * features (never hand-written). Two kinds of knowledge live here:
 *
 * - counted statistics (tempo histogram, mode and key counts, energy, loudness, onset density, harmonic
 *   rhythm), kept as raw sums so that fine-tuning can add new data to a base model exactly;
 * - chord-transition logits over the 24-chord relative vocabulary, fitted by gradient descent in
 *   audio-model-training.ts: global logits plus per-genre and per-mood offsets, so a genre with little data
 *   leans on what all genres taught.
 *
 * Lookups fall back genre+mood -> genre -> global -> "knows nothing" (the composer then draws uniformly
 * within the context's ranges).
 */
import type { AudioFeatures, Mode } from '../types.js';
import { CHORD_COUNT } from './chord-vocabulary.js';
import { ModelFormatError } from '../model-errors.js';

/**
 * What the composer keeps of one training track (novelty.ts): enough to tell a copy, nothing to rebuild it from.
 * Stored in the model, so declared here.
 */
export interface NoveltyReference {
  genre: string;
  tempoBpm: number;
  key: string;
  mode: Mode;
  /** 12 values summing to 1 (the feature extractor's mean chroma), rounded to 3 decimals. */
  chroma: number[];
  onsetRate: number;
  /** The feature extractor's chord per beat (absolute labels). */
  beatChords: string[];
  /** The track's symbolic material when it is known (a master the engine composed): compose/novelty.ts. */
  symbols?: SymbolicFingerprint;
}

/** Symbolic n-grams of one track (compose/novelty.ts symbolicFingerprint): hashed, never the notes themselves. */
export interface SymbolicFingerprint {
  /** Lead melody n-grams: interval and duration of consecutive notes, transposition- and tempo-free. */
  melodyGrams: string[];
  /** Key-relative chord n-grams over chord changes. */
  chordGrams: string[];
  /** Section names in order ("intro", "verse", ...). */
  sections: string[];
}

export const TEMPO_MIN_BPM = 40;
export const TEMPO_BIN_BPM = 4;
export const TEMPO_BINS = 45; // 40..220 BPM
/** Rows of the transition matrix: one per chord plus the start state. */
export const TRANSITION_ROWS = CHORD_COUNT + 1;
export const TRANSITION_SIZE = TRANSITION_ROWS * CHORD_COUNT;
/** Fewer tracks than this for a genre+mood pair and its statistics are too noisy to prefer over the genre's. */
export const MIN_TRACKS_FOR_SUBSET = 3;

export interface TrainingItem {
  genre: string;
  mood: string[];
  features: AudioFeatures;
  /** The track's symbolic material, when known: kept in its novelty reference. */
  symbols?: SymbolicFingerprint;
}

/** Raw sums over the tracks of one subset (global, a genre, a genre+mood pair). */
export interface StyleCounts {
  tracks: number;
  tempoHistogram: number[]; // TEMPO_BINS, weighted by tempo confidence
  modeCounts: { major: number; minor: number };
  keyCounts: { major: number[]; minor: number[] }; // 12 pitch classes each, weighted by key confidence
  energySum: number;
  energySquaredSum: number;
  loudnessDbSum: number;
  onsetRateSum: number;
  onsetRateSquaredSum: number;
  chordChanges: number;
  chordBeats: number;
}

export interface TransitionParameters {
  global: number[]; // TRANSITION_SIZE logits, row-major
  genreOffsets: Record<string, number[]>;
  moodOffsets: Record<string, number[]>;
}

export interface AudioModel {
  format: 'station-audio-model';
  formatVersion: 1;
  global: StyleCounts;
  genres: Record<string, StyleCounts>;
  genreMoods: Record<string, StyleCounts>; // key: "genre|mood"
  transitions: TransitionParameters;
  /** Transitions seen in training; 0 means the logits carry no knowledge. */
  transitionsObserved: number;
  training: { epochs: number; finalLoss: number | null; heldOutLoss: number | null; trackCount: number };
  /**
   * Fingerprints of the training tracks (compose/novelty.ts): what the composer must not copy. Absent in
   * models trained before them, which compose as they always did.
   */
  references?: NoveltyReference[];
}

/** What the composer needs for one context, resolved through the fallback chain. */
export interface StyleView {
  counts: StyleCounts;
  source: 'genre+mood' | 'genre' | 'global' | 'empty';
  /** TRANSITION_ROWS x CHORD_COUNT probabilities, or null when the model never saw a chord. */
  transitionProbabilities: number[][] | null;
}

export function normaliseLabel(label: string): string {
  return label.trim().toLowerCase();
}

export function emptyCounts(): StyleCounts {
  return {
    tracks: 0,
    tempoHistogram: new Array(TEMPO_BINS).fill(0),
    modeCounts: { major: 0, minor: 0 },
    keyCounts: { major: new Array(12).fill(0), minor: new Array(12).fill(0) },
    energySum: 0,
    energySquaredSum: 0,
    loudnessDbSum: 0,
    onsetRateSum: 0,
    onsetRateSquaredSum: 0,
    chordChanges: 0,
    chordBeats: 0,
  };
}

export function emptyAudioModel(): AudioModel {
  return {
    format: 'station-audio-model',
    formatVersion: 1,
    global: emptyCounts(),
    genres: {},
    genreMoods: {},
    transitions: { global: new Array(TRANSITION_SIZE).fill(0), genreOffsets: {}, moodOffsets: {} },
    transitionsObserved: 0,
    training: { epochs: 0, finalLoss: null, heldOutLoss: null, trackCount: 0 },
  };
}

export function tempoBin(bpm: number): number {
  return Math.min(TEMPO_BINS - 1, Math.max(0, Math.floor((bpm - TEMPO_MIN_BPM) / TEMPO_BIN_BPM)));
}

const PITCH_CLASSES: Record<string, number> = {
  C: 0,
  'C#': 1,
  Db: 1,
  D: 2,
  'D#': 3,
  Eb: 3,
  E: 4,
  F: 5,
  'F#': 6,
  Gb: 6,
  G: 7,
  'G#': 8,
  Ab: 8,
  A: 9,
  'A#': 10,
  Bb: 10,
  B: 11,
};

export function pitchClassOf(key: string): number | undefined {
  return PITCH_CLASSES[key.trim()];
}

/** Adds one track's features to a subset's sums. Confidence weights keep unsure detections from dominating. */
export function addToCounts(counts: StyleCounts, features: AudioFeatures, chordChangeCount: number, chordBeatCount: number): void {
  counts.tracks++;
  const tempoWeight = clamp(features.tempoConfidence, 0.1, 1);
  if (Number.isFinite(features.tempoBpm) && features.tempoBpm > 0) counts.tempoHistogram[tempoBin(features.tempoBpm)] += tempoWeight;
  counts.modeCounts[features.mode]++;
  const pc = pitchClassOf(features.key);
  if (pc !== undefined) counts.keyCounts[features.mode][pc] += clamp(features.keyConfidence, 0.1, 1);
  counts.energySum += features.energy;
  counts.energySquaredSum += features.energy * features.energy;
  counts.loudnessDbSum += features.loudnessDb;
  counts.onsetRateSum += features.onsetRate;
  counts.onsetRateSquaredSum += features.onsetRate * features.onsetRate;
  counts.chordChanges += chordChangeCount;
  counts.chordBeats += chordBeatCount;
}

export function mergeCounts(into: StyleCounts, from: StyleCounts): void {
  into.tracks += from.tracks;
  for (let i = 0; i < TEMPO_BINS; i++) into.tempoHistogram[i] += from.tempoHistogram[i];
  into.modeCounts.major += from.modeCounts.major;
  into.modeCounts.minor += from.modeCounts.minor;
  for (let i = 0; i < 12; i++) {
    into.keyCounts.major[i] += from.keyCounts.major[i];
    into.keyCounts.minor[i] += from.keyCounts.minor[i];
  }
  into.energySum += from.energySum;
  into.energySquaredSum += from.energySquaredSum;
  into.loudnessDbSum += from.loudnessDbSum;
  into.onsetRateSum += from.onsetRateSum;
  into.onsetRateSquaredSum += from.onsetRateSquaredSum;
  into.chordChanges += from.chordChanges;
  into.chordBeats += from.chordBeats;
}

/** Mean and standard deviation of a summed quantity, or null without data. */
export function meanAndStd(sum: number, squaredSum: number, n: number): { mean: number; std: number } | null {
  if (n <= 0) return null;
  const mean = sum / n;
  return { mean, std: Math.sqrt(Math.max(0, squaredSum / n - mean * mean)) };
}

/** Transition logits for one genre and mood set: global + genre offset + mean of the known mood offsets. */
export function transitionLogits(params: TransitionParameters, genre: string, moods: readonly string[]): Float64Array {
  const logits = Float64Array.from(params.global);
  const genreOffset = params.genreOffsets[normaliseLabel(genre)];
  if (genreOffset) for (let i = 0; i < TRANSITION_SIZE; i++) logits[i] += genreOffset[i];
  const moodOffsets = moods.map((m) => params.moodOffsets[normaliseLabel(m)]).filter((o): o is number[] => o !== undefined);
  for (const offset of moodOffsets) for (let i = 0; i < TRANSITION_SIZE; i++) logits[i] += offset[i] / moodOffsets.length;
  return logits;
}

export function softmaxRows(logits: ArrayLike<number>): number[][] {
  const rows: number[][] = [];
  for (let r = 0; r < TRANSITION_ROWS; r++) {
    let max = -Infinity;
    for (let c = 0; c < CHORD_COUNT; c++) max = Math.max(max, logits[r * CHORD_COUNT + c]);
    const row = new Array<number>(CHORD_COUNT);
    let total = 0;
    for (let c = 0; c < CHORD_COUNT; c++) total += row[c] = Math.exp(logits[r * CHORD_COUNT + c] - max);
    for (let c = 0; c < CHORD_COUNT; c++) row[c] /= total;
    rows.push(row);
  }
  return rows;
}

/** Resolves the statistics for a context through the fallback chain genre+mood -> genre -> global -> empty. */
export function styleFor(model: AudioModel, genre: string, moods: readonly string[]): StyleView {
  const g = normaliseLabel(genre);
  const moodSubset = emptyCounts();
  for (const mood of moods) {
    const subset = model.genreMoods[`${g}|${normaliseLabel(mood)}`];
    if (subset) mergeCounts(moodSubset, subset);
  }
  let counts: StyleCounts;
  let source: StyleView['source'];
  if (moodSubset.tracks >= MIN_TRACKS_FOR_SUBSET) [counts, source] = [moodSubset, 'genre+mood'];
  else if (model.genres[g]?.tracks) [counts, source] = [model.genres[g], 'genre'];
  else if (model.global.tracks > 0) [counts, source] = [model.global, 'global'];
  else [counts, source] = [emptyCounts(), 'empty'];
  const transitionProbabilities = model.transitionsObserved > 0 ? softmaxRows(transitionLogits(model.transitions, genre, moods)) : null;
  return { counts, source, transitionProbabilities };
}

export function serialiseAudioModel(model: AudioModel): string {
  return JSON.stringify(model);
}

export function deserialiseAudioModel(json: string): AudioModel {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (error) {
    throw new ModelFormatError(`audio model is not JSON: ${(error as Error).message}`);
  }
  const model = parsed as Partial<AudioModel>;
  if (model.format !== 'station-audio-model' || model.formatVersion !== 1) throw new ModelFormatError('not a station audio model (format version 1)');
  if (!Array.isArray(model.transitions?.global) || model.transitions.global.length !== TRANSITION_SIZE) {
    throw new ModelFormatError(`transition logits must have ${TRANSITION_SIZE} values`);
  }
  return model as AudioModel;
}

function clamp(value: number, min: number, max: number): number {
  return Number.isFinite(value) ? Math.min(max, Math.max(min, value)) : min;
}
