/**
 * Tempo, key and chord progressions, each drawn from the learned audio model within the context's limits.
 * With an empty model, draws are uniform within the context's ranges (and over the key's diatonic chords).
 */
import { Note, Scale } from 'tonal';
import type { Mode, MusicContext } from '../../types.js';
import type { Rng } from '../../random.js';
import { CHORD_COUNT, START_STATE, chordFromIndex, chordIndex } from '../chord-vocabulary.js';
import { TEMPO_BINS, TEMPO_BIN_BPM, TEMPO_MIN_BPM, type StyleView } from '../audio-model.js';

const SHARP_NAMES = ['C', 'Db', 'D', 'Eb', 'E', 'F', 'F#', 'G', 'Ab', 'A', 'Bb', 'B'];

/** An integer tempo inside tempo_range, drawn from the model's tempo histogram restricted to that range. */
export function chooseTempo(context: MusicContext, style: StyleView, rng: Rng): number {
  const [low, high] = orderedRange(context.tempo_range);
  const candidates: number[] = [];
  const weights: number[] = [];
  for (let bpm = Math.ceil(low); bpm <= Math.floor(high); bpm++) {
    candidates.push(bpm);
    weights.push(histogramDensity(style.counts.tempoHistogram, bpm));
  }
  if (candidates.length === 0) return Math.round((low + high) / 2);
  return candidates[rng.weighted(weights)]; // all-zero weights: Rng.weighted draws uniformly
}

/** Linear interpolation between histogram bin centres, so neighbouring tempos get smooth weights. */
function histogramDensity(histogram: readonly number[], bpm: number): number {
  const position = (bpm - TEMPO_MIN_BPM) / TEMPO_BIN_BPM - 0.5;
  const lower = Math.floor(position);
  const t = position - lower;
  const at = (i: number) => (i >= 0 && i < TEMPO_BINS ? histogram[i] : 0);
  return at(lower) * (1 - t) + at(lower + 1) * t;
}

function orderedRange([a, b]: [number, number]): [number, number] {
  return a <= b ? [a, b] : [b, a];
}

export function chooseMode(context: MusicContext, style: StyleView, rng: Rng): Mode {
  if (context.key_preference !== 'any') return context.key_preference;
  return rng.weighted([style.counts.modeCounts.major, style.counts.modeCounts.minor]) === 0 ? 'major' : 'minor';
}

/** Tonic pitch class name, drawn from the model's key counts for the mode. */
export function chooseTonic(mode: Mode, style: StyleView, rng: Rng): string {
  return SHARP_NAMES[rng.weighted(style.counts.keyCounts[mode])];
}

export function scaleMidiPitchClasses(tonic: string, mode: Mode): number[] {
  return Scale.get(`${tonic} ${mode === 'major' ? 'major' : 'aeolian'}`).notes.map((n) => Note.chroma(n)!);
}

/** Diatonic triads of the key as vocabulary indices: the uniform fallback of an untrained model. */
function diatonicChordIndices(mode: Mode): number[] {
  const steps = mode === 'major' ? [0, 2, 4, 5, 7, 9, 11] : [0, 2, 3, 5, 7, 8, 10];
  return steps
    .map((degree, i) => {
      const third = (steps[(i + 2) % 7] - degree + 12) % 12;
      const fifth = (steps[(i + 4) % 7] - degree + 12) % 12;
      return fifth === 7 ? chordIndex({ degree, minor: third === 3 }) : -1; // skip the diminished triad
    })
    .filter((i) => i >= 0);
}

/**
 * A chord loop of `length` chords sampled from the learned Markov chain, starting after `previous`
 * (or from the start state). Chords of the other mode's colour are allowed when the model learned them.
 */
export function sampleProgression(style: StyleView, mode: Mode, length: number, previous: number | null, rng: Rng): number[] {
  const chords: number[] = [];
  const fallback = diatonicChordIndices(mode);
  let state = previous ?? START_STATE;
  for (let i = 0; i < length; i++) {
    const row = style.transitionProbabilities?.[state];
    let next: number;
    if (row) {
      // The model learned in both modes; flip the tonic chord's quality to match the chosen mode.
      const adjusted = row.slice();
      const wrongTonic = chordIndex({ degree: 0, minor: mode === 'major' });
      const rightTonic = chordIndex({ degree: 0, minor: mode === 'minor' });
      adjusted[rightTonic] += adjusted[wrongTonic];
      adjusted[wrongTonic] = 0;
      next = rng.weighted(adjusted);
    } else {
      next = rng.pick(fallback);
    }
    chords.push(next);
    state = next;
  }
  // Loops should sound like loops: end on something other than the chord they start with.
  if (length > 1 && chords[length - 1] === chords[0]) chords[length - 1] = rng.pick(fallback.filter((c) => c !== chords[0]));
  return chords;
}

export interface ChordVoice {
  rootPitchClass: number;
  minor: boolean;
  symbol: string; // "Am7"
  tones: number[]; // intervals above the root: triad, plus a seventh when asked
}

export function realiseChord(index: number, tonic: string, sevenths: boolean): ChordVoice {
  if (index < 0 || index >= CHORD_COUNT) throw new RangeError(`chord index ${index}`);
  const { degree, minor } = chordFromIndex(index);
  const rootPitchClass = (Note.chroma(tonic)! + degree) % 12;
  const tones = minor ? [0, 3, 7] : [0, 4, 7];
  if (sevenths) tones.push(minor ? 10 : 11);
  const symbol = `${SHARP_NAMES[rootPitchClass]}${minor ? 'm' : ''}${sevenths ? (minor ? '7' : 'maj7') : ''}`;
  return { rootPitchClass, minor, symbol, tones };
}
