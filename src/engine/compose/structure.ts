/**
 * Song form: intro, verse, chorus, verse, chorus, bridge, chorus, outro, scaled to the bars that fit the
 * requested duration. Short tracks drop the least essential sections first (bridge, second verse, ...).
 */
import type { Rng } from '../random.js';
import type { Section, SectionName } from './score.js';

type FormEntry = { name: SectionName; weight: number; intensity: number; priority: number };

const FORM: FormEntry[] = [
  { name: 'intro', weight: 4, intensity: 0.35, priority: 3 },
  { name: 'verse', weight: 8, intensity: 0.6, priority: 1 },
  { name: 'chorus', weight: 8, intensity: 0.9, priority: 0 },
  { name: 'verse', weight: 8, intensity: 0.65, priority: 5 },
  { name: 'chorus', weight: 8, intensity: 0.95, priority: 4 },
  { name: 'bridge', weight: 6, intensity: 0.7, priority: 6 },
  { name: 'chorus', weight: 8, intensity: 1, priority: 7 },
  { name: 'outro', weight: 4, intensity: 0.4, priority: 2 },
];

/**
 * Other forms a song may take (issue 18: every song of a genre had the same form): a short intro straight
 * into the chorus-led pop form, no second verse with a longer bridge, and a double final chorus. Same
 * section kinds, so lyrics and loops fit any of them.
 */
const VARIANTS: FormEntry[][] = [
  FORM,
  [
    { name: 'intro', weight: 2, intensity: 0.35, priority: 3 },
    { name: 'chorus', weight: 8, intensity: 0.85, priority: 1 },
    { name: 'verse', weight: 8, intensity: 0.6, priority: 0 },
    { name: 'chorus', weight: 8, intensity: 0.95, priority: 4 },
    { name: 'verse', weight: 8, intensity: 0.65, priority: 5 },
    { name: 'bridge', weight: 4, intensity: 0.7, priority: 6 },
    { name: 'chorus', weight: 8, intensity: 1, priority: 7 },
    { name: 'outro', weight: 4, intensity: 0.4, priority: 2 },
  ],
  [
    { name: 'intro', weight: 4, intensity: 0.35, priority: 3 },
    { name: 'verse', weight: 8, intensity: 0.6, priority: 1 },
    { name: 'chorus', weight: 8, intensity: 0.9, priority: 0 },
    { name: 'bridge', weight: 8, intensity: 0.7, priority: 5 },
    { name: 'chorus', weight: 8, intensity: 0.95, priority: 4 },
    { name: 'chorus', weight: 8, intensity: 1, priority: 6 },
    { name: 'outro', weight: 6, intensity: 0.4, priority: 2 },
  ],
  [
    { name: 'intro', weight: 4, intensity: 0.35, priority: 3 },
    { name: 'verse', weight: 8, intensity: 0.6, priority: 1 },
    { name: 'chorus', weight: 8, intensity: 0.9, priority: 0 },
    { name: 'verse', weight: 8, intensity: 0.65, priority: 5 },
    { name: 'chorus', weight: 8, intensity: 0.95, priority: 4 },
    { name: 'bridge', weight: 6, intensity: 0.7, priority: 6 },
    { name: 'chorus', weight: 8, intensity: 1, priority: 7 },
    { name: 'chorus', weight: 8, intensity: 1, priority: 8 },
    { name: 'outro', weight: 2, intensity: 0.4, priority: 2 },
  ],
];

/**
 * Sections covering exactly `totalBars` bars; sections are 2-bar (4-bar) multiples when the length allows.
 * With `variant`, the form is drawn from VARIANTS; without, it is always FORM.
 */
export function planSections(totalBars: number, variant?: Rng): Section[] {
  const form = variant ? variant.pick(VARIANTS) : FORM;
  const bars = Math.max(1, Math.floor(totalBars));
  // Keep the most essential sections that can each get at least 2 bars (at least one section).
  const keepCount = Math.max(1, Math.min(form.length, Math.floor(bars / 2)));
  const kept = form
    .map((s, i) => ({ ...s, i }))
    .sort((a, b) => a.priority - b.priority)
    .slice(0, keepCount)
    .sort((a, b) => a.i - b.i);
  const totalWeight = kept.reduce((n, s) => n + s.weight, 0);
  // Four-bar sections when the song is long enough: a locked 4-bar chord loop then comes back whole in every
  // section instead of being cut mid-loop (issue 18: the same four bars came back only 17-35% of the time).
  const unit = bars >= kept.length * 6 ? 4 : bars >= kept.length * 4 ? 2 : 1;
  const lengths = kept.map((s) => Math.max(unit, Math.floor((bars * s.weight) / totalWeight / unit) * unit));
  // Hand out (or take back) the rounding remainder in whole units, choruses first since they carry the
  // song; what is left under a unit goes to the last section (the outro's ring-out).
  let remainder = bars - lengths.reduce((a, b) => a + b, 0);
  const order = kept.map((s, i) => ({ i, priority: s.priority })).sort((a, b) => a.priority - b.priority);
  for (let k = 0, idle = 0; Math.abs(remainder) >= unit && idle < order.length; k = (k + 1) % order.length) {
    const i = order[k].i;
    if (remainder > 0) {
      lengths[i] += unit;
      remainder -= unit;
      idle = 0;
    } else if (lengths[i] > unit) {
      lengths[i] -= unit;
      remainder += unit;
      idle = 0;
    } else idle++;
  }
  for (let k = 0; remainder !== 0; k = (k + 1) % order.length) {
    const i = remainder > 0 ? kept.length - 1 : order[k].i;
    if (remainder > 0) {
      lengths[i]++;
      remainder--;
    } else if (lengths[i] > 1) {
      lengths[i]--;
      remainder++;
    }
  }
  let startBar = 0;
  return kept.map((s, i) => {
    const section: Section = { name: s.name, startBar, bars: lengths[i], intensity: s.intensity };
    startBar += lengths[i];
    return section;
  });
}
