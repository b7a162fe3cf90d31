/**
 * Original by construction at the symbolic level (issue 18): melodic n-grams, chord n-grams and the
 * sequence of sections of a candidate are checked against the training tracks whose symbols are known, and
 * a candidate that copies one is resampled within the generation, deterministically per seed.
 */
import { describe, expect, it } from 'vitest';
import { emptyAudioModel, type AudioModel } from '../../../src/engine/compose/audio-model.js';
import { composeCandidate, composeScore } from '../../../src/engine/compose/index.js';
import { MELODY_COPY_SHARE, chordGrams, melodyGrams, symbolicCopy, symbolicFingerprint, type NoveltyReference } from '../../../src/engine/compose/novelty.js';
import type { Score } from '../../../src/engine/compose/score.js';
import { LOFI_CONTEXT } from './helpers.js';

const SEED = 4242;
const base = emptyAudioModel();
const request = (seed: number, model: AudioModel) => ({ context: LOFI_CONTEXT, seed, maxDurationSec: 60, model });

/**
 * A training track whose melody, loops and form are the first candidate's, but whose sound is far from it
 * (another tempo, all its chroma on one pitch class, no chords heard): the audio-level prediction alone
 * would let the copy through.
 */
function plantedCopy(of: Score, symbols = true): NoveltyReference {
  const chroma = new Array<number>(12).fill(0);
  chroma[(of.parts.length + 5) % 12] = 1;
  return {
    genre: 'lo-fi hip hop',
    tempoBpm: 200,
    key: of.key,
    mode: of.mode === 'major' ? 'minor' : 'major',
    chroma,
    onsetRate: 2,
    beatChords: [],
    ...(symbols ? { symbols: symbolicFingerprint(of) } : {}),
  };
}

describe('symbolic copy check', () => {
  const first = composeCandidate(request(SEED, base), 0, true);

  it('without symbols, the audio-level check lets the planted copy through (the case this closes)', () => {
    const model: AudioModel = { ...base, references: [plantedCopy(first, false)] };
    expect(composeScore(request(SEED, model))).toEqual(first);
  });

  it('rejects a candidate that copies a training melody and resamples, deterministically', () => {
    const reference = plantedCopy(first);
    expect(symbolicCopy(symbolicFingerprint(first), [reference])).toMatchObject({ copy: true, melodyOverlap: 1, nearest: 0 });

    const model: AudioModel = { ...base, references: [reference] };
    const chosen = composeScore(request(SEED, model));
    expect(chosen).not.toEqual(first);
    const verdict = symbolicCopy(symbolicFingerprint(chosen), [reference]);
    expect(verdict.copy).toBe(false);
    expect(verdict.melodyOverlap).toBeLessThan(MELODY_COPY_SHARE);
    expect(composeScore(request(SEED, model))).toEqual(chosen); // same request and seed, same score
  });

  it('lets a different seed pass on its first candidate', () => {
    const model: AudioModel = { ...base, references: [plantedCopy(first)] };
    const other = composeCandidate(request(SEED + 1, model), 0, true);
    expect(symbolicCopy(symbolicFingerprint(other), model.references!).copy).toBe(false);
    expect(composeScore(request(SEED + 1, model))).toEqual(other);
  });

  it('finds a copied melody moved to another key and tempo', () => {
    const moved: Score = {
      ...first,
      bpm: first.bpm + 17,
      parts: first.parts.map((p) => (p.role === 'melody' ? { ...p, notes: p.notes.map((n) => ({ ...n, midi: n.midi + 3 })) } : p)),
    };
    expect(melodyGrams(first).length).toBeGreaterThan(4);
    expect(melodyGrams(moved)).toEqual(melodyGrams(first));
    expect(symbolicCopy(symbolicFingerprint(moved), [plantedCopy(first)]).copy).toBe(true);
  });

  it('flags the same chord loops in the same form, and not the same loops in another form', () => {
    const loop = ['C', 'C', 'G', 'G', 'Am', 'Am', 'F', 'F'];
    const beats = [...loop, ...loop, ...loop];
    const grams = chordGrams(beats, 'C');
    expect(
      chordGrams(
        beats.map((c) => ({ C: 'D', G: 'A', Am: 'Bm', F: 'G' })[c]!),
        'D',
      ),
    ).toEqual(grams); // key-relative
    const ref = (sections: string[]): NoveltyReference => ({
      ...plantedCopy(first, false),
      symbols: { melodyGrams: [], chordGrams: grams, sections },
    });
    const candidate = { melodyGrams: ['x'], chordGrams: grams, sections: ['intro', 'verse', 'chorus'] };
    expect(symbolicCopy(candidate, [ref(['intro', 'verse', 'chorus'])]).copy).toBe(true);
    expect(symbolicCopy(candidate, [ref(['verse', 'chorus', 'bridge', 'chorus'])]).copy).toBe(false);
  });
});
