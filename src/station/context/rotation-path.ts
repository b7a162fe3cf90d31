/**
 * Where an automatic rotation goes next (pure, no I/O). The part of day (server time, UTC) names a
 * family of lifestyles; among the presets that suit it, the one whose energy fits best wins, never the
 * one just active. Without a suitable preset the current context is nudged along a fixed path of
 * variants for that part of day, so the result is deterministic.
 *
 *   night      sleep, then chill           energy ~0.20   ambient
 *   morning    focus, then chill           energy ~0.45   lo-fi / acoustic
 *   afternoon  workout or party, then focus energy ~0.75   electronic / funk
 *   evening    chill, then party           energy ~0.45   jazz / soul
 */
import type { Lifestyle, MusicContext } from '../../engine/types.js';
import type { TimeOfDay } from './context.service.js';

interface Period {
  /** Lifestyles in order of preference; the first group ranks 0, the second 1. */
  lifestyles: [Lifestyle[], Lifestyle[]];
  energy: number;
  /** The path a context without presets follows, one step per rotation. */
  variants: MusicContext[];
}

export const PERIODS: Record<TimeOfDay, Period> = {
  night: {
    lifestyles: [['sleep'], ['chill']],
    energy: 0.2,
    variants: [
      { genre: 'ambient', subgenre: 'drone', mood: ['dreamy', 'calm'], lifestyle: 'sleep', tempo_range: [55, 70], key_preference: 'major', energy_level: 0.15 },
      {
        genre: 'ambient',
        subgenre: 'piano',
        mood: ['peaceful', 'tender'],
        lifestyle: 'sleep',
        tempo_range: [60, 75],
        key_preference: 'any',
        energy_level: 0.2,
      },
      {
        genre: 'downtempo',
        subgenre: 'chillout',
        mood: ['calm', 'nocturnal'],
        lifestyle: 'chill',
        tempo_range: [65, 80],
        key_preference: 'minor',
        energy_level: 0.25,
      },
    ],
  },
  morning: {
    lifestyles: [['focus'], ['chill']],
    energy: 0.45,
    variants: [
      {
        genre: 'lo-fi hip hop',
        subgenre: 'chillhop',
        mood: ['calm', 'focused'],
        lifestyle: 'focus',
        tempo_range: [70, 90],
        key_preference: 'any',
        energy_level: 0.4,
      },
      {
        genre: 'acoustic',
        subgenre: 'folk',
        mood: ['bright', 'hopeful'],
        lifestyle: 'focus',
        tempo_range: [85, 105],
        key_preference: 'major',
        energy_level: 0.45,
      },
      {
        genre: 'electronic',
        subgenre: 'minimal',
        mood: ['focused', 'steady'],
        lifestyle: 'focus',
        tempo_range: [95, 115],
        key_preference: 'any',
        energy_level: 0.5,
      },
    ],
  },
  afternoon: {
    lifestyles: [['workout', 'party'], ['focus']],
    energy: 0.75,
    variants: [
      {
        genre: 'electronic',
        subgenre: 'house',
        mood: ['energetic', 'uplifting'],
        lifestyle: 'workout',
        tempo_range: [118, 128],
        key_preference: 'major',
        energy_level: 0.8,
      },
      { genre: 'funk', subgenre: 'disco', mood: ['groovy', 'happy'], lifestyle: 'party', tempo_range: [105, 120], key_preference: 'major', energy_level: 0.7 },
      {
        genre: 'electronic',
        subgenre: 'drum and bass',
        mood: ['driving', 'intense'],
        lifestyle: 'workout',
        tempo_range: [160, 175],
        key_preference: 'minor',
        energy_level: 0.85,
      },
    ],
  },
  evening: {
    lifestyles: [['chill'], ['party']],
    energy: 0.45,
    variants: [
      {
        genre: 'jazz',
        subgenre: 'smooth jazz',
        mood: ['warm', 'relaxed'],
        lifestyle: 'chill',
        tempo_range: [80, 100],
        key_preference: 'any',
        energy_level: 0.4,
      },
      {
        genre: 'soul',
        subgenre: 'neo soul',
        mood: ['mellow', 'romantic'],
        lifestyle: 'chill',
        tempo_range: [75, 95],
        key_preference: 'minor',
        energy_level: 0.45,
      },
      {
        genre: 'lo-fi hip hop',
        subgenre: 'jazzhop',
        mood: ['nostalgic', 'cozy'],
        lifestyle: 'chill',
        tempo_range: [70, 90],
        key_preference: 'any',
        energy_level: 0.35,
      },
    ],
  },
};

export interface PresetCandidate {
  presetId: string;
  name: string;
  context: MusicContext;
  /** The part of day the preset was made for, if it says. */
  timeOfDay: TimeOfDay | null;
}

/**
 * The preset to rotate to in `period`, or null when none suits. A preset made for this part of day
 * ranks first, then the period's lifestyles in order; ties go to the closest energy, then the name.
 */
export function choosePreset(period: TimeOfDay, candidates: PresetCandidate[], justActive: string | null): PresetCandidate | null {
  const { lifestyles, energy } = PERIODS[period];
  const rankOf = (c: PresetCandidate): number => {
    if (c.timeOfDay === period) return -1;
    if (c.timeOfDay !== null) return Number.POSITIVE_INFINITY; // made for another part of day
    const rank = lifestyles.findIndex((group) => group.includes(c.context.lifestyle));
    return rank === -1 ? Number.POSITIVE_INFINITY : rank;
  };
  const ranked = candidates
    .filter((c) => c.presetId !== justActive)
    .map((c) => ({ c, rank: rankOf(c), distance: Math.abs(c.context.energy_level - energy) }))
    .filter((r) => Number.isFinite(r.rank))
    .sort((a, b) => a.rank - b.rank || a.distance - b.distance || a.c.name.localeCompare(b.c.name));
  return ranked[0]?.c ?? null;
}

/**
 * The next step along the period's path: entering a new part of day starts at its first variant;
 * within the same part of day, each rotation moves to the following variant.
 */
export function nudge(period: TimeOfDay, current: MusicContext, currentPeriod: string): MusicContext {
  const { variants } = PERIODS[period];
  const at = currentPeriod === period ? variants.findIndex((v) => v.genre === current.genre && v.subgenre === current.subgenre) : -1;
  const next = variants[(at + 1) % variants.length];
  return { ...next, mood: [...next.mood], tempo_range: [next.tempo_range[0], next.tempo_range[1]] };
}
