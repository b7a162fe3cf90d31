/**
 * A station with a small rendered catalog and trained, deployed models (every type unless `models` names
 * fewer): the demo seed's own steps, cut short (a few masters, few epochs) so a suite gets there in seconds.
 * The lyrics model is the slow one (its corpus is every songwriter's lyrics): a suite that never asks for
 * lyrics leaves it out. `fakeTraining`: the models are trained by the FakeEngine (instant, placeholder
 * artifacts) while the station keeps its own engine, for suites that need deployed versions but never run them.
 * `fakeRendering`: the same for the masters (tones from the FakeEngine), for suites whose station runs its own
 * engine on the models but never asserts anything about the catalog's music.
 */
import type { TrainableModel } from '../../src/engine/engine.js';
import { seedDemoCatalog } from '../../src/demo/seed-catalog.js';
import { renderDemoMasters } from '../../src/demo/seed-audio.js';
import { trainDemoModels } from '../../src/demo/seed-models.js';
import { buildTestStation, type TestStation } from './station.js';
import { FakeEngine } from './fake-engine.js';

export const SERVICE_KEY = 'svc_test_generation_key_0123456789';

export async function buildTrainedStation(
  env: Record<string, string> = {},
  options: { masters?: number; trackSec?: number; models?: TrainableModel[]; fakeTraining?: boolean; fakeRendering?: boolean } & NonNullable<
    Parameters<typeof buildTestStation>[1]
  > = {},
): Promise<TestStation> {
  const { masters, trackSec, models, fakeTraining, fakeRendering, ...stationOptions } = options;
  const station = await buildTestStation({ STATION_SERVICE_API_KEY: SERVICE_KEY, ...env }, stationOptions);
  const db = station.database.db;
  await seedDemoCatalog(db);
  let rendered = 0;
  await renderDemoMasters(
    { db, blobs: station.blobs, engine: fakeRendering ? new FakeEngine() : station.engine },
    trackSec ?? 4,
    () => rendered >= (masters ?? 6),
    () => {
      rendered += 1;
    },
  );
  station.station.safetyReference.invalidate();
  await trainDemoModels(
    {
      db,
      blobs: station.blobs,
      engine: fakeTraining ? new FakeEngine() : station.engine,
      models: station.station.models,
      modelsRepo: station.station.modelsRepo,
    },
    models ?? ['lyrics', 'audio', 'style_embedding'],
    () => undefined,
    () => false,
    {
      lyrics: { epochs: 1, learningRate: 0.01, batchSize: 64, warmupSteps: 5 },
      audio: { epochs: 5, learningRate: 0.05, batchSize: 4, warmupSteps: 1 },
      style_embedding: { epochs: 5, learningRate: 0.01, batchSize: 4, warmupSteps: 1 },
    },
  );
  return station;
}
