/**
 * Melody: each section kind (verse, chorus, bridge) gets one two-bar motif, a rhythm plus a contour, that
 * is reused every time the section comes back, so choruses are recognisable. Realising a motif over the
 * chords puts chord tones on strong beats and scale steps (passing tones) between them; phrases arch up
 * and come to rest on a long chord tone.
 */
import type { Rng } from '../random.js';
import type { ScoreNote, SectionName } from './score.js';
import { type ChordSpan, type PartContext, nearestPitch, swingBeat, velocity } from './timeline.js';

interface MotifNote {
  beat: number; // within the 8-beat motif
  beats: number;
  strong: boolean;
  move: number; // scale steps (weak notes) or contour pull in semitones (strong notes)
}

const LOW = 62;
const HIGH = 84;
const MOTIF_BEATS = 8;

function createMotif(density: number, rng: Rng): MotifNote[] {
  const onsets: number[] = [0];
  const probability = Math.min(0.95, density / 2);
  for (let eighth = 1; eighth < 14; eighth++) {
    const beat = eighth / 2;
    const onBeat = eighth % 2 === 0;
    if (rng.next() < (onBeat ? probability * 1.3 : probability * 0.8)) onsets.push(beat);
  }
  return onsets.map((beat, i) => {
    const next = onsets[i + 1] ?? MOTIF_BEATS;
    const strong = beat % 2 === 0;
    const move = strong ? rng.int(-4, 5) : rng.pick([-2, -1, -1, 1, 1, 2]);
    return { beat, beats: Math.max(0.4, (next - beat) * 0.92), strong, move };
  });
}

function chordAt(spans: readonly ChordSpan[], beat: number): ChordSpan {
  let found = spans[0];
  for (const span of spans) if (span.startBeat <= beat + 1e-9) found = span;
  return found;
}

function stepInScale(pitch: number, steps: number, scale: readonly number[]): number {
  let p = pitch;
  const direction = Math.sign(steps);
  for (let moved = 0; moved < Math.abs(steps);) {
    p += direction;
    if (scale.includes(((p % 12) + 12) % 12)) moved++;
  }
  return p;
}

function nearestChordTone(span: ChordSpan, target: number): number {
  let best = target;
  let bestDistance = Infinity;
  for (const tone of span.chord.tones) {
    const candidate = nearestPitch((span.chord.rootPitchClass + tone) % 12, target);
    const distance = Math.abs(candidate - target);
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best;
}

function keepInRange(pitch: number): number {
  if (pitch < LOW) return pitch + 12;
  if (pitch > HIGH) return pitch - 12;
  return pitch;
}

export function composeMelody(ctx: PartContext): ScoreNote[] {
  const motifs = new Map<SectionName, MotifNote[]>();
  const motifFor = (name: SectionName) =>
    motifs.get(name) ?? motifs.set(name, createMotif(name === 'chorus' ? ctx.melodyDensity * 1.15 : ctx.melodyDensity, ctx.rng)).get(name)!;
  const notes: ScoreNote[] = [];
  const centre = 70;
  for (const section of ctx.sections) {
    if (section.name === 'intro') continue;
    // The outro quotes the chorus motif once; every other section repeats its own motif.
    const motif = motifFor(section.name === 'outro' ? 'chorus' : section.name);
    const phrases = section.name === 'outro' ? 1 : Math.floor(section.bars / 2);
    let pitch = centre;
    for (let phrase = 0; phrase < phrases; phrase++) {
      const phraseStart = (section.startBar + phrase * 2) * 4;
      // Arch over each pair of phrases: the answer phrase sits a little higher, the cadence resolves down.
      const arch = phrase % 2 === 1 ? 3 : 0;
      const cadence = phrase === phrases - 1;
      motif.forEach((m, i) => {
        const start = phraseStart + m.beat;
        const span = chordAt(ctx.spans, start);
        const last = i === motif.length - 1;
        if (m.strong || last) pitch = nearestChordTone(span, keepInRange(centre + arch + m.move + (pitch - centre) / 3));
        else pitch = keepInRange(stepInScale(pitch, m.move, ctx.scale));
        if (last && cadence) pitch = nearestPitch(span.chord.rootPitchClass, pitch);
        const beats = last ? Math.max(m.beats, 1.5) : m.beats;
        notes.push({
          midi: pitch,
          startBeat: swingBeat(start, ctx.orchestration.swing),
          durationBeats: Math.min(beats, MOTIF_BEATS - m.beat),
          velocity: velocity(m.strong ? 96 : 84, section.intensity, ctx.energy, ctx.rng),
        });
      });
    }
  }
  return notes;
}
