/**
 * Read-only views of model_versions that the registry and the transparency panel need for lineage: the read
 * port this module publishes on its table (modules.ts hands it to the registry).
 */
import { and, desc, eq, isNotNull, lte } from 'drizzle-orm';
import type { Db } from '../../infra/db/client.js';
import { modelVersions } from '../../infra/db/schema/index.js';
import type { ModelType, ModelVersionRow } from './models.repository.js';

export class ModelLineageRepository {
  constructor(private readonly db: Db) {}

  async findByVersion(version: string): Promise<ModelVersionRow | null> {
    const [row] = await this.db.select().from(modelVersions).where(eq(modelVersions.version, version)).limit(1);
    return row ?? null;
  }

  /** The model of a type most recently deployed at or before `at` (the one a past generation used). */
  async productionAt(type: ModelType, at: Date): Promise<ModelVersionRow | null> {
    const [row] = await this.db
      .select()
      .from(modelVersions)
      .where(and(eq(modelVersions.modelType, type), isNotNull(modelVersions.deployedAt), lte(modelVersions.deployedAt, at)))
      .orderBy(desc(modelVersions.deployedAt))
      .limit(1);
    return row ?? null;
  }

  async production(): Promise<ModelVersionRow[]> {
    return this.db.select().from(modelVersions).where(eq(modelVersions.status, 'production')).orderBy(modelVersions.modelType);
  }
}
