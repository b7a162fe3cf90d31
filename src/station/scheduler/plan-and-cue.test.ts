/**
 * The stream's pick of what plays next and the planner's cycle both read and change the running order: they
 * must not interleave. Found by test/station/scheduler-few-masters.test.ts on a loaded CI machine (the plan
 * held the track just handed out, back to back): with nothing planned, the stream played a stand-in while a
 * cycle that had already read the plan (empty) and the slot handed out before it chose the same track for the
 * next slot. Real planner, resolver and track source on the real running order (PGlite, or PostgreSQL in the
 * services suite); the catalog is two tracks behind a port, and the interleaving is forced with one gate.
 */
import { asc } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSuiteDatabase, type SuiteDatabase } from '../../../test/helpers/station.js';
import type { Database } from '../../infra/db/client.js';
import { radioSlots } from '../../infra/db/schema/index.js';
import type { StationConfigRow } from '../admin/config.repository.js';
import type { CardWithoutTiming } from './cards.js';
import type { CatalogChoice } from './catalog-choice.js';
import type { CatalogCandidate } from './catalog-picker.js';
import { OnAirTrack } from './on-air.js';
import { RadioPlanner, type PlannerDeps } from './planning-cycle.js';
import { SlotResolver, type SlotResolverDeps } from './slot-resolver.js';
import { SlotsRepository } from './slots.repository.js';
import { RadioTrackSource, type TrackSourceDeps } from './track-source.js';

const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';

/** A promise and the function that settles it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open = () => undefined as void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('the stream takes its next track between planning cycles', () => {
  let suite: SuiteDatabase;
  let database: Database;

  beforeAll(async () => {
    suite = await openSuiteDatabase();
    database = suite.database;
  });
  afterAll(() => suite.close());

  it('never plans the track a stand-in just took, even when a cycle starts while the stand-in is chosen', async () => {
    const slots = new SlotsRepository(database.db);
    // Track A is on air; B's master is not ready yet, so the plan is empty (strict planning never queues A again).
    await slots.insert({ origin: 'catalog', trackId: A, sessionId: 'ses_test', durationSec: 20, status: 'playing', startedAt: new Date() });
    const playable = new Set([A]);
    const config = {
      radioEnabled: true,
      generationMode: 'catalog_only',
      fallbackMode: 'catalog_only',
      streamQuality: '128',
      crossfadeSec: 3,
      maxTrackLengthSec: 180,
      generationLeadTime: 60,
    } as unknown as StationConfigRow;
    const log = pino({ level: 'silent' });

    // The picker's contract (catalog-picker.ts): never an excluded track; unless strict, the only one there is.
    const planning = gate();
    let planningPicks = 0;
    const catalogChoice: Pick<CatalogChoice, 'pick' | 'suggest'> = {
      pick: async (_config, avoid = [], options = {}) => {
        const candidates = [...playable].map((id) => ({ id, durationSec: 20 }) as CatalogCandidate);
        // The planner's picks (strict) wait at the gate, once the cycle under test has read the plan.
        if (options.strict && ++planningPicks === 2) await planning.opened;
        return candidates.find((c) => !avoid.includes(c.id)) ?? (options.strict ? null : (candidates[0] ?? null));
      },
      suggest: async () => null,
    };
    const catalog = {
      findTrack: async (id: string) =>
        (playable.has(id) ? { id, title: id, durationSec: 20, playoutAudioKey: `catalog/${id}.flac` } : null) as Awaited<
          ReturnType<SlotResolverDeps['catalog']['findTrack']>
        >,
    };
    const analyses = { forBlob: async () => ({ durationSec: 20 }) } as unknown as SlotResolverDeps['analyses'];
    const blobs = {} as SlotResolverDeps['blobs'];
    const clock = { now: () => Date.now(), date: () => new Date() } as PlannerDeps['clock'];
    const planner = new RadioPlanner({
      slots,
      config: { get: async () => config },
      models: { production: async () => null },
      generations: { create: async () => Promise.reject(new Error('no AI slots here')), lyricsDeployed: async () => false },
      engine: { health: async () => ({ status: 'ok' }) } as PlannerDeps['engine'],
      catalogChoice,
      catalogReads: { playable: async (id) => playable.has(id) },
      onAir: { remainingSec: () => 0 },
      warm: { slots, catalog, generationRepo: { find: async () => null }, blobs, analyses },
      bus: { subscribe: async () => async () => undefined },
      clock,
      leader: { isLeader: () => true },
      log,
      cycleSec: 3600,
    });
    const resolver = new SlotResolver({
      slots,
      catalogChoice,
      catalog,
      generationRepo: { find: async () => null, replacementOf: async () => null },
      generations: { cancel: async () => undefined } as unknown as SlotResolverDeps['generations'],
      registry: {} as SlotResolverDeps['registry'],
      reusable: { reusableAiTrack: async () => null } as unknown as SlotResolverDeps['reusable'],
      events: { emit: async () => undefined } as unknown as SlotResolverDeps['events'],
      clock,
      blobs,
      analyses,
    });
    // The stream's source sees the same running order; when it reads the plan after its own cycle, B's master
    // becomes playable and another cycle starts (a timer's, or one a control message asked for).
    let cycleBeside: Promise<void> | null = null;
    const source = new RadioTrackSource({
      slots: Object.assign(Object.create(slots) as SlotsRepository, {
        planned: async () => {
          if (!cycleBeside) {
            playable.add(B);
            cycleBeside = planner.cycle();
          }
          return slots.planned();
        },
      }),
      config: { get: async () => config },
      resolver,
      planner,
      onAir: new OnAirTrack(clock),
      registry: { get: async () => Promise.reject(new Error('no AI tracks')), countPlayback: async () => Promise.reject(new Error('no AI tracks')) },
      catalog: { ...catalog, recordPlay: async () => undefined },
      cards: { forSlot: async () => null as unknown as CardWithoutTiming },
      events: { emit: async () => undefined },
      bus: { publish: async () => undefined },
      clock,
      leader: { isLeader: () => true },
      listeners: async () => 0,
    } as TrackSourceDeps);

    const taken = await source.next();
    planning.open();
    await cycleBeside;
    await planner.cycle();

    const order = await database.db.select().from(radioSlots).orderBy(asc(radioSlots.id));
    // The stand-in took B (A is on air); the cycle beside it planned A next, not B again.
    expect(taken?.title).toBe(B);
    expect(order.map((slot) => [slot.trackId, slot.status])).toEqual([
      [A, 'playing'],
      [B, 'playing'],
      [A, 'planned'],
    ]);
  });
});
