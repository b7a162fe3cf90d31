/**
 * The rotation path's rules (part of day from server time, preset choice, nudges along a period's variants):
 * pure functions, tested here beside them without a station. Moved from test/station/context.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { timeOfDayAt } from './context.service.js';
import { choosePreset, nudge, PERIODS } from './rotation-path.js';

describe('module D: rotation path (pure)', () => {
  const ctx = (lifestyle: 'focus' | 'party' | 'chill' | 'workout' | 'sleep', energy: number) => ({
    genre: 'g',
    subgenre: '',
    mood: ['m'],
    lifestyle,
    tempo_range: [80, 100] as [number, number],
    key_preference: 'any' as const,
    energy_level: energy,
  });

  it('maps server time to parts of day at 0, 6, 12 and 18 UTC', () => {
    const at = (h: number, m = 0) => timeOfDayAt(new Date(Date.UTC(2026, 0, 1, h, m)));
    expect([at(0), at(5, 59), at(6), at(11, 59), at(12), at(17, 59), at(18), at(23, 59)]).toEqual([
      'night',
      'night',
      'morning',
      'morning',
      'afternoon',
      'afternoon',
      'evening',
      'evening',
    ]);
  });

  it('prefers the period’s lifestyles, then the closest energy, and never the preset just active', () => {
    const presets = [
      { presetId: 'p-party', name: 'Party', context: ctx('party', 0.9), timeOfDay: null },
      { presetId: 'p-workout', name: 'Workout', context: ctx('workout', 0.7), timeOfDay: null },
      { presetId: 'p-focus', name: 'Focus', context: ctx('focus', 0.5), timeOfDay: null },
      { presetId: 'p-sleep', name: 'Sleep', context: ctx('sleep', 0.1), timeOfDay: null },
    ];
    expect(choosePreset('afternoon', presets, null)?.presetId).toBe('p-workout');
    expect(choosePreset('afternoon', presets, 'p-workout')?.presetId).toBe('p-party');
    expect(choosePreset('morning', presets, null)?.presetId).toBe('p-focus');
    expect(choosePreset('morning', presets, 'p-focus')).toBeNull(); // chill is the only fallback, and there is none
    expect(choosePreset('night', presets, null)?.presetId).toBe('p-sleep');
    expect(choosePreset('evening', presets, null)?.presetId).toBe('p-party');
  });

  it('nudges from a context outside the path to the period’s first variant', () => {
    expect(nudge('afternoon', ctx('sleep', 0.1), 'afternoon')).toEqual(PERIODS.afternoon.variants[0]);
    expect(nudge('afternoon', PERIODS.afternoon.variants[0], 'afternoon')).toEqual(PERIODS.afternoon.variants[1]);
    expect(nudge('evening', PERIODS.afternoon.variants[1], 'afternoon')).toEqual(PERIODS.evening.variants[0]);
  });
});
