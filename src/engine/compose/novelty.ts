/**
 * Novelty against the training material, at the symbolic level. A model trained on a handful of tracks
 * learns their tempos, keys and chord loops so narrowly that its songs land on top of them (issue 18: on an
 * 8-second demo catalog most generations were blocked as audio duplicates). The composer therefore keeps a
 * fingerprint of every training track (`NoveltyReference`, stored in the audio model) and scores each
 * candidate score against them before anything is rendered:
 *
 *   - chord n-grams: the candidate's per-beat chords against the reference's beat chords, aligned as the
 *     safety filter aligns them (`sequenceAgreement`: agreement above chance at the best offset), and the
 *     share of the candidate's key-relative chord trigrams (over chord changes) found in the reference;
 *   - pitch content: the candidate's pitch-class profile (chords, bass, melody, weighted by duration and
 *     velocity: melodic and harmonic material) turned into the chroma it will roughly produce, against the
 *     reference's chroma, with the filter's tolerance, plus a mode mismatch;
 *   - rhythm: tempo (also at half and double) and onset density against the reference's;
 *   - section sequence: only as far as audio features tell it (none: references carry no form), so it is
 *     varied, not compared (see compose/index.ts).
 *
 * When a training track's symbols are known (`NoveltyReference.symbols`: a master the engine composed, whose
 * score the trainer was handed), the candidate is also checked note for note (`symbolicCopy`):
 *
 *   - melodic n-grams: runs of MELODY_GRAM notes of the lead melody as (interval in semitones, duration in
 *     sixteenths) pairs, so a copy moved to another key or tempo still matches; a copy when at least
 *     MELODY_COPY_SHARE of the candidate's distinct n-grams are in one reference's;
 *   - chord n-grams and sections: key-relative 4-grams over chord changes; the same loops (at least
 *     CHORD_COPY_SHARE of the candidate's 4-grams) in the same sequence of sections is a copy of the form.
 *
 * A symbolic copy is never kept while another candidate is not one.
 *
 * The predicted similarity mirrors the safety filter's shape (src/engine/safety/audio-duplicate.ts):
 * sound(pitch, rhythm; timbre and level assumed as close as a same-genre neighbour's) x chord agreement.
 * The composer resamples (derived random streams, so still deterministic) while the nearest reference's
 * predicted similarity is over NOVELTY_BOUND, and keeps the most novel candidate when none is under it.
 */
import { sequenceAgreement } from '../safety/audio-duplicate.js';
import type { AudioFeatures, Mode } from '../types.js';
import { chordChanges } from './chord-vocabulary.js';
import type { Score } from './score.js';
import type { NoveltyReference, SymbolicFingerprint } from './audio-model.js';

export type { NoveltyReference, SymbolicFingerprint };

/** Notes per melodic n-gram: four intervals, long enough that shared scale runs rarely match by chance. */
export const MELODY_GRAM = 5;
/** Chord changes per chord n-gram. */
export const CHORD_GRAM = 4;
/** Share of a candidate's melodic n-grams found in one reference over which the melody is a copy. */
export const MELODY_COPY_SHARE = 0.5;
/** Share of a candidate's chord n-grams found in one reference over which, with the same form, it is a copy. */
export const CHORD_COPY_SHARE = 0.9;

/** Predicted similarity over which a candidate counts as drifting into a copy (the filter blocks at 0.447). */
export const NOVELTY_BOUND = 0.3;
/** Candidates the composer draws at most before it keeps the most novel one. */
export const MAX_NOVELTY_CANDIDATES = 8;
/** References kept in a model: the most recent ones (fine-tuning appends). */
export const MAX_NOVELTY_REFERENCES = 4000;

/** The filter's tolerances (audio-duplicate.ts) for the groups the symbols predict. */
const CHROMA_TOLERANCE = 0.02;
const TEMPO_TOLERANCE = 3;
/**
 * Timbre and level groups of the filter's distance, which a score cannot predict: assumed as small as they
 * measured between a generation and its nearest same-genre catalog master (about 0.2-1.1 each, bench/originality.ts),
 * so the constraint errs towards resampling.
 */
const ASSUMED_TIMBRE_AND_LEVEL = 1.5;
/**
 * How much of a mix's chroma follows its notes' pitch classes: the rest is spread flat by drums, noise and
 * overtones. Fitted on lo-fi renders (the flattest family): the rendered chroma's deviations from flat are
 * about 0.35 of the note profile's at 0.45, hence 0.18.
 */
const CHROMA_FROM_NOTES = 0.18;

export function noveltyReference(genre: string, features: AudioFeatures, symbols?: SymbolicFingerprint): NoveltyReference {
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return {
    ...(symbols ? { symbols } : {}),
    genre,
    tempoBpm: round(features.tempoBpm),
    key: features.key,
    mode: features.mode,
    chroma: features.chroma.map(round),
    onsetRate: round(features.onsetRate),
    beatChords: features.beatChords.slice(),
  };
}

/** The symbolic fingerprint of a candidate score. */
export interface ScoreFingerprint {
  bpm: number;
  mode: Mode;
  key: string;
  /** Predicted mean chroma (sums to 1). */
  chroma: number[];
  /** One absolute triad label per beat ("C", "Am"), as the feature extractor would label them. */
  beatChords: string[];
}

const NAMES = ['C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#', 'A', 'A#', 'B'];

export function fingerprintScore(score: Score): ScoreFingerprint {
  const profile = new Array<number>(12).fill(0);
  for (const part of score.parts) {
    if (part.role === 'drums') continue;
    for (const note of part.notes) profile[note.midi % 12] += note.durationBeats * note.velocity;
  }
  const total = profile.reduce((a, b) => a + b, 0);
  const chroma = profile.map((p) => (total > 0 ? CHROMA_FROM_NOTES * (p / total) : 0) + (total > 0 ? (1 - CHROMA_FROM_NOTES) / 12 : 1 / 12));
  const beatChords: string[] = [];
  for (const span of score.harmony.spans) {
    const label = `${NAMES[span.chord.rootPitchClass]}${span.chord.minor ? 'm' : ''}`;
    for (let b = 0; b < span.beats; b++) beatChords.push(label);
  }
  return { bpm: score.bpm, mode: score.mode, key: score.key, chroma, beatChords };
}

export interface NoveltyVerdict {
  /** Predicted similarity to the nearest reference, 0..1 (the filter's scale). */
  similarity: number;
  /** Index of that reference, -1 without references. */
  nearest: number;
  /** Share of the candidate's key-relative chord trigrams that the nearest reference also plays. */
  trigramOverlap: number;
}

/** Predicted similarity of a candidate to its nearest reference (0 without references). */
export function noveltyAgainst(candidate: ScoreFingerprint, references: readonly NoveltyReference[]): NoveltyVerdict {
  let best: NoveltyVerdict = { similarity: 0, nearest: -1, trigramOverlap: 0 };
  const ownTrigrams = chordTrigrams(candidate.beatChords, candidate.key);
  references.forEach((ref, i) => {
    const similarity = predictedSimilarity(candidate, ref);
    if (similarity > best.similarity) {
      const theirs = new Set(chordTrigrams(ref.beatChords, ref.key));
      const trigramOverlap = ownTrigrams.length === 0 ? 0 : ownTrigrams.filter((t) => theirs.has(t)).length / ownTrigrams.length;
      best = { similarity, nearest: i, trigramOverlap };
    }
  });
  return best;
}

function predictedSimilarity(candidate: ScoreFingerprint, ref: NoveltyReference): number {
  let chroma = 0;
  for (let i = 0; i < 12; i++) chroma += ((candidate.chroma[i] - (ref.chroma[i] ?? 0)) / CHROMA_TOLERANCE) ** 2;
  const pitch = chroma / 12 + (candidate.mode === ref.mode ? 0 : 1);
  const tempoDiff = Math.min(...[ref.tempoBpm, ref.tempoBpm * 2, ref.tempoBpm / 2].map((t) => Math.abs(candidate.bpm - t)));
  // Onset density is left out (assumed equal): it depends on the kit and the detector more than on the notes.
  const rhythm = (tempoDiff / TEMPO_TOLERANCE) ** 2 / 2;
  const distance = Math.sqrt((pitch + rhythm + ASSUMED_TIMBRE_AND_LEVEL) / 4);
  const sound = 1 / (1 + (distance / 2) ** 2);
  // Chord sequences: the filter's own alignment, plus the trigram overlap for sequences too short to align.
  const agreement = sequenceAgreement(candidate.beatChords, ref.beatChords);
  return sound * agreement;
}

/** Key-relative chord trigrams over chord changes ("0,10,14"), the n-grams a copied loop shares. */
export function chordTrigrams(beatChords: readonly string[], key: string): string[] {
  const { indices } = chordChanges(beatChords, key);
  const grams: string[] = [];
  for (let i = 0; i + 2 < indices.length; i++) grams.push(`${indices[i]},${indices[i + 1]},${indices[i + 2]}`);
  return grams;
}

/** Lead melody n-grams: "interval:sixteenths" pairs of MELODY_GRAM consecutive notes (the first note's interval omitted). */
export function melodyGrams(score: Score): string[] {
  const lead = score.parts.find((p) => p.role === 'melody');
  if (!lead) return [];
  // One line: at each onset the top note (a melody part may double a note at the octave).
  const byStart = new Map<number, { midi: number; durationBeats: number }>();
  for (const n of lead.notes) {
    const at = byStart.get(n.startBeat);
    if (!at || n.midi > at.midi) byStart.set(n.startBeat, n);
  }
  const notes = [...byStart.entries()].sort((a, b) => a[0] - b[0]).map(([, n]) => n);
  const steps = notes.map((n, i) => `${i === 0 ? 0 : n.midi - notes[i - 1].midi}:${Math.max(1, Math.round(n.durationBeats * 4))}`);
  const grams = new Set<string>();
  for (let i = 1; i + MELODY_GRAM - 1 <= steps.length; i++) {
    // The first note of a gram keeps only its duration: the interval into it belongs to the gram before.
    const first = steps[i - 1].split(':')[1];
    grams.add([first, ...steps.slice(i, i + MELODY_GRAM - 1)].join(' '));
  }
  return [...grams];
}

/** Key-relative chord n-grams over chord changes. */
export function chordGrams(beatChords: readonly string[], key: string, n = CHORD_GRAM): string[] {
  const { indices } = chordChanges(beatChords, key);
  const grams = new Set<string>();
  for (let i = 0; i + n <= indices.length; i++) grams.add(indices.slice(i, i + n).join(','));
  return [...grams];
}

/** What the novelty check keeps of a score it may later have to avoid copying. */
export function symbolicFingerprint(score: Score): SymbolicFingerprint {
  return {
    melodyGrams: melodyGrams(score),
    chordGrams: chordGrams(fingerprintScore(score).beatChords, score.key),
    sections: score.sections.map((s) => s.name),
  };
}

export interface SymbolicVerdict {
  /** Whether the candidate copies a reference's melody, or its chord loops in the same form. */
  copy: boolean;
  /** Highest share of the candidate's melodic n-grams found in one reference. */
  melodyOverlap: number;
  /** Highest share of its chord n-grams found in one reference whose sections run as its own. */
  formOverlap: number;
  /** The reference it copies, -1 when none. */
  nearest: number;
}

const shareIn = (own: readonly string[], theirs: readonly string[]) => {
  if (own.length === 0) return 0;
  const set = new Set(theirs);
  return own.filter((g) => set.has(g)).length / own.length;
};

/** Checks a candidate's symbols against every reference that carries symbols. */
export function symbolicCopy(candidate: SymbolicFingerprint, references: readonly NoveltyReference[]): SymbolicVerdict {
  const verdict: SymbolicVerdict = { copy: false, melodyOverlap: 0, formOverlap: 0, nearest: -1 };
  const form = candidate.sections.join('-');
  references.forEach((ref, i) => {
    const theirs = ref.symbols;
    if (!theirs) return;
    const melody = shareIn(candidate.melodyGrams, theirs.melodyGrams);
    const sameForm = theirs.sections.join('-') === form;
    const chords = sameForm ? shareIn(candidate.chordGrams, theirs.chordGrams) : 0;
    verdict.melodyOverlap = Math.max(verdict.melodyOverlap, melody);
    verdict.formOverlap = Math.max(verdict.formOverlap, chords);
    const copies = melody >= MELODY_COPY_SHARE || (sameForm && candidate.chordGrams.length > 0 && chords >= CHORD_COPY_SHARE);
    if (copies && !verdict.copy) {
      verdict.copy = true;
      verdict.nearest = i;
    }
  });
  return verdict;
}
