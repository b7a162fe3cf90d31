/**
 * What a follower plays on alone (issue 20), with in-memory ports: the running order read only, an AI slot not
 * resolved yet playing the finished track the leader would give it (its safety replacement's, when it was
 * blocked), a slot still rendering asked for again after the next track, and nothing changed in the plan.
 * Before, every AI slot the leader had not cued yet was skipped, so the follower's timeline left the leader's.
 */
import { describe, expect, it } from 'vitest';
import type { StationConfigRow } from '../admin/config.repository.js';
import type { GenerationRow } from '../generation/generation.repository.js';
import type { RegistryRow } from '../registry/registry.repository.js';
import { PlanReader, type PlanReaderDeps } from './plan-reader.js';
import { SlotResolver, type SlotResolverDeps } from './slot-resolver.js';
import type { SlotRow } from './slots.repository.js';
import { RadioTrackSource, type TrackSourceDeps } from './track-source.js';

const NOW = Date.parse('2026-11-28T02:00:00Z');

// The rows have many more columns than these ports read (status, origin, ids, keys, times).
const slot = (id: number, origin: 'catalog' | 'ai_generated', ref: string) =>
  ({
    id,
    origin,
    status: 'planned',
    trackId: origin === 'catalog' ? ref : null,
    generationId: origin === 'ai_generated' ? ref : null,
    stationTrackId: null,
    startedAt: null,
    durationSec: 60,
  }) as unknown as SlotRow;
const generation = (id: string, status: GenerationRow['status'], track: string | null = null, replaces: string | null = null) =>
  ({ id, status, stationTrackId: track, audioBlobKey: track && `ai/${track}.mp3`, createdAt: new Date(NOW - 60_000), replaces }) as unknown as GenerationRow & {
    replaces: string | null;
  };
const record = (stationTrackId: string) =>
  ({ stationTrackId, audioBlobKey: `ai/${stationTrackId}.mp3`, title: stationTrackId, durationSec: 60 }) as unknown as RegistryRow;

describe('a follower playing on alone', () => {
  it('plays an AI slot the leader has not resolved yet with its finished track, and keeps one still rendering first in line', async () => {
    const plan = [
      slot(1, 'catalog', 'c1'),
      slot(2, 'ai_generated', 'g2'), // finished
      slot(3, 'ai_generated', 'g3'), // still rendering
      slot(4, 'catalog', 'c4'),
      slot(5, 'ai_generated', 'g5'), // blocked by the safety check; its replacement finished
      slot(6, 'ai_generated', 'g6'), // finished, but withheld by review
      slot(7, 'catalog', 'c7'),
    ];
    const generations = new Map(
      [
        generation('g2', 'complete', 'r2'),
        generation('g3', 'in_progress'),
        generation('g5', 'failed'),
        generation('g5b', 'complete', 'r5b', 'g5'),
        generation('g6', 'complete', 'r6'),
      ].map((g) => [g.id, g]),
    );
    const resolverDeps: Partial<SlotResolverDeps> = {
      generationRepo: {
        find: async (id) => generations.get(id) ?? null,
        replacementOf: async (id) => [...generations.values()].find((g) => g.replaces === id) ?? null,
      },
      registry: { get: async (id) => record(id), withheldReason: async (id) => (id === 'r6' ? 'admin_flag' : null) },
      clock: { now: () => NOW, date: () => new Date(NOW) },
    };
    // readyTrack and stillRendering read only these ports; source() only builds a descriptor.
    const resolver = new SlotResolver(resolverDeps as SlotResolverDeps);
    const trackSourceDeps: Partial<TrackSourceDeps> = {
      resolver,
      registry: { get: async (id) => record(id), countPlayback: async () => record('unused') },
      catalog: {
        // A catalog row has many more columns than the playout key and title read here.
        findTrack: async (id) =>
          ({ id, title: id, playoutAudioKey: `catalog/${id}.mp3` }) as unknown as Awaited<ReturnType<TrackSourceDeps['catalog']['findTrack']>>,
        recordPlay: async () => undefined,
      },
    };
    const source = new RadioTrackSource(trackSourceDeps as TrackSourceDeps);
    // The reader and the track source read only these columns of the configuration row.
    const config = { radioEnabled: true, streamQuality: '128', crossfadeSec: 3 } as unknown as StationConfigRow;
    const readerDeps: PlanReaderDeps = {
      slots: { find: async (id) => plan.find((s) => s.id === id) ?? null, lastHandedOut: async () => null, planned: async () => plan },
      config: { get: async () => config },
      sourceOf: (row, cfg) => source.sourceOf(row, cfg),
      stillRendering: (row) => resolver.stillRendering(row),
    };
    const reader = new PlanReader(readerDeps);
    const played: string[] = [];
    const take = async (count: number) => {
      for (let i = 0; i < count; i++) {
        const track = await reader.next();
        played.push(track ? `${track.id}:${track.title}` : 'none');
      }
    };

    await take(3);
    // The finished AI track plays in its place; the one still rendering lets the next catalog slot in.
    expect(played).toEqual(['1:c1', '2:r2', '4:c4']);
    generations.set('g3', generation('g3', 'complete', 'r3'));
    await take(3);
    // Asked for again, now finished; the blocked slot plays its replacement; the withheld one is left to the leader.
    expect(played.slice(3)).toEqual(['3:r3', '5:r5b', '7:c7']);
    await take(1);
    expect(played.at(-1)).toBe('none');
    expect(plan.every((s) => s.status === 'planned' && s.stationTrackId === null)).toBe(true);

    // The follower gets the lead and continues its own timeline: the AI slot it played alone is cued with that track.
    const cued: [number, Partial<SlotRow>][] = [];
    const leading = new RadioTrackSource({
      ...trackSourceDeps,
      leader: { isLeader: () => true },
      config: { get: async () => config },
      slots: {
        returnCued: async () => undefined,
        find: async (id: number) => plan.find((s) => s.id === id) ?? null,
        cue: async (id: number, fields: Partial<SlotRow>) => {
          cued.push([id, fields]);
          return { ...plan.find((s) => s.id === id)!, ...fields, status: 'playing' as const };
        },
      },
    } as TrackSourceDeps);
    const resumed = await leading.resume('2', ['2']);
    expect(resumed?.title).toBe('r2');
    expect(cued).toEqual([[2, { stationTrackId: 'r2', generationId: 'g2', durationSec: 60 }]]);

    // A takeover inside a crossfade continues the outgoing slot too, closed already once the incoming one started.
    plan[0] = { ...plan[0], status: 'played' };
    expect((await leading.resume('1', ['1', '2']))?.title).toBe('c1');
    expect((await new PlanReader({ ...readerDeps }).resume('1', ['1', '2']))?.title).toBe('c1');
    expect(await leading.resume('1', ['1'])).toBeNull();
  });
});
