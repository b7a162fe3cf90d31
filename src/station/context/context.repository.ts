/** Module D's contexts: the history of active contexts (the current one is the latest) and presets. */
import { desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../infra/db/client.js';
import { stationContexts } from '../../infra/db/schema/index.js';

export type ContextRow = typeof stationContexts.$inferSelect;

export class ContextRepository {
  constructor(private readonly db: DbOrTx) {}

  async current(): Promise<ContextRow | null> {
    const [row] = await this.db.select().from(stationContexts).orderBy(desc(stationContexts.activeSince), desc(stationContexts.contextId)).limit(1);
    return row ?? null;
  }

  async findById(contextId: string): Promise<ContextRow | null> {
    const [row] = await this.db.select().from(stationContexts).where(eq(stationContexts.contextId, contextId)).limit(1);
    return row ?? null;
  }

  async insert(row: typeof stationContexts.$inferInsert): Promise<ContextRow> {
    const [inserted] = await this.db.insert(stationContexts).values(row).returning();
    return inserted;
  }
}
