/** Chord instrument and pad: voicings that move smoothly from chord to chord, played in the genre's style. */
import type { ScoreNote } from './score.js';
import { type ChordSpan, type PartContext, nearestPitch, spansInSection, velocity } from './timeline.js';

/** Voices a chord near `centre`, each tone the closest instance of its pitch class (smooth voice leading). */
function voicing(span: ChordSpan, centre: number): number[] {
  return span.chord.tones.map((t) => nearestPitch((span.chord.rootPitchClass + t) % 12, centre)).sort((a, b) => a - b);
}

export function composeChords(ctx: PartContext): ScoreNote[] {
  const notes: ScoreNote[] = [];
  const { rng, orchestration } = ctx;
  for (const section of ctx.sections) {
    for (const span of spansInSection(ctx.spans, section)) {
      const chord = voicing(span, 62 + (orchestration.register ?? 0));
      const v = (base: number) => velocity(base, section.intensity, ctx.energy, rng);
      const play = (offset: number, beats: number, base: number, spread = 0) => {
        if (offset >= span.beats) return;
        chord.forEach((midi, i) =>
          notes.push({ midi, startBeat: span.startBeat + offset + i * spread, durationBeats: Math.min(beats, span.beats - offset), velocity: v(base) }),
        );
      };
      switch (orchestration.chordStyle) {
        case 'sustain':
          play(0, span.beats, 72);
          break;
        case 'block':
          play(0, 1.9, 78);
          for (let bar = 0; bar < span.beats; bar += 4) if (rng.next() < 0.7) play(bar + 2.5, 1.4, 66);
          break;
        case 'strum':
          for (const b of [0, 1.5, 2, 3]) for (let bar = 0; bar < span.beats; bar += 4) play(bar + b, 0.9, b === 0 ? 84 : 70, 0.03);
          break;
        case 'arpeggio': {
          const pattern = [0, 1, 2, 1, chord.length - 1, 1, 2, 1];
          for (let step = 0; step * 0.5 < span.beats; step++) {
            const midi = chord[pattern[step % pattern.length] % chord.length] + (step % 8 === 4 ? 12 : 0);
            notes.push({ midi, startBeat: span.startBeat + step * 0.5, durationBeats: 0.9, velocity: v(step % 2 === 0 ? 74 : 62) });
          }
          break;
        }
      }
    }
  }
  return notes;
}

/** Sustained upper-register pad, written everywhere (arrangement.ts takes it out of the verses); absent when the genre has no pad. */
export function composePad(ctx: PartContext): ScoreNote[] {
  if (ctx.orchestration.padProgram === null) return [];
  const notes: ScoreNote[] = [];
  for (const section of ctx.sections) {
    for (const span of spansInSection(ctx.spans, section)) {
      for (const midi of voicing(span, 70 + (ctx.orchestration.register ?? 0)).slice(-3)) {
        notes.push({ midi, startBeat: span.startBeat, durationBeats: span.beats, velocity: velocity(60, section.intensity, ctx.energy, ctx.rng, 3) });
      }
    }
  }
  return notes;
}
