/**
 * The demo seed of a fresh station (STATION_DEMO=true). Catalog rows at once; then, in the background, the
 * order that puts an AI track on air soonest:
 *
 *   1. a third of the masters, short (EARLY_SEC): the radio plays the first within seconds, and together they
 *      are enough to learn from (a model learned from only two or three masters copies them, and the safety
 *      filter blocks what it makes as duplicates)
 *   2. the audio model, trained on those (a second or two), and deployed: AI slots can be filled now; the
 *      seed then waits while the radio renders its first AI track (a training would hold the engine's worker)
 *   3. the lyrics model (it needs no audio)
 *   4. the other masters, short too, retraining (and deploying) the audio model as their number grows
 *   5. the style model (influences shown on AI tracks)
 *   6. every short master rendered again at full length (STATION_DEMO_TRACK_SEC), and the audio and style
 *      models retrained on the full masters
 *
 * While the radio's own generations render, the seed waits before its next master: on a small machine the
 * AI track due on air comes first.
 *
 * Every step is resumable after a restart (each looks at what the database already holds). If several
 * instances start on one database, one seeds: it holds a lease in demo_seed, renewed while it works; another
 * takes over if it stops renewing. The row also says which model types are still to come and when, so a
 * generation request made meanwhile waits for them instead of failing (src/station/models/model-availability.ts).
 */
import { randomUUID } from 'node:crypto';
import { and, count, eq, isNotNull } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Engine, TrainableModel } from '../engine/engine.js';
import type { BlobStore } from '../infra/blobs/blob-store.js';
import { systemClock, type Clock } from '../infra/clock/clock.js';
import type { Db } from '../infra/db/client.js';
import { generations, trackFeatures, tracks } from '../infra/db/schema/index.js';
import type { ConfigRepository } from '../station/admin/config.repository.js';
import type { ContextService } from '../station/context/context.service.js';
import type { ModelStore } from '../station/models/model-store.js';
import type { ModelsRepository } from '../station/models/models.repository.js';
import type { SafetyReferenceStore } from '../station/safety/safety-reference.js';
import { seedDemoPresets } from '../station/context/presets-seed.js';
import { lengthenDemoMasters, renderDemoMasters } from './seed-audio.js';
import { seedDemoCatalog, seedDemoReleases } from './seed-catalog.js';
import { mirrorSandboxMedia, seedSandboxCatalog } from './seed-sandbox.js';
import { seedDemoStore } from './seed-store.js';
import { trainDemoModels } from './seed-models.js';
import { DemoSeedState, SEED_LEASE_MS } from './seed-state.js';

/** Masters rendered before anything else: the radio plays at once, and the first audio model learns from them. */
const EARLY_MASTERS = 10;
/** Length of the first rendering of every master (seconds); each is rendered again at full length at the end. */
const EARLY_SEC = 30;
/** The audio model is trained again each time the masters ready reach this multiple of what it learned from. */
const RETRAIN_GROWTH = 3;
const RENEW_MS = SEED_LEASE_MS / 3;
/** The longest the seed waits for the radio's generations before its next master. */
const GIVE_WAY_MAX_MS = 180_000;
/** Before anything was measured: seconds to train a model of each type (a first, honest guess for the ETA). */
const GUESS_TRAIN_SEC: Record<TrainableModel, number> = { lyrics: 20, audio: 15, style_embedding: 15 };

export interface DemoSeederDeps {
  db: Db;
  blobs: BlobStore;
  engine: Engine;
  models: ModelStore;
  modelsRepo: ModelsRepository;
  stationConfig: ConfigRepository;
  contexts: ContextService;
  safetyReference: SafetyReferenceStore;
  /** Whether the radio is still waiting for its first AI track (src/station/scheduler/slots.repository.ts). */
  radioAwaitsFirstAiTrack: () => Promise<boolean>;
  log: FastifyBaseLogger;
  clock?: Clock;
}

export class DemoSeeder {
  private stopped = false;
  private lost = false;
  private renewTimer: NodeJS.Timeout | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private readonly state: DemoSeedState;
  private readonly clock: Clock;
  /** Measured seconds per early master, for the ETAs the seed publishes. */
  private renderSec: number | null = null;
  /** Resolves when the background part is done (or stopped, or left to another instance); tests await it. */
  done: Promise<void> = Promise.resolve();

  constructor(
    private readonly deps: DemoSeederDeps,
    private readonly trackSec: number,
  ) {
    this.clock = deps.clock ?? systemClock;
    this.state = new DemoSeedState(deps.db, this.clock, `seeder-${randomUUID()}`);
  }

  /** Inserts the catalog if the database is fresh, then starts the background steps. */
  async start(): Promise<void> {
    const fresh = await seedDemoCatalog(this.deps.db, { plannedSec: this.trackSec });
    if (fresh) {
      // A fresh demo station plays at once: radio on, hybrid mode, AI tracks as long as the demo's masters.
      await this.deps.stationConfig.update({
        radioEnabled: true,
        generationMode: 'hybrid',
        catalogRatio: 0.7,
        aiGenerationRatio: 0.3,
        maxTrackLengthSec: Math.min(900, Math.max(10, this.trackSec)),
      });
      await this.deps.contexts.current();
      await seedDemoPresets(this.deps.contexts);
      this.deps.log.info('demo catalog seeded');
    } else if (await seedDemoReleases(this.deps.db)) {
      this.deps.log.info('demo releases seeded');
    }
    // The releases on sale (a station seeded before the demo store gets its products at the next start).
    const products = await seedDemoStore(this.deps.db);
    if (products > 0) this.deps.log.info({ products }, 'demo store seeded');
    // The sandbox's copy of the catalog (test keys), on a fresh station and on one seeded before the sandbox existed.
    const copied = await seedSandboxCatalog(this.deps.db);
    await mirrorSandboxMedia(this.deps.db);
    if (copied > 0) this.deps.log.info({ tracks: copied }, 'sandbox catalog seeded');
    this.done = this.run().catch((error) => this.deps.log.error({ err: error }, 'demo seeding failed'));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    await this.done;
    if (this.renewTimer) clearInterval(this.renewTimer);
  }

  private get halted(): boolean {
    return this.stopped || this.lost;
  }

  /** Seeds when this instance gets the lease; otherwise looks again while another instance holds it. */
  private async run(): Promise<void> {
    while (!this.stopped) {
      if (await this.state.completed()) return;
      if (await this.state.acquire()) break;
      await new Promise<void>((resolve) => (this.retryTimer = setTimeout(resolve, RENEW_MS)));
    }
    if (this.stopped) return;
    this.renewTimer = setInterval(() => {
      void this.state.renew().then(
        (held) => {
          if (!held) this.lost = true;
        },
        () => undefined,
      );
    }, RENEW_MS);
    this.renewTimer.unref();
    try {
      await this.background();
      if (!this.halted) await this.state.complete();
    } finally {
      clearInterval(this.renewTimer);
      this.renewTimer = null;
    }
  }

  private async background(): Promise<void> {
    const log = (message: string, detail: Record<string, unknown> = {}) => this.deps.log.info(detail, message);
    const onRendered = () => this.deps.safetyReference.invalidate();
    const shouldStop = () => this.halted;
    const early = Math.min(EARLY_SEC, this.trackSec);

    // 1. A few short masters.
    const readyAtStart = await this.mastersReady();
    this.earlyCount = readyAtStart;
    await this.publish('early masters', EARLY_MASTERS - readyAtStart);
    const started = this.clock.now();
    const first = await renderDemoMasters(
      this.deps,
      early,
      () => shouldStop() || this.earlyDone,
      () => {
        this.earlyCount += 1;
        onRendered();
      },
    );
    if (first > 0) this.renderSec = (this.clock.now() - started) / 1000 / first;
    if (this.halted) return;

    // 2. Audio on what is ready, 3. lyrics.
    await this.publish('audio model', 0);
    await trainDemoModels(this.deps, ['audio'], log, shouldStop);
    if (this.halted) return;
    await this.giveWayToFirstAiTrack();
    await this.publish('lyrics model', 0);
    await trainDemoModels(this.deps, ['lyrics'], log, shouldStop);
    if (this.halted) return;

    // 4. The other masters (short), retraining the audio model as they grow.
    await this.publish('masters', 0);
    let rendered = 0;
    let learnedFrom = await this.mastersReady();
    const retrainWhenGrown = async () => {
      const ready = await this.mastersReady();
      if (ready < learnedFrom * RETRAIN_GROWTH) return;
      learnedFrom = ready;
      await trainDemoModels(this.deps, ['audio'], log, shouldStop, {}, { retrain: true });
    };
    let pendingRetrain: Promise<void> = Promise.resolve();
    const giveWay = () => this.giveWayToGenerations();
    rendered += await renderDemoMasters(
      this.deps,
      early,
      shouldStop,
      () => {
        onRendered();
        pendingRetrain = pendingRetrain.then(retrainWhenGrown);
      },
      giveWay,
    );
    await pendingRetrain;
    if (rendered > 0) log('demo masters rendered', { rendered });
    if (this.halted) return;
    await trainDemoModels(this.deps, ['audio'], log, shouldStop, {}, { retrain: true });
    if (this.halted) return;

    // 5. Style.
    await this.publish('style model', 0);
    await trainDemoModels(this.deps, ['style_embedding'], log, shouldStop);
    this.deps.safetyReference.invalidate();
    if (this.halted) return;

    // 6. Full-length masters, and the models again on them.
    const lengthened = await lengthenDemoMasters(this.deps, this.trackSec, shouldStop, onRendered, giveWay);
    if (this.halted) return;
    if (lengthened > 0) {
      log('demo masters rendered at full length', { rendered: lengthened });
      await trainDemoModels(this.deps, ['audio', 'style_embedding'], log, shouldStop, {}, { retrain: true });
      this.deps.safetyReference.invalidate();
    }
  }

  /** Waits (up to GIVE_WAY_MAX_MS) while a generation is rendering. */
  private async giveWayToGenerations(): Promise<void> {
    const until = this.clock.now() + GIVE_WAY_MAX_MS;
    while (!this.halted && this.clock.now() < until) {
      const [{ rendering }] = await this.deps.db.select({ rendering: count() }).from(generations).where(eq(generations.status, 'in_progress'));
      if (rendering === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }

  /**
   * Waits (up to GIVE_WAY_MAX_MS) while the radio waits for its first AI track. The engine's worker runs one
   * task at a time, so a training started now would hold every generation behind it; on a loaded machine the
   * lyrics model takes minutes, and the first AI track on air matters more to a new station than its lyrics.
   */
  private async giveWayToFirstAiTrack(): Promise<void> {
    const until = this.clock.now() + GIVE_WAY_MAX_MS;
    while (!this.halted && this.clock.now() < until) {
      const config = await this.deps.stationConfig.get();
      if (!config.radioEnabled || config.generationMode === 'catalog_only' || !(await this.deps.radioAwaitsFirstAiTrack())) return;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }

  private earlyCount = 0;
  private get earlyDone(): boolean {
    return this.earlyCount >= EARLY_MASTERS;
  }

  private async mastersReady(): Promise<number> {
    const [{ ready }] = await this.deps.db
      .select({ ready: count() })
      .from(tracks)
      .innerJoin(trackFeatures, eq(trackFeatures.trackId, tracks.id))
      .where(and(eq(tracks.environment, 'live'), isNotNull(tracks.audioBlobKey)));
    return ready;
  }

  /**
   * Publishes the step and, for each model type without a production version, when the seed expects to deploy
   * it: the masters still to render before it, at the measured (or guessed) rate, plus the trainings before it.
   */
  private async publish(step: string, mastersBefore: number): Promise<void> {
    // The types generation waits for, in the seed's order; the style model only adds the "influenced by" list.
    const order: TrainableModel[] = ['audio', 'lyrics'];
    const perMaster = this.renderSec ?? Math.max(2, Math.min(EARLY_SEC, this.trackSec) / 5);
    let seconds = Math.max(0, mastersBefore) * perMaster;
    const expected: Record<string, Date | null> = {};
    for (const type of order) {
      if (await this.deps.models.production(type)) continue;
      seconds += GUESS_TRAIN_SEC[type];
      expected[type] = new Date(this.clock.now() + seconds * 1000);
    }
    await this.state.progress(step, expected);
  }
}
