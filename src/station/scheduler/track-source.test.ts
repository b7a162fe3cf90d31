/**
 * Track starts heard while this instance did not lead (issue 20), on the real running order (radio_slots in
 * PGlite, or PostgreSQL in the services suite); the ports around it only record what they are given. Through a
 * Redis outage every instance plays the running order alone and none leads, so none records the starts; the one
 * that gets the lead records them. Found by test/faults/redis-outage-stream.test.ts: the slot the leader cued
 * just before the outage aired, the lead moved to an instance whose takeover continued the slot after it, and
 * the takeover returned the first one to the plan (it was still only cued), so it stayed unstarted while the
 * next ones started, and aired again later.
 */
import { randomUUID } from 'node:crypto';
import { asc } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/helpers/station.js';
import type { Database } from '../../infra/db/client.js';
import { radioSlots } from '../../infra/db/schema/index.js';
import type { StationConfigRow } from '../admin/config.repository.js';
import type { CardWithoutTiming } from './cards.js';
import { InProcessEventBus } from '../../infra/pubsub/in-process-bus.js';
import { OnAirTrack } from './on-air.js';
import { SlotsRepository } from './slots.repository.js';
import { RadioTrackSource, type TrackSourceDeps } from './track-source.js';

const T0 = Date.parse('2026-11-28T04:00:00Z');
/** 20 s tracks with a 3 s crossfade: a start every 17 s. */
const STEP_MS = 17_000;
const at = (step: number) => T0 + step * STEP_MS;

describe('starts heard while not leading', () => {
  let testDb: TestDatabase;
  let database: Database;
  let slots: SlotsRepository;
  let leading: boolean;
  let source: RadioTrackSource;
  let deps: Partial<TrackSourceDeps>;
  /** Titles of the now-playing cards published, and of the plays counted. */
  let published: string[];
  let counted: string[];

  beforeAll(async () => {
    testDb = await createTestDatabase();
    database = await testDb.open();
  });
  afterAll(async () => {
    await database.close();
    await testDb.drop();
  });

  /** Slots 1..n of the catalog, each `status` given (started at `at(i - 1)` when `started`). */
  const plan = async (rows: { status: 'planned' | 'playing' | 'played'; started?: boolean }[]) => {
    await database.db.delete(radioSlots);
    for (const [i, row] of rows.entries())
      await database.db.insert(radioSlots).values({
        origin: 'catalog',
        trackId: randomUUID(),
        sessionId: 'ses_test',
        durationSec: 20,
        status: row.status,
        startedAt: row.started ? new Date(at(i)) : null,
        endedAt: row.status === 'played' ? new Date(at(i + 1)) : null,
      });
    return (await database.db.select({ id: radioSlots.id }).from(radioSlots).orderBy(asc(radioSlots.id))).map((row) => String(row.id));
  };
  const order = async () =>
    (await database.db.select().from(radioSlots).orderBy(asc(radioSlots.id))).map((row) => ({
      status: row.status,
      started: row.startedAt ? (row.startedAt.getTime() - T0) / STEP_MS : null,
      ended: row.endedAt ? (row.endedAt.getTime() - T0) / STEP_MS : null,
    }));

  beforeEach(() => {
    slots = new SlotsRepository(database.db);
    leading = false;
    published = [];
    counted = [];
    const config = { radioEnabled: true, streamQuality: '128', crossfadeSec: 3 } as unknown as StationConfigRow;
    deps = {
      slots,
      config: { get: async () => config },
      resolver: {
        resolve: async () => null,
        standIn: async () => null,
        readyTrack: async () => null,
        source: (slot, _key, title) => ({ id: String(slot.id), title, bitrateKbps: 128, read: async () => Buffer.alloc(0) }),
      },
      planner: { cycle: async () => undefined, fallbackActive: () => false, betweenCycles: (work) => work() },
      onAir: new OnAirTrack({ now: () => Date.now() }),
      // A catalog row and a card have many more fields than the playout key, the title and the length read here.
      catalog: {
        findTrack: async (id) =>
          ({ id, title: id, playoutAudioKey: `catalog/${id}.mp3` }) as unknown as Awaited<ReturnType<TrackSourceDeps['catalog']['findTrack']>>,
        recordPlay: async () => undefined,
      },
      cards: { forSlot: async (slot) => ({ title: `slot ${slot.id}`, duration_sec: 20 }) as unknown as CardWithoutTiming },
      events: { emit: async () => undefined },
      bus: {
        publish: async (_channel, card) => {
          published.push((card as { title: string }).title);
        },
      },
      clock: { now: () => Date.now() },
      leader: { isLeader: () => leading },
      listeners: async () => 1,
      recordPlay: async (play) => {
        counted.push(play.trackId ?? '');
      },
    };
    source = new RadioTrackSource(deps as TrackSourceDeps);
  });

  it('records every start heard while playing alone, in order, before its takeover returns cued slots to the plan', async () => {
    // On air: slot 1; cued by the leader just before Redis went down: slot 2.
    const [, second, third] = await plan([{ status: 'playing', started: true }, { status: 'playing' }, { status: 'planned' }, { status: 'planned' }]);
    // Playing alone, this instance hears slot 2 start, then slot 3 (the plan read, not changed).
    await source.trackStarted(second, at(1));
    await source.trackStarted(third, at(2));
    expect(published).toEqual([]);
    // It gets the lead and continues its own timeline: slot 3, on air, whose start its playout announces again.
    leading = true;
    expect((await source.resume(third, [third]))?.id).toBe(third);
    await source.trackStarted(third, at(2));
    expect(await order()).toEqual([
      { status: 'played', started: 0, ended: 1 },
      { status: 'played', started: 1, ended: 2 },
      { status: 'playing', started: 2, ended: null },
      { status: 'planned', started: null, ended: null },
    ]);
    // Each play counted once; the card of the track on air is the last one published.
    expect(counted).toHaveLength(2);
    expect(published.at(-1)).toBe(`slot ${third}`);
  });

  it('leaves the slot on air alone when a start it heard was recorded by another leader meanwhile', async () => {
    // Another instance led and recorded slot 2's start; slot 3 is on air, slot 4 cued.
    const [, second, , fourth] = await plan([
      { status: 'played', started: true },
      { status: 'played', started: true },
      { status: 'playing', started: true },
      { status: 'playing' },
    ]);
    await source.trackStarted(second, at(1));
    leading = true;
    await source.trackStarted(fourth, at(3));
    expect(await order()).toEqual([
      { status: 'played', started: 0, ended: 1 },
      { status: 'played', started: 1, ended: 2 },
      { status: 'played', started: 2, ended: 3 },
      { status: 'playing', started: 3, ended: null },
    ]);
    expect(counted).toHaveLength(1);
  });

  it('records a start heard late as played until the next start, and puts no stale card on air', async () => {
    // Slot 2 aired while no instance led and stayed cued; slot 3 has been on air since (another leader's).
    const [, second] = await plan([{ status: 'played', started: true }, { status: 'playing' }, { status: 'playing', started: true }]);
    await source.trackStarted(second, at(1));
    leading = true;
    await source.next();
    const rows = await order();
    expect(rows[1]).toEqual({ status: 'played', started: 1, ended: 2 });
    expect(rows[2].status).toBe('playing');
    expect(counted).toHaveLength(1);
    expect(published).toEqual([]);
  });

  it('emits the now-playing event even when the bus cannot publish the card, and reports each failure', async () => {
    // Redis down: the bus refuses the card. The webhook event (recorded in the database first) still goes out.
    const bus = new InProcessEventBus();
    await bus.close();
    const emitted: string[] = [];
    const warnings: string[] = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => warnings.push((JSON.parse(line) as { msg: string }).msg) });
    const failing = new RadioTrackSource({
      ...deps,
      bus,
      events: {
        emit: async (type, payload) => {
          emitted.push(`${type} ${(payload as { title: string }).title}`);
        },
      },
      log,
    } as TrackSourceDeps);
    const [, second] = await plan([{ status: 'played', started: true }, { status: 'playing' }]);
    leading = true;
    await failing.trackStarted(second, Date.now());
    expect(emitted).toEqual([`station.track.now_playing slot ${second}`]);
    expect(warnings).toEqual(['publishing the now-playing card failed']);
    expect((await order())[1].status).toBe('playing');

    // The event's own failure is reported on its own, and the card is still published.
    const both = new RadioTrackSource({
      ...deps,
      events: {
        emit: async () => {
          throw new Error('database out');
        },
      },
      log,
    } as TrackSourceDeps);
    const [, , third] = await plan([{ status: 'played', started: true }, { status: 'played', started: true }, { status: 'playing' }]);
    await both.trackStarted(third, Date.now());
    expect(published).toEqual([`slot ${third}`]);
    expect(warnings).toEqual(['publishing the now-playing card failed', 'emitting the now-playing event failed']);
  });
});
