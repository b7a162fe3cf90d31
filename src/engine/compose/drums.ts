/**
 * Drum patterns on the General MIDI kit (channel 10). Style by genre family and lifestyle; density grows
 * with the section's intensity and the energy level (hats go from eighths to sixteenths, fills at the
 * end of sections, a crash on each chorus).
 */
import type { Section, ScoreNote } from './score.js';
import { type PartContext, swingBeat, velocity } from './timeline.js';

const KICK = 36;
const SIDE_STICK = 37;
const SNARE = 38;
const CLOSED_HAT = 42;
const PEDAL_HAT = 44;
const OPEN_HAT = 46;
const CRASH = 49;
const RIDE = 51;
const SHAKER = 70;
const LOW_TOM = 45;

export function composeDrums(ctx: PartContext): ScoreNote[] {
  const style = ctx.orchestration.drumStyle;
  if (style === 'none') return [];
  const notes: ScoreNote[] = [];
  for (const section of ctx.sections) {
    // Intros are written like any section: arrangement.ts keeps only their last bar, as the entry of the kit.
    const busy = section.intensity * (0.5 + ctx.energy) > 0.75;
    for (let bar = 0; bar < section.bars; bar++) {
      const start = (section.startBar + bar) * 4;
      const hit = (beat: number, midi: number, base: number) =>
        notes.push({
          midi,
          startBeat: start + swingBeat(beat, ctx.orchestration.swing),
          durationBeats: 0.25,
          velocity: velocity(base, section.intensity, ctx.energy, ctx.rng, 8),
        });
      if (bar === 0 && section.name === 'chorus') hit(0, CRASH, 90);
      const fill = bar === section.bars - 1 && section.bars >= 4 && section.name !== 'outro';
      playBar(style, busy, fill, hit, ctx, section);
    }
  }
  return notes;
}

type Hit = (beat: number, midi: number, base: number) => void;

function playBar(style: string, busy: boolean, fill: boolean, hit: Hit, ctx: PartContext, section: Section): void {
  const density = ctx.orchestration.drumDensity ?? 'normal';
  const quarters = [0, 1, 2, 3];
  const sixteenths = Array.from({ length: 16 }, (_, i) => i / 4);
  // A song's own hat density (style.ts pools): the usual eighths, or a quarter pulse, or sixteenths.
  const eighths = density === 'sparse' ? quarters : density === 'busy' ? sixteenths : [0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5];
  switch (style) {
    case 'boom-bap':
      hit(0, KICK, 100);
      if (ctx.rng.next() < 0.6) hit(1.5, KICK, 80);
      hit(2.5, KICK, 90);
      hit(1, SNARE, 95);
      hit(3, SNARE, 100);
      for (const b of eighths) hit(b, CLOSED_HAT, b % 1 === 0 ? 70 : 50);
      break;
    case 'four-on-floor':
      for (let b = 0; b < 4; b++) hit(b, KICK, 105);
      if (section.intensity > 0.5) {
        hit(1, SNARE, 90);
        hit(3, SNARE, 90);
      }
      for (const b of busy ? sixteenths : eighths) hit(b, b % 1 === 0.5 ? OPEN_HAT : CLOSED_HAT, b % 1 === 0.5 ? 75 : 50);
      break;
    case 'folk':
      hit(0, KICK, 85);
      hit(2, KICK, 75);
      hit(1, SIDE_STICK, 70);
      hit(3, SIDE_STICK, 75);
      for (const b of busy ? eighths : [0, 1, 2, 3]) hit(b, SHAKER, 55);
      break;
    case 'swing':
      for (const b of [0, 1, 1.5, 2, 3, 3.5]) hit(b, RIDE, b % 1 === 0 ? 65 : 45);
      hit(1, PEDAL_HAT, 50);
      hit(3, PEDAL_HAT, 50);
      hit(0, KICK, 55);
      if (ctx.rng.next() < 0.4) hit(2.5, SNARE, 45);
      break;
    default: // backbeat
      hit(0, KICK, 100);
      hit(2, KICK, 90);
      if (busy) hit(2.5, KICK, 80);
      hit(1, SNARE, 100);
      hit(3, SNARE, 100);
      for (const b of busy ? eighths : [0, 1, 2, 3]) hit(b, CLOSED_HAT, 60);
  }
  if (fill) for (const b of [3, 3.25, 3.5, 3.75]) hit(b, b < 3.5 ? SNARE : LOW_TOM, 85);
}
