/** Model versions: which exist, which one of each type is in production. */
import { and, desc, eq, sql, count, type SQL } from 'drizzle-orm';
import type { Db } from '../../infra/db/client.js';
import { modelVersions } from '../../infra/db/schema/index.js';
import { idEq } from '../../infra/db/ids.js';

export type ModelVersionRow = typeof modelVersions.$inferSelect;
export type ModelType = ModelVersionRow['modelType'];

export class ModelsRepository {
  constructor(private readonly db: Db) {}

  async insert(row: typeof modelVersions.$inferInsert): Promise<ModelVersionRow> {
    const [inserted] = await this.db.insert(modelVersions).values(row).returning();
    return inserted;
  }

  async findByVersion(version: string): Promise<ModelVersionRow | null> {
    const [row] = await this.db.select().from(modelVersions).where(eq(modelVersions.version, version)).limit(1);
    return row ?? null;
  }

  async findById(id: string): Promise<ModelVersionRow | null> {
    const [row] = await this.db.select().from(modelVersions).where(idEq(modelVersions.id, id)).limit(1);
    return row ?? null;
  }

  async production(type: ModelType): Promise<ModelVersionRow | null> {
    const [row] = await this.db
      .select()
      .from(modelVersions)
      .where(and(eq(modelVersions.modelType, type), eq(modelVersions.status, 'production')))
      .limit(1);
    return row ?? null;
  }

  /** The newest trained version of a type that is not deployed (status ready), if any. */
  async latestReady(type: ModelType): Promise<ModelVersionRow | null> {
    const [row] = await this.db
      .select()
      .from(modelVersions)
      .where(and(eq(modelVersions.modelType, type), eq(modelVersions.status, 'ready')))
      .orderBy(desc(modelVersions.createdAt))
      .limit(1);
    return row ?? null;
  }

  async list(filter: { type?: ModelType }, limit: number, offset: number) {
    const where: SQL | undefined = filter.type ? eq(modelVersions.modelType, filter.type) : undefined;
    const [rows, [{ total }]] = await Promise.all([
      this.db.select().from(modelVersions).where(where).orderBy(desc(modelVersions.createdAt), desc(modelVersions.version)).limit(limit).offset(offset),
      this.db.select({ total: count() }).from(modelVersions).where(where),
    ]);
    return { rows, total };
  }

  /** Promotes a version to production and demotes the previous one, in one transaction. */
  async deploy(id: string): Promise<ModelVersionRow> {
    return this.db.transaction(async (tx) => {
      const [target] = await tx.select().from(modelVersions).where(eq(modelVersions.id, id)).for('update');
      await tx
        .update(modelVersions)
        .set({ status: 'ready' })
        .where(and(eq(modelVersions.modelType, target.modelType), eq(modelVersions.status, 'production')));
      const [deployed] = await tx
        .update(modelVersions)
        .set({ status: 'production', deployedAt: sql`now()` })
        .where(eq(modelVersions.id, id))
        .returning();
      return deployed;
    });
  }

  /** How many versions of a type were made on a given day; names the next draft version. */
  async countOfTypeSince(type: ModelType, since: Date): Promise<number> {
    const [{ total }] = await this.db
      .select({ total: count() })
      .from(modelVersions)
      .where(and(eq(modelVersions.modelType, type), sql`${modelVersions.createdAt} >= ${since.toISOString()}`));
    return total;
  }
}
