/**
 * Test signal synthesis: drum hits on a tempo grid and sustained triads built from additive harmonic tones.
 * Deterministic (seeded noise), so the tests assert exact behaviour run after run.
 */

import { Rng } from '../../../src/engine/random.js';

export const SR = 22050;

const NOTE_INDEX: Record<string, number> = { C: 0, 'C#': 1, D: 2, 'D#': 3, E: 4, F: 5, 'F#': 6, G: 7, 'G#': 8, A: 9, 'A#': 10, B: 11 };

export function midiToHz(midi: number): number {
  return 440 * 2 ** ((midi - 69) / 12);
}

/** A kick (pitch-swept sine) plus a short noise click on every beat. */
export function drumTrack(bpm: number, seconds: number, sampleRate = SR, seed = 1): Float32Array {
  const out = new Float32Array(Math.round(seconds * sampleRate));
  const rng = new Rng(seed);
  const period = 60 / bpm;
  for (let t = 0.1; t < seconds; t += period) addKick(out, Math.round(t * sampleRate), sampleRate, rng, 0.7);
  return out;
}

export function addKick(out: Float32Array, at: number, sampleRate: number, rng: Rng, gain: number): void {
  // Long enough to decay to silence: a truncated tail is a click of its own and a second onset.
  const length = Math.round(0.6 * sampleRate);
  let phase = 0;
  for (let i = 0; i < length && at + i < out.length; i++) {
    const t = i / sampleRate;
    const freq = 50 + 100 * Math.exp(-t * 30);
    phase += (2 * Math.PI * freq) / sampleRate;
    const body = Math.sin(phase) * Math.exp(-t * 12);
    const click = (rng.next() * 2 - 1) * Math.exp(-t * 300) * 0.5;
    out[at + i] += gain * (body + click);
  }
}

/** Root-position triad with the given root note name and quality, in octave 4, plus the root an octave below. */
export function triadMidi(chord: string): number[] {
  const minor = chord.endsWith('m');
  const rootName = minor ? chord.slice(0, -1) : chord;
  const root = 60 + NOTE_INDEX[rootName];
  return [root - 12, root, root + (minor ? 3 : 4), root + 7];
}

/** Additive tone: 6 harmonics with 1/h amplitudes, gentle attack and release to avoid clicks. */
export function addTone(out: Float32Array, midi: number, start: number, length: number, sampleRate: number, gain: number): void {
  const f0 = midiToHz(midi);
  const fade = Math.round(0.01 * sampleRate);
  for (let i = 0; i < length && start + i < out.length; i++) {
    const env = Math.min(1, i / fade, (length - i) / fade);
    let v = 0;
    for (let h = 1; h <= 6; h++) {
      if (f0 * h > sampleRate / 2) break;
      v += Math.sin((2 * Math.PI * f0 * h * (start + i)) / sampleRate) / h;
    }
    out[start + i] += gain * env * v;
  }
}

/** Sustained chords, `beatsPerChord` beats each at `bpm`, with a kick on every beat so beats can be tracked. */
export function chordTrack(chords: string[], bpm: number, beatsPerChord: number, repeats = 1, sampleRate = SR): Float32Array {
  const beatSec = 60 / bpm;
  const chordSamples = Math.round(beatsPerChord * beatSec * sampleRate);
  const sequence = Array.from({ length: repeats }, () => chords).flat();
  const out = new Float32Array(sequence.length * chordSamples);
  const rng = new Rng(7);
  sequence.forEach((chord, i) => {
    for (const midi of triadMidi(chord)) addTone(out, midi, i * chordSamples, chordSamples, sampleRate, 0.08);
  });
  for (let b = 0; b < sequence.length * beatsPerChord; b++) addKick(out, Math.round(b * beatSec * sampleRate), sampleRate, rng, 0.3);
  return out;
}

/** Chord sequence expected at each beat of a chordTrack. */
export function expectedBeatChords(chords: string[], beatsPerChord: number, repeats = 1): string[] {
  return Array.from({ length: repeats }, () => chords)
    .flat()
    .flatMap((c) => new Array<string>(beatsPerChord).fill(c));
}
