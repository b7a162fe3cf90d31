/** Module A's single configuration record. */
import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../infra/db/client.js';
import { stationConfig } from '../../infra/db/schema/index.js';

export type StationConfigRow = typeof stationConfig.$inferSelect;
export type StationConfigPatch = Partial<Omit<StationConfigRow, 'id' | 'updatedAt'>>;

export class ConfigRepository {
  constructor(private readonly db: DbOrTx) {}

  /** The record, created with its defaults the first time it is read. */
  async get(): Promise<StationConfigRow> {
    const [row] = await this.db.select().from(stationConfig).where(eq(stationConfig.id, 1)).limit(1);
    if (row) return row;
    await this.db.insert(stationConfig).values({ id: 1 }).onConflictDoNothing();
    const [created] = await this.db.select().from(stationConfig).where(eq(stationConfig.id, 1)).limit(1);
    return created;
  }

  async update(patch: StationConfigPatch): Promise<StationConfigRow> {
    await this.get();
    const [row] = await this.db
      .update(stationConfig)
      .set({ ...patch, updatedAt: sql`now()` })
      .where(eq(stationConfig.id, 1))
      .returning();
    return row;
  }
}
