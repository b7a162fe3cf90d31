import { describe, expect, it } from 'vitest';
import { nextOrigin, planOrigins } from '../../src/station/scheduler/slot-planner.js';
import { pickCatalogTrack, type CatalogCandidate } from '../../src/station/scheduler/catalog-picker.js';
import type { MusicContext } from '../../src/engine/types.js';

describe('slot planner', () => {
  it('keeps every window of 20 consecutive slots within one slot of the AI ratio', () => {
    for (let step = 0; step <= 20; step++) {
      const ratio = step / 20 + (step % 3 === 1 ? 0.013 : 0); // also ratios that are not multiples of 1/20
      const clamped = Math.min(1, ratio);
      const plan = planOrigins(400, clamped, 0).map((p) => (p.origin === 'ai_generated' ? 1 : 0) as number);
      for (let start = 0; start + 20 <= plan.length; start++) {
        const ai = plan.slice(start, start + 20).reduce((a, b) => a + b, 0);
        expect(Math.abs(ai - 20 * clamped), `ratio ${clamped} window ${start}`).toBeLessThanOrEqual(1);
      }
    }
  });

  it('continues the same pattern from a persisted accumulator (a restart changes nothing)', () => {
    const whole = planOrigins(30, 0.3, 0).map((p) => p.origin);
    const first = planOrigins(12, 0.3, 0);
    const rest = planOrigins(18, 0.3, first[first.length - 1].credit).map((p) => p.origin);
    expect([...first.map((p) => p.origin), ...rest]).toEqual(whole);
  });

  it('plans only catalog at ratio 0 and only AI at ratio 1', () => {
    expect(planOrigins(50, 0).every((p) => p.origin === 'catalog')).toBe(true);
    expect(planOrigins(50, 1).every((p) => p.origin === 'ai_generated')).toBe(true);
    expect(nextOrigin(0.49, 0).credit).toBeCloseTo(0.49);
  });
});

describe('catalog picker', () => {
  const context: MusicContext = {
    genre: 'lo-fi hip hop',
    subgenre: 'chillhop',
    mood: ['calm', 'nostalgic'],
    lifestyle: 'focus',
    tempo_range: [70, 90],
    key_preference: 'any',
    energy_level: 0.4,
  };
  const track = (id: string, artistId: string, genre: string, mood: string[], bpm: number): CatalogCandidate => ({
    id,
    artistId,
    genre,
    subgenre: '',
    mood,
    bpm,
    durationSec: 120,
  });
  const catalog = [
    track('lofi-1', 'a1', 'lo-fi hip hop', ['calm', 'nostalgic'], 80),
    track('lofi-2', 'a1', 'lo-fi hip hop', ['calm'], 85),
    track('lofi-3', 'a2', 'lo-fi hip hop', ['nostalgic'], 76),
    track('synth-1', 'a3', 'synthwave', ['euphoric'], 118),
    track('jazz-1', 'a4', 'jazz', ['warm'], 96),
    track('ambient-1', 'a5', 'ambient', ['calm'], 64),
  ];
  const sequence = () => {
    let i = 0;
    return () => [0.1, 0.7, 0.4, 0.9, 0.2][i++ % 5];
  };

  it('follows the context: the genre matches whenever a matching track is available', () => {
    const random = sequence();
    for (let i = 0; i < 20; i++) {
      const picked = pickCatalogTrack(catalog, context, { trackIds: [], artistIds: [] }, random)!;
      expect(picked.genre).toBe('lo-fi hip hop');
    }
  });

  it('never repeats a recently played track and avoids the artist just played', () => {
    const recent = { trackIds: ['lofi-1', 'lofi-2'], artistIds: ['a1', 'a1'] };
    for (let i = 0; i < 10; i++) {
      const picked = pickCatalogTrack(catalog, context, recent, sequence())!;
      expect(['lofi-1', 'lofi-2']).not.toContain(picked.id);
    }
    expect(pickCatalogTrack(catalog, context, recent, () => 0)!.id).toBe('lofi-3');
  });

  it('still plays something when every track was heard recently', () => {
    const recent = { trackIds: catalog.map((c) => c.id), artistIds: [] };
    expect(pickCatalogTrack(catalog, context, recent)).not.toBeNull();
    expect(pickCatalogTrack([], context, recent)).toBeNull();
  });
});

describe('catalog picker while few masters are playable (issue 8, item 9)', () => {
  const context: MusicContext = {
    genre: 'synthwave',
    subgenre: '',
    mood: ['euphoric'],
    lifestyle: 'party',
    tempo_range: [110, 120],
    key_preference: 'any',
    energy_level: 0.7,
  };
  const a: CatalogCandidate = { id: 'a', artistId: 'x', genre: 'synthwave', subgenre: '', mood: ['euphoric'], bpm: 115, durationSec: 120 };
  const b: CatalogCandidate = { id: 'b', artistId: 'y', genre: 'jazz', subgenre: '', mood: ['warm'], bpm: 90, durationSec: 120 };

  it('never chooses an excluded neighbour while another track exists, however well it matches', () => {
    for (const r of [0, 0.3, 0.6, 0.99]) {
      expect(pickCatalogTrack([a, b], context, { trackIds: [], artistIds: [] }, () => r, { exclude: ['a'] })!.id).toBe('b');
    }
  });

  it('when planning, answers nothing rather than queue a track again', () => {
    expect(pickCatalogTrack([a], context, { trackIds: ['a'], artistIds: ['x'] }, () => 0, { exclude: ['a'], strict: true })).toBeNull();
    expect(pickCatalogTrack([a, b], context, { trackIds: [], artistIds: [] }, () => 0, { exclude: ['a', 'b'], strict: true })).toBeNull();
  });

  it('at play time a one-track catalog repeats rather than falls silent', () => {
    expect(pickCatalogTrack([a], context, { trackIds: ['a'], artistIds: ['x'] }, () => 0, { exclude: ['a'] })!.id).toBe('a');
  });

  it('alternates two tracks instead of repeating the better match', () => {
    const played: string[] = [];
    for (let i = 0; i < 10; i++) {
      const last = played[played.length - 1];
      const next = pickCatalogTrack([a, b], context, { trackIds: [...played].reverse(), artistIds: [] }, () => 0, { exclude: last ? [last] : [] })!;
      played.push(next.id);
    }
    expect(played).toEqual(['a', 'b', 'a', 'b', 'a', 'b', 'a', 'b', 'a', 'b']);
  });
});
