/**
 * Song form: intro, verse, chorus, verse, chorus, bridge, chorus, outro, scaled to the bars that fit the
 * requested duration. Short tracks drop the least essential sections first (bridge, second verse, ...).
 */
import { Rng } from '../random.js';
import type { Section, SectionName } from './score.js';
import type { GenreFamily } from './style.js';

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

/** No bridge: verse, chorus, verse, chorus, final chorus (loop-based genres often never leave the loop). */
const NO_BRIDGE: FormEntry[] = [
  { name: 'intro', weight: 4, intensity: 0.35, priority: 3 },
  { name: 'verse', weight: 8, intensity: 0.6, priority: 1 },
  { name: 'chorus', weight: 8, intensity: 0.9, priority: 0 },
  { name: 'verse', weight: 8, intensity: 0.65, priority: 5 },
  { name: 'chorus', weight: 8, intensity: 0.95, priority: 4 },
  { name: 'chorus', weight: 8, intensity: 1, priority: 6 },
  { name: 'outro', weight: 4, intensity: 0.4, priority: 2 },
];

/** Three verses, each answered by the chorus, no bridge: the strophic form of folk and singer-songwriter songs. */
const STROPHIC: FormEntry[] = [
  { name: 'intro', weight: 2, intensity: 0.35, priority: 3 },
  { name: 'verse', weight: 8, intensity: 0.6, priority: 1 },
  { name: 'chorus', weight: 6, intensity: 0.85, priority: 0 },
  { name: 'verse', weight: 8, intensity: 0.65, priority: 5 },
  { name: 'chorus', weight: 6, intensity: 0.9, priority: 4 },
  { name: 'verse', weight: 8, intensity: 0.7, priority: 7 },
  { name: 'chorus', weight: 6, intensity: 1, priority: 6 },
  { name: 'outro', weight: 2, intensity: 0.4, priority: 2 },
];

/** A long build and a long release around one peak (ambient and electronic). */
const LONG_ARC: FormEntry[] = [
  { name: 'intro', weight: 8, intensity: 0.3, priority: 3 },
  { name: 'verse', weight: 8, intensity: 0.55, priority: 1 },
  { name: 'chorus', weight: 8, intensity: 0.9, priority: 0 },
  { name: 'bridge', weight: 8, intensity: 0.65, priority: 5 },
  { name: 'chorus', weight: 8, intensity: 1, priority: 4 },
  { name: 'outro', weight: 8, intensity: 0.35, priority: 2 },
];

/**
 * The forms each family draws from (VARIANTS are shared; the family adds the ones its listeners expect, a
 * form listed twice being drawn twice as often). Ambient leaves out the chorus-first and double-chorus pop
 * forms.
 */
const FAMILY_FORMS: Record<GenreFamily, FormEntry[][]> = {
  pop: [...VARIANTS],
  rock: [...VARIANTS, NO_BRIDGE],
  electronic: [...VARIANTS, NO_BRIDGE, LONG_ARC],
  lofi: [...VARIANTS, NO_BRIDGE, NO_BRIDGE],
  jazz: [...VARIANTS, STROPHIC],
  folk: [...VARIANTS, STROPHIC, STROPHIC],
  ambient: [VARIANTS[0], VARIANTS[2], LONG_ARC, LONG_ARC],
};

/** How much the intro and outro may be scaled per song: a one-bar pickup to a long fade-in. */
const EDGE_SCALES = [0.5, 1, 1, 1.5, 2];

/**
 * The form a song takes: without `variant`, always FORM; with it, one of the family's forms (all VARIANTS
 * when no family is given), with the intro's and the outro's weights scaled per song (EDGE_SCALES).
 */
export function chooseForm(variant?: Rng, family?: GenreFamily): FormEntry[] {
  if (!variant) return FORM;
  const form = variant.pick(family ? FAMILY_FORMS[family] : VARIANTS);
  if (!family) return form;
  const intro = variant.pick(EDGE_SCALES);
  const outro = variant.pick(EDGE_SCALES);
  return form.map((s, i) =>
    i === 0 && s.name === 'intro'
      ? { ...s, weight: Math.min(8, s.weight * intro) }
      : i === form.length - 1 && s.name === 'outro'
        ? { ...s, weight: Math.min(8, s.weight * outro) }
        : s,
  );
}

/**
 * Sections covering exactly `totalBars` bars; sections are 2-bar (4-bar) multiples when the length allows.
 * With `variant`, the form is drawn (chooseForm: from VARIANTS, or from the family's forms with intro and
 * outro lengths drawn too when `family` is given); without, it is always FORM.
 */
export function planSections(totalBars: number, variant?: Rng, family?: GenreFamily): Section[] {
  const form = chooseForm(variant, family);
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

/**
 * Requests at least this long get a length of their own (seconds): shorter ones (previews, tests, the demo
 * catalog's 8-second masters) are rendered at exactly the length asked for.
 */
export const VARY_LENGTH_FROM_SEC = 60;
/** The shortest a varied song may be, as a share of the request's maximum. */
export const MIN_LENGTH_SHARE = 0.8;

/**
 * How long a song is (whole seconds): the request's `max_duration_sec` is a ceiling (spec: the generation
 * request's maximum, the result's `duration_sec` the track's length), so from VARY_LENGTH_FROM_SEC up a
 * song takes a length of its own between MIN_LENGTH_SHARE of it and all of it, drawn from the seed
 * (issue 18: every song of a genre had the same length). The composer fits its form into it and the
 * pipeline renders and reports it; both call this with the request's seed, so they agree.
 */
export function songLengthSec(maxDurationSec: number, seed: number): number {
  if (maxDurationSec < VARY_LENGTH_FROM_SEC) return maxDurationSec;
  const share = MIN_LENGTH_SHARE + (1 - MIN_LENGTH_SHARE) * Rng.derive(seed, 'song-length').next();
  return Math.min(maxDurationSec, Math.max(VARY_LENGTH_FROM_SEC, Math.round(maxDurationSec * share)));
}
