/** The demo station's context presets: one or two per part of day, so auto-rotation has a path to follow. */
import { DomainError } from '../../errors.js';
import type { ContextService, PresetInput } from './context.service.js';

export const DEMO_PRESETS: PresetInput[] = [
  {
    name: 'Morning Focus',
    genre: 'lo-fi hip hop',
    subgenre: 'chillhop',
    mood: ['calm', 'focused'],
    lifestyle: 'focus',
    tempo_range: [70, 90],
    key_preference: 'any',
    energy_level: 0.4,
    time_of_day: 'morning',
  },
  {
    name: 'Deep Work',
    genre: 'electronic',
    subgenre: 'minimal',
    mood: ['focused', 'steady'],
    lifestyle: 'focus',
    tempo_range: [95, 115],
    key_preference: 'any',
    energy_level: 0.5,
    time_of_day: null,
  },
  {
    name: 'Afternoon Workout',
    genre: 'electronic',
    subgenre: 'house',
    mood: ['energetic', 'uplifting'],
    lifestyle: 'workout',
    tempo_range: [118, 130],
    key_preference: 'major',
    energy_level: 0.8,
    time_of_day: 'afternoon',
  },
  {
    name: 'Friday Party',
    genre: 'funk',
    subgenre: 'disco',
    mood: ['groovy', 'happy'],
    lifestyle: 'party',
    tempo_range: [108, 124],
    key_preference: 'major',
    energy_level: 0.75,
    time_of_day: null,
  },
  {
    name: 'Evening Jazz',
    genre: 'jazz',
    subgenre: 'smooth jazz',
    mood: ['warm', 'relaxed'],
    lifestyle: 'chill',
    tempo_range: [80, 100],
    key_preference: 'any',
    energy_level: 0.4,
    time_of_day: 'evening',
  },
  {
    name: 'Night Drift',
    genre: 'ambient',
    subgenre: 'drone',
    mood: ['dreamy', 'calm'],
    lifestyle: 'sleep',
    tempo_range: [55, 72],
    key_preference: 'major',
    energy_level: 0.15,
    time_of_day: 'night',
  },
];

/** Creates the demo presets that do not exist yet (safe to run again). Returns how many were created. */
export async function seedDemoPresets(contexts: Pick<ContextService, 'createPreset'>): Promise<number> {
  let created = 0;
  for (const preset of DEMO_PRESETS) {
    try {
      await contexts.createPreset(preset);
      created += 1;
    } catch (error) {
      if (!(error instanceof DomainError && error.code === 'CONFLICT')) throw error;
    }
  }
  return created;
}
