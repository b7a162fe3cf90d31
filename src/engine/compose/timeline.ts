/** Shared shapes of the composer's parts: where chords fall, and how loud and busy each moment is. */
import type { Rng } from '../random.js';
import type { ChordSpan, Section } from './score.js';
import type { Orchestration } from './style.js';

export type { ChordSpan };

export interface PartContext {
  sections: Section[];
  spans: ChordSpan[];
  scale: number[]; // pitch classes of the key's scale
  tonicPitchClass: number;
  orchestration: Orchestration;
  energy: number; // 0..1, context energy blended with the model's
  /** Melody onsets per beat, from the model's onset density. */
  melodyDensity: number;
  rng: Rng;
}

/** Delays off-beat eighths towards the triplet position; 0 leaves them straight. */
export function swingBeat(beat: number, swing: number): number {
  const whole = Math.floor(beat);
  const fraction = beat - whole;
  return Math.abs(fraction - 0.5) < 1e-9 ? whole + 0.5 + swing * (2 / 3 - 0.5) : beat;
}

export function velocity(base: number, intensity: number, energy: number, rng: Rng, jitter = 6): number {
  const v = base * (0.55 + 0.45 * intensity) * (0.7 + 0.45 * energy) + (rng.next() - 0.5) * 2 * jitter;
  return Math.max(1, Math.min(127, Math.round(v)));
}

export function spansInSection(spans: readonly ChordSpan[], section: Section): ChordSpan[] {
  const start = section.startBar * 4;
  const end = start + section.bars * 4;
  return spans.filter((s) => s.startBeat >= start && s.startBeat < end);
}

/** The MIDI note of a pitch class closest to a reference pitch. */
export function nearestPitch(pitchClass: number, reference: number): number {
  const base = reference - ((((reference - pitchClass) % 12) + 12) % 12);
  return reference - base > 6 ? base + 12 : base;
}
