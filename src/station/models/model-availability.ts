/**
 * Whether a model of a type can serve work now, will be able to soon, or not without someone acting.
 * Read from the database on every call, so every instance answers alike:
 *
 *   production   a version of the type is deployed
 *   coming       none is deployed, but a training job of the type is queued, running or paused, or the demo
 *                seed (whose lease is alive) will still train and deploy one; with the expected wait when known
 *   none         nothing is deployed and nothing is being made; `awaitingDeploy` names a trained version
 *                that only needs deploying, if there is one
 */
import type { Clock } from '../../infra/clock/clock.js';
import type { ModelsRepository, ModelType, ModelVersionRow } from './models.repository.js';

/** Port (module C serves it: `jobsInFlight`): the queued, running or paused training job of a type, if any. */
export interface TrainingJobsInFlight {
  activeOfType(type: ModelType): Promise<{
    status: 'queued' | 'running' | 'paused' | 'completed' | 'failed' | 'cancelled';
    etaSeconds: number | null;
    epochSeconds: number | null;
    totalEpochs: number;
    currentEpoch: number;
  } | null>;
}

/** Port onto the demo seed's state: the types it still expects to deploy (ISO time or null: unknown), while it counts as coming. */
export interface DemoSeedOutlook {
  /** null when the seed is finished, or no instance has held its lease since `leaseAliveAfter`. */
  expected(leaseAliveAfter: Date): Promise<Record<string, string | null> | null>;
}

export type Availability =
  | { state: 'production'; model: ModelVersionRow }
  | { state: 'coming'; source: 'training' | 'demo_seed'; etaSeconds: number | null }
  | { state: 'none'; awaitingDeploy: ModelVersionRow | null };

/** How long after its lease lapsed the demo seed still counts as coming (its instance may be restarting). */
export const DEMO_SEED_GRACE_MS = 30_000;

const TYPE_LABEL: Record<ModelType, string> = { audio: 'audio', lyrics: 'lyrics', style_embedding: 'style embedding' };

/** What a caller should do when no model of the type exists and none is coming (the 409's message). */
export function noModelMessage(type: ModelType, availability: Extract<Availability, { state: 'none' }>): string {
  const label = TYPE_LABEL[type];
  if (availability.awaitingDeploy) {
    const m = availability.awaitingDeploy;
    return `No production ${label} model is deployed. Version ${m.version} is trained and ready: deploy it with POST /station/v1/training/models/${m.id}/deploy, then try again`;
  }
  return `No production ${label} model exists and none is being trained. Train one (POST /station/v1/training/jobs with model_type "${type}") and deploy it (POST /station/v1/training/models/{model_id}/deploy), then try again`;
}

export class ModelAvailability {
  constructor(
    private readonly repo: ModelsRepository,
    private readonly training: TrainingJobsInFlight,
    private readonly demoSeed: DemoSeedOutlook,
    private readonly clock: Clock,
  ) {}

  async of(type: ModelType): Promise<Availability> {
    const model = await this.repo.production(type);
    if (model) return { state: 'production', model };
    const coming = (await this.fromTraining(type)) ?? (await this.fromDemoSeed(type));
    if (coming) return coming;
    return { state: 'none', awaitingDeploy: await this.repo.latestReady(type) };
  }

  /** A queued, running or paused training job of the type; its measured ETA when it is running. */
  private async fromTraining(type: ModelType): Promise<Availability | null> {
    const job = await this.training.activeOfType(type);
    if (!job) return null;
    let etaSeconds: number | null = null;
    if (job.status !== 'paused') {
      if (job.etaSeconds !== null) etaSeconds = job.etaSeconds;
      else if (job.epochSeconds !== null) etaSeconds = Math.round(job.epochSeconds * Math.max(0, job.totalEpochs - job.currentEpoch));
    }
    return { state: 'coming', source: 'training', etaSeconds };
  }

  /**
   * The demo seed, while it still expects to deploy the type and an instance holds its lease (or held it
   * within one more lease period: a restarting instance takes it up again; only a seed nobody resumes stops
   * counting as coming).
   */
  private async fromDemoSeed(type: ModelType): Promise<Availability | null> {
    const now = this.clock.date();
    const graceStart = new Date(now.getTime() - DEMO_SEED_GRACE_MS);
    const expected = await this.demoSeed.expected(graceStart);
    if (!expected || !(type in expected)) return null;
    const at = expected[type];
    const etaSeconds = at ? Math.max(1, Math.round((Date.parse(at) - now.getTime()) / 1000)) : null;
    return { state: 'coming', source: 'demo_seed', etaSeconds };
  }
}
