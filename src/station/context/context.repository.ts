/** Module D's contexts: the history of active contexts (the current one is the latest) and presets. */
import { and, asc, desc, eq, gt, gte, lt, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../infra/db/client.js';
import { contextPresets, stationContexts } from '../../infra/db/schema/index.js';
import { idEq } from '../../infra/db/ids.js';
import type { StoredPresetContext } from '../../infra/db/schema/index.js';
import { isUniqueViolation } from '../../infra/db/errors.js';

export type ContextRow = typeof stationContexts.$inferSelect;
export type ContextInsert = typeof stationContexts.$inferInsert;
export type PresetRow = typeof contextPresets.$inferSelect;

export class ContextRepository {
  constructor(private readonly db: DbOrTx) {}

  async current(): Promise<ContextRow | null> {
    const [row] = await this.db.select().from(stationContexts).orderBy(desc(stationContexts.seq)).limit(1);
    return row ?? null;
  }

  async findById(contextId: string): Promise<ContextRow | null> {
    const [row] = await this.db.select().from(stationContexts).where(eq(stationContexts.contextId, contextId)).limit(1);
    return row ?? null;
  }

  async insert(row: ContextInsert): Promise<ContextRow> {
    const [inserted] = await this.db.insert(stationContexts).values(row).returning();
    return inserted;
  }

  /** Inserts a rotation of `row.rotatedFrom`; null when another instance rotated that context first. */
  async insertRotation(row: ContextInsert & { rotatedFrom: string }): Promise<ContextRow | null> {
    try {
      return await this.insert(row);
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }

  /**
   * The contexts of the window starting at `since`, newest first: those activated since then and the one
   * that was already active when the window opened.
   */
  async history(since: Date, limit: number, offset: number): Promise<{ rows: (ContextRow & { presetName: string | null })[]; total: number }> {
    const [opening] = await this.db
      .select({ seq: stationContexts.seq })
      .from(stationContexts)
      .where(lt(stationContexts.activeSince, since))
      .orderBy(desc(stationContexts.seq))
      .limit(1);
    const where = opening ? gte(stationContexts.seq, opening.seq) : gte(stationContexts.activeSince, since);
    const [rows, [{ total }]] = await Promise.all([
      this.db
        .select({ context: stationContexts, presetName: contextPresets.name })
        .from(stationContexts)
        .leftJoin(contextPresets, eq(contextPresets.presetId, stationContexts.presetId))
        .where(where)
        .orderBy(desc(stationContexts.seq))
        .limit(limit)
        .offset(offset),
      this.db
        .select({ total: sql<number>`count(*)::int` })
        .from(stationContexts)
        .where(where),
    ]);
    return { rows: rows.map((r) => ({ ...r.context, presetName: r.presetName })), total };
  }

  /** When the context after `seq` took over; null for the current context. */
  async activeUntil(seq: number): Promise<Date | null> {
    const [next] = await this.db
      .select({ activeSince: stationContexts.activeSince })
      .from(stationContexts)
      .where(gt(stationContexts.seq, seq))
      .orderBy(asc(stationContexts.seq))
      .limit(1);
    return next?.activeSince ?? null;
  }

  /** null when the name is taken. */
  async insertPreset(name: string, context: StoredPresetContext, createdAt: Date): Promise<PresetRow | null> {
    try {
      const [row] = await this.db.insert(contextPresets).values({ name, context, createdAt }).returning();
      return row;
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }

  async findPreset(presetId: string): Promise<PresetRow | null> {
    const [row] = await this.db.select().from(contextPresets).where(idEq(contextPresets.presetId, presetId)).limit(1);
    return row ?? null;
  }

  async listPresets(limit: number, offset: number): Promise<{ rows: PresetRow[]; total: number }> {
    const [rows, [{ total }]] = await Promise.all([
      this.db.select().from(contextPresets).orderBy(asc(contextPresets.name)).limit(limit).offset(offset),
      this.db.select({ total: sql<number>`count(*)::int` }).from(contextPresets),
    ]);
    return { rows, total };
  }

  /** Every preset but `exceptId` (the rotation's candidates). */
  async allPresets(exceptId: string | null = null): Promise<PresetRow[]> {
    const query = this.db.select().from(contextPresets);
    return (exceptId ? query.where(and(ne(contextPresets.presetId, exceptId))) : query).orderBy(asc(contextPresets.name));
  }
}
