/**
 * Issue 8, item 9: while only one or two masters are playable, the radio's plan never holds the same track
 * twice (so never back to back), and once an audio model exists AI slots fill what the catalog cannot.
 * The scheduler is driven cycle by cycle (a cycle every hour on its own; the radio stays off until the test
 * has rendered what it needs).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoCatalog } from '../../src/demo/seed-catalog.js';
import { renderDemoMasters } from '../../src/demo/seed-audio.js';
import { trainDemoModels } from '../../src/demo/seed-models.js';
import type { SlotRow } from '../../src/station/scheduler/slots.repository.js';
import { SlotsRepository } from '../../src/station/scheduler/slots.repository.js';
import { buildTestStation, type TestStation } from '../helpers/station.js';

describe('radio plan with few playable masters', () => {
  let station: TestStation;
  let slots: SlotsRepository;
  let rendered = 0;

  const render = async (upTo: number) => {
    const db = station.database.db;
    await renderDemoMasters(
      { db, blobs: station.blobs, engine: station.engine },
      4,
      () => rendered >= upTo,
      () => (rendered += 1),
    );
  };
  /** What was just handed to the stream, then the plan: no catalog track twice, no two neighbours alike. */
  const running = async () => {
    const last = await slots.lastHandedOut();
    return [...(last ? [last] : []), ...(await slots.planned())];
  };
  const expectSpread = (order: SlotRow[]) => {
    const catalog = order.filter((s) => s.origin === 'catalog').map((s) => s.trackId);
    expect(new Set(catalog).size, JSON.stringify(catalog)).toBe(catalog.length);
    for (let i = 1; i < order.length; i++) if (order[i].trackId) expect(order[i].trackId).not.toBe(order[i - 1].trackId);
  };

  beforeAll(async () => {
    // The plan is under test, not the audio: the fake engine renders the masters and trains the model.
    station = await buildTestStation({ STATION_SCHEDULER_CYCLE_SEC: '3600' }, { fakeEngine: true });
    slots = new SlotsRepository(station.database.db);
    await seedDemoCatalog(station.database.db);
    await render(1);
    await station.station.stationConfig.update({ radioEnabled: true, generationMode: 'hybrid', catalogRatio: 0.7, aiGenerationRatio: 0.3 });
  }, 120_000);
  afterAll(() => station.destroy());

  it('with one master and no audio model, plans it once and waits for more rather than queue it again', async () => {
    for (let i = 0; i < 3; i++) await station.station.radio.scheduler.planner.cycle();
    const order = await running();
    expect(order.filter((s) => s.origin === 'catalog')).toHaveLength(1);
    expectSpread(order);
  });

  it('with two masters, still never queues a track twice', async () => {
    await render(2);
    for (let i = 0; i < 3; i++) await station.station.radio.scheduler.planner.cycle();
    const order = await running();
    expect(order.length).toBeLessThanOrEqual(2);
    expectSpread(order);
  });

  it('once an audio model exists, AI slots fill the rest of the queue at once', async () => {
    await trainDemoModels(
      { db: station.database.db, blobs: station.blobs, engine: station.engine, models: station.station.models, modelsRepo: station.station.modelsRepo },
      ['audio'],
      () => undefined,
      () => false,
      { audio: { epochs: 2, learningRate: 0.05, batchSize: 4, warmupSteps: 1 } },
    );
    await station.station.radio.scheduler.planner.cycle();
    const planned = await slots.planned();
    expect(planned).toHaveLength(5);
    expect(planned.filter((s) => s.origin === 'ai_generated').length).toBeGreaterThanOrEqual(3);
    expectSpread(await running());
  }, 120_000);
});
