/**
 * Tempo, key and chord progressions, each drawn from the learned audio model within the context's limits.
 * With an empty model, draws are uniform within the context's ranges (and over the key's diatonic chords).
 */
import { Note, Scale } from 'tonal';
import type { Mode, MusicContext } from '../types.js';
import type { Rng } from '../random.js';
import { CHORD_COUNT, START_STATE, chordFromIndex, chordIndex } from './chord-vocabulary.js';
import { TEMPO_BINS, TEMPO_BIN_BPM, TEMPO_MIN_BPM, type StyleView } from './audio-model.js';

const SHARP_NAMES = ['C', 'Db', 'D', 'Eb', 'E', 'F', 'F#', 'G', 'Ab', 'A', 'Bb', 'B'];

/** An integer tempo inside tempo_range, drawn from the model's tempo histogram restricted to that range. */
export function chooseTempo(context: MusicContext, style: StyleView, rng: Rng, tempered = false): number {
  const [low, high] = orderedRange(context.tempo_range);
  const candidates: number[] = [];
  const weights: number[] = [];
  for (let bpm = Math.ceil(low); bpm <= Math.floor(high); bpm++) {
    candidates.push(bpm);
    weights.push(histogramDensity(style.counts.tempoHistogram, bpm));
  }
  if (candidates.length === 0) return Math.round((low + high) / 2);
  return candidates[rng.weighted(tempered ? temper(weights) : weights)]; // all-zero weights: Rng.weighted draws uniformly
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
export function chooseTonic(mode: Mode, style: StyleView, rng: Rng, tempered = false): string {
  const counts = style.counts.keyCounts[mode];
  return SHARP_NAMES[rng.weighted(tempered ? temper(counts) : counts)];
}

/**
 * Half the learned distribution, half uniform. A model trained on a handful of tracks has learned their
 * exact tempos and keys; a composer resampling away from a copy (compose/novelty.ts) draws from this
 * flattened distribution so that it can reach tempos and keys no training track has.
 */
export function temper(weights: readonly number[]): number[] {
  const total = weights.reduce((a, w) => a + Math.max(0, w), 0);
  if (total <= 0) return weights.map(() => 1);
  return weights.map((w) => (0.5 * Math.max(0, w)) / total + 0.5 / weights.length);
}

export function scaleMidiPitchClasses(tonic: string, mode: Mode): number[] {
  return Scale.get(`${tonic} ${mode === 'major' ? 'major' : 'aeolian'}`).notes.map((n) => Note.chroma(n)!);
}

const MAJOR_STEPS = [0, 2, 4, 5, 7, 9, 11];
const MINOR_STEPS = [0, 2, 3, 5, 7, 8, 10];

/**
 * Diatonic triads of the key as vocabulary indices with weights: the fallback of an untrained model. The
 * primary triads (I, IV, V; i, iv, v) weigh twice the others, as in common-practice and pop harmony; a
 * uniform draw over all six makes the relative key's chords as likely as the key's own and leaves the key
 * unstated.
 */
function diatonicChords(mode: Mode): { indices: number[]; weights: number[] } {
  const steps = mode === 'major' ? MAJOR_STEPS : MINOR_STEPS;
  const indices: number[] = [];
  const weights: number[] = [];
  steps.forEach((degree, i) => {
    const third = (steps[(i + 2) % 7] - degree + 12) % 12;
    const fifth = (steps[(i + 4) % 7] - degree + 12) % 12;
    if (fifth !== 7) return; // skip the diminished triad
    indices.push(chordIndex({ degree, minor: third === 3 }));
    weights.push(degree === 0 || degree === 5 || degree === 7 ? 2 : 1);
  });
  return { indices, weights };
}

export function tonicChordIndex(mode: Mode): number {
  return chordIndex({ degree: 0, minor: mode === 'minor' });
}

/**
 * Chords that lead back to the tonic, with fallback weights: the dominant (V, an authentic cadence) and
 * the subdominant (IV / iv, a plagal cadence). Minor keys borrow the major V of harmonic minor, whose
 * leading tone is what tells a minor key from its relative major; the natural v stays possible.
 */
function cadenceChords(mode: Mode): { indices: number[]; weights: number[] } {
  if (mode === 'major') return { indices: [chordIndex({ degree: 7, minor: false }), chordIndex({ degree: 5, minor: false })], weights: [2, 1] };
  return {
    indices: [chordIndex({ degree: 7, minor: false }), chordIndex({ degree: 5, minor: true }), chordIndex({ degree: 7, minor: true })],
    weights: [2, 2, 1],
  };
}

/** The learned row (tonic quality flipped to the mode), or null for an untrained model. */
function learnedRow(style: StyleView, mode: Mode, state: number): number[] | null {
  const row = style.transitionProbabilities?.[state];
  if (!row) return null;
  // The model learned in both modes; flip the tonic chord's quality to match the chosen mode.
  const adjusted = row.slice();
  const wrongTonic = chordIndex({ degree: 0, minor: mode === 'major' });
  const rightTonic = tonicChordIndex(mode);
  adjusted[rightTonic] += adjusted[wrongTonic];
  adjusted[wrongTonic] = 0;
  return adjusted;
}

/** One of `candidates`, in proportion to the learned row when it knows any of them, else to `weights`. */
function pickAmong(candidates: { indices: number[]; weights: number[] }, row: number[] | null, rng: Rng): number {
  const learned = row ? candidates.indices.map((c) => row[c]) : [];
  const weights = learned.some((w) => w > 0) ? learned : candidates.weights;
  return candidates.indices[rng.weighted(weights)];
}

export interface ProgressionShape {
  /** First chord is the tonic: verses and choruses state the key; a bridge may start away from it. */
  startOnTonic: boolean;
  /** Keep to the key (loop genres): shared across a song's sections, so the budget is per song. */
  keyLock?: KeyLock;
}

/**
 * The key plus at most `budget` borrowed chords per song (issue 18: lo-fi, synthwave and pop listeners
 * expect the key's chords and one or two borrowed ones, e.g. bVII or iv in major; the learned chain, fed by a
 * chord detector's mistakes, wandered to 11-20 distinct triads).
 */
export interface KeyLock {
  diatonic: Set<number>;
  borrowed: Set<number>;
  budget: number;
}

export function keyLock(mode: Mode, budget = 2): KeyLock {
  const diatonic = new Set(diatonicChords(mode).indices);
  if (mode === 'minor') diatonic.add(chordIndex({ degree: 7, minor: false })); // harmonic minor's V: the cadence chord
  return { diatonic, borrowed: new Set(), budget };
}

/** Weight left to a borrowed chord against the key's own: colour, not a second key. */
const BORROWED_WEIGHT = 0.3;

/** The row with chords outside the key (and outside the borrowed ones, once the budget is spent) removed. */
function lockedRow(row: number[], lock: KeyLock): number[] {
  const spent = lock.borrowed.size >= lock.budget;
  return row.map((w, c) => (lock.diatonic.has(c) ? w : lock.borrowed.has(c) || !spent ? BORROWED_WEIGHT * w : 0));
}

function noteBorrowed(chord: number, lock: KeyLock | undefined): void {
  if (lock && !lock.diatonic.has(chord)) lock.borrowed.add(chord);
}

/**
 * A chord loop of `length` chords sampled from the learned Markov chain, starting after `previous`
 * (or from the start state). Chords of the other mode's colour are allowed when the model learned them.
 * The loop ends on a cadence chord (V or IV / iv), so every repeat, and the next section, resolves onto
 * the tonic: that is what makes the asked key the key a listener (and the key finder) hears.
 */
export function sampleProgression(
  style: StyleView,
  mode: Mode,
  length: number,
  previous: number | null,
  rng: Rng,
  shape: ProgressionShape = { startOnTonic: true },
): number[] {
  const chords: number[] = [];
  const fallback = diatonicChords(mode);
  let state = previous ?? START_STATE;
  for (let i = 0; i < length; i++) {
    const row = learnedRow(style, mode, state);
    let next: number;
    const lock = shape.keyLock;
    const allowed = row && lock ? lockedRow(row, lock) : row;
    if (i === 0 && shape.startOnTonic) next = tonicChordIndex(mode);
    else if (i === length - 1 && length > 1) next = pickAmong(cadenceChords(mode), row, rng);
    else if (allowed && allowed.some((w) => w > 0)) next = rng.weighted(allowed);
    else next = fallback.indices[rng.weighted(fallback.weights)];
    noteBorrowed(next, lock);
    chords.push(next);
    state = next;
  }
  // Loops should sound like loops: end on something other than the chord they start with.
  if (length > 1 && chords[length - 1] === chords[0]) chords[length - 1] = cadenceChords(mode).indices.find((c) => c !== chords[0])!;
  return chords;
}

export interface ChordVoice {
  rootPitchClass: number;
  minor: boolean;
  symbol: string; // "Am7"
  tones: number[]; // intervals above the root: triad, plus a seventh when asked
}

/**
 * A chord of the vocabulary in a key. With `sevenths`, the diatonic seventh; with `ninthsIn` (the key's
 * mode) as well, a ninth where it is a note of the key (not on iii in major, whose ninth is the flat
 * second). The fifth stays: without it a minor tonic's ninth chord (Bm9 = B D A C#) was heard as the key a
 * fifth below (test/engine/features/generated-track.test.ts).
 */
export function realiseChord(index: number, tonic: string, sevenths: boolean, ninthsIn?: Mode): ChordVoice {
  if (index < 0 || index >= CHORD_COUNT) throw new RangeError(`chord index ${index}`);
  const { degree, minor } = chordFromIndex(index);
  const rootPitchClass = (Note.chroma(tonic)! + degree) % 12;
  const tones = minor ? [0, 3, 7] : [0, 4, 7];
  // Diatonic sevenths: major chords on V and bVII carry a dominant (minor) seventh, other major chords a
  // major seventh. A major seventh on V would add the raised fourth of the key.
  const dominant = !minor && (degree === 7 || degree === 10);
  if (sevenths) tones.push(minor || dominant ? 10 : 11);
  const steps = ninthsIn === 'major' ? MAJOR_STEPS : MINOR_STEPS;
  const ninth = sevenths && ninthsIn !== undefined && steps.includes((degree + 2) % 12);
  if (ninth) tones.push(14);
  const extension = !sevenths ? '' : ninth ? (minor || dominant ? '9' : 'maj9') : minor || dominant ? '7' : 'maj7';
  const symbol = `${SHARP_NAMES[rootPitchClass]}${minor ? 'm' : ''}${extension}`;
  return { rootPitchClass, minor, symbol, tones };
}
