/** Bass line: the chord root on the downbeat, then a figure that depends on the genre's bass style. */
import type { ScoreNote } from './score.js';
import { type PartContext, nearestPitch, spansInSection, swingBeat, velocity } from './timeline.js';

const BASS_CENTRE = 40; // E2: roots are placed near here

export function composeBass(ctx: PartContext): ScoreNote[] {
  const notes: ScoreNote[] = [];
  const { orchestration, rng } = ctx;
  for (const section of ctx.sections) {
    // Intros are written too: arrangement.ts shapes them into a build.
    const spans = spansInSection(ctx.spans, section);
    spans.forEach((span, i) => {
      const root = nearestPitch(span.chord.rootPitchClass, BASS_CENTRE);
      const fifth = root + 7;
      const next = spans[i + 1] ?? span;
      const nextRoot = nearestPitch(next.chord.rootPitchClass, BASS_CENTRE);
      const v = (base: number) => velocity(base, section.intensity, ctx.energy, rng);
      const add = (offset: number, beats: number, midi: number, base = 92) => {
        if (offset < span.beats)
          notes.push({
            midi,
            startBeat: span.startBeat + swingBeat(offset, orchestration.swing),
            durationBeats: Math.min(beats, span.beats - offset),
            velocity: v(base),
          });
      };
      switch (orchestration.bassStyle) {
        case 'drone':
          add(0, span.beats, root, 70);
          break;
        case 'lazy-roots':
          add(0, 1.5, root);
          add(2.5, 0.5, rng.next() < 0.5 ? root : fifth, 80);
          add(3, 1, rng.next() < 0.5 ? root + 12 : fifth, 78);
          break;
        case 'pulsing-eighths':
          for (let b = 0; b < span.beats; b += 0.5) add(b, 0.45, b % 1 === 0 ? root : root + 12, b % 1 === 0 ? 95 : 80);
          break;
        case 'root-fifth':
          for (let b = 0; b < span.beats; b += 2) add(b, 1.8, (b / 2) % 2 === 0 ? root : fifth);
          break;
        case 'driving':
          for (let b = 0; b < span.beats; b += 0.5) add(b, 0.45, root, 90);
          break;
        case 'walking': {
          // Quarter notes: root, chord tones, and a chromatic approach into the next root.
          const tones = span.chord.tones.map((t) => root + t);
          for (let b = 0; b < span.beats; b++) {
            const last = b === span.beats - 1;
            const midi = b === 0 ? root : last ? nextRoot + (rng.next() < 0.5 ? 1 : -1) : rng.pick(tones);
            add(b, 0.9, midi, 85);
          }
          break;
        }
      }
    });
  }
  return notes;
}
