/**
 * Where trained models live: the artifact (JSON) in blob storage, its row in model_versions, and a small
 * in-memory cache of parsed artifacts by version. A version is immutable, so the cache never goes stale;
 * a deploy only changes which version new work resolves to.
 */
import { createHash } from 'node:crypto';
import type { BlobStore } from '../../infra/blobs/blob-store.js';
import type { Clock } from '../../infra/clock/clock.js';
import { Errors } from '../../errors.js';
import type { ModelsRepository, ModelType, ModelVersionRow } from './models.repository.js';

const CACHE_SIZE = 6;

export interface SaveModelInput {
  type: ModelType;
  artifact: unknown;
  datasetHash: string;
  metrics: Record<string, unknown>;
  lineage: Record<string, unknown>;
  /** Draft name chosen when the job started; generated when absent. */
  version?: string;
}

const TYPE_LABEL: Record<ModelType, string> = { audio: 'audio', lyrics: 'lyrics', style_embedding: 'style' };

export class ModelStore {
  private readonly cache = new Map<string, Promise<unknown>>();

  constructor(
    private readonly repo: ModelsRepository,
    private readonly blobs: BlobStore,
    private readonly clock: Clock,
  ) {}

  /** A new, unique draft name such as "audio-v20261122.3". */
  async draftVersionName(type: ModelType): Promise<string> {
    const now = this.clock.date();
    const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    const stamp = day.toISOString().slice(0, 10).replaceAll('-', '');
    const n = (await this.repo.countOfTypeSince(type, day)) + 1;
    return `${TYPE_LABEL[type]}-v${stamp}.${n}-${createHash('sha256').update(`${now.getTime()}${Math.random()}`).digest('hex').slice(0, 4)}`;
  }

  async save(input: SaveModelInput): Promise<ModelVersionRow> {
    const version = input.version ?? (await this.draftVersionName(input.type));
    const bytes = Buffer.from(JSON.stringify(input.artifact));
    const key = `models/${input.type}/${version}.json`;
    await this.blobs.put(key, bytes);
    return this.repo.insert({
      version,
      modelType: input.type,
      artifactBlobKey: key,
      artifactSha256: createHash('sha256').update(bytes).digest('hex'),
      datasetHash: input.datasetHash,
      metrics: input.metrics,
      lineage: input.lineage,
    });
  }

  async production(type: ModelType): Promise<ModelVersionRow | null> {
    return this.repo.production(type);
  }

  /** The production version of a type, or NOT_FOUND when none was ever deployed. */
  async requireProduction(type: ModelType): Promise<ModelVersionRow> {
    const row = await this.repo.production(type);
    if (!row) throw Errors.notFound(`Production ${type} model`);
    return row;
  }

  /** A named version of a type, or NOT_FOUND. */
  async requireVersion(type: ModelType, version: string): Promise<ModelVersionRow> {
    const row = await this.repo.findByVersion(version);
    if (!row || row.modelType !== type) throw Errors.notFound('Model version', version);
    return row;
  }

  /** The parsed artifact of a version, verified against its recorded hash. */
  load<T>(row: ModelVersionRow): Promise<T> {
    let entry = this.cache.get(row.version);
    if (!entry) {
      entry = this.blobs.get(row.artifactBlobKey).then((bytes) => {
        const digest = createHash('sha256').update(bytes).digest('hex');
        if (digest !== row.artifactSha256) throw new Error(`model artifact ${row.version} does not match its recorded hash`);
        return JSON.parse(bytes.toString('utf8')) as unknown;
      });
      entry.catch(() => this.cache.delete(row.version));
      this.cache.set(row.version, entry);
      while (this.cache.size > CACHE_SIZE) this.cache.delete(this.cache.keys().next().value as string);
    }
    return entry as Promise<T>;
  }
}
