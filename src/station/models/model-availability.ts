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
import { and, desc, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { Clock } from '../../infra/clock/clock.js';
import type { Db } from '../../infra/db/client.js';
import { demoSeed, modelVersions, trainingJobs } from '../../infra/db/schema/index.js';
import type { ModelsRepository, ModelType, ModelVersionRow } from './models.repository.js';

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
    private readonly db: Db,
    private readonly repo: ModelsRepository,
    private readonly clock: Clock,
  ) {}

  async of(type: ModelType): Promise<Availability> {
    const model = await this.repo.production(type);
    if (model) return { state: 'production', model };
    const coming = (await this.fromTraining(type)) ?? (await this.fromDemoSeed(type));
    if (coming) return coming;
    const [awaitingDeploy] = await this.db
      .select()
      .from(modelVersions)
      .where(and(eq(modelVersions.modelType, type), eq(modelVersions.status, 'ready')))
      .orderBy(desc(modelVersions.createdAt))
      .limit(1);
    return { state: 'none', awaitingDeploy: awaitingDeploy ?? null };
  }

  /** A queued, running or paused training job of the type; its measured ETA when it is running. */
  private async fromTraining(type: ModelType): Promise<Availability | null> {
    const [job] = await this.db
      .select({
        status: trainingJobs.status,
        etaSeconds: trainingJobs.etaSeconds,
        epochSeconds: trainingJobs.epochSeconds,
        totalEpochs: trainingJobs.totalEpochs,
        currentEpoch: trainingJobs.currentEpoch,
      })
      .from(trainingJobs)
      .where(and(eq(trainingJobs.modelType, type), inArray(trainingJobs.status, ['queued', 'running', 'paused'])))
      .limit(1);
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
    const [seed] = await this.db
      .select({ expected: demoSeed.expected })
      .from(demoSeed)
      .where(and(eq(demoSeed.id, 1), isNull(demoSeed.completedAt), gt(demoSeed.leaseExpiresAt, graceStart)))
      .limit(1);
    if (!seed || !(type in seed.expected)) return null;
    const at = seed.expected[type];
    const etaSeconds = at ? Math.max(1, Math.round((Date.parse(at) - now.getTime()) / 1000)) : null;
    return { state: 'coming', source: 'demo_seed', etaSeconds };
  }
}
