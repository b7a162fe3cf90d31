/**
 * The demo seed of a fresh station (STATION_DEMO=true): catalog rows at once, then in the background a
 * few masters, the lyrics model (it needs no audio), the other masters one by one (each playable as soon
 * as it is stored), and the audio and style models. Every step is resumable after a restart.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Engine } from '../engine/engine.js';
import type { BlobStore } from '../infra/blobs/blob-store.js';
import type { Db } from '../infra/db/client.js';
import type { ConfigRepository } from '../station/admin/config.repository.js';
import type { ContextService } from '../station/context/context.service.js';
import type { ModelStore } from '../station/models/model-store.js';
import type { ModelsRepository } from '../station/models/models.repository.js';
import type { SafetyReferenceStore } from '../station/safety/safety-reference.js';
import { seedDemoPresets } from '../station/context/presets-seed.js';
import { renderDemoMasters } from './seed-audio.js';
import { seedDemoCatalog } from './seed-catalog.js';
import { trainDemoModels } from './seed-models.js';

/** Masters rendered before anything else, so the radio can start playing at once. */
const EARLY_MASTERS = 3;

export interface DemoSeederDeps {
  db: Db;
  blobs: BlobStore;
  engine: Engine;
  models: ModelStore;
  modelsRepo: ModelsRepository;
  stationConfig: ConfigRepository;
  contexts: ContextService;
  safetyReference: SafetyReferenceStore;
  log: FastifyBaseLogger;
}

export class DemoSeeder {
  private stopped = false;
  /** Resolves when the background part is done (or stopped); tests await it. */
  done: Promise<void> = Promise.resolve();

  constructor(
    private readonly deps: DemoSeederDeps,
    private readonly trackSec: number,
  ) {}

  /** Inserts the catalog if the database is fresh, then starts the background steps. */
  async start(): Promise<void> {
    const fresh = await seedDemoCatalog(this.deps.db);
    if (fresh) {
      // A fresh demo station plays at once: radio on, hybrid mode.
      await this.deps.stationConfig.update({ radioEnabled: true, generationMode: 'hybrid', catalogRatio: 0.7, aiGenerationRatio: 0.3 });
      await this.deps.contexts.current();
      await seedDemoPresets(this.deps.contexts);
      this.deps.log.info('demo catalog seeded');
    }
    this.done = this.background().catch((error) => this.deps.log.error({ err: error }, 'demo seeding failed'));
  }

  stop(): Promise<void> {
    this.stopped = true;
    return this.done;
  }

  private async background(): Promise<void> {
    const log = (message: string, detail: Record<string, unknown> = {}) => this.deps.log.info(detail, message);
    const onRendered = () => this.deps.safetyReference.invalidate();
    // A few masters first, so the radio has something to play within seconds; then the lyrics model
    // (it needs no audio); then the rest of the masters and the models learned from their features.
    let early = 0;
    await renderDemoMasters(this.deps, this.trackSec, () => this.stopped || early >= EARLY_MASTERS, () => {
      early += 1;
      onRendered();
    });
    if (this.stopped) return;
    await trainDemoModels(this.deps, ['lyrics'], log, () => this.stopped);
    if (this.stopped) return;
    const rendered = early + (await renderDemoMasters(this.deps, this.trackSec, () => this.stopped, onRendered));
    if (rendered > 0) log('demo masters rendered', { rendered });
    if (this.stopped) return;
    await trainDemoModels(this.deps, ['audio', 'style_embedding'], log, () => this.stopped);
    this.deps.safetyReference.invalidate();
  }
}
