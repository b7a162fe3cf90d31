/** Module A's single configuration record. */
import { and, eq, sql } from 'drizzle-orm';
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

  /** report_threshold as configured, or null before the record exists; read-only (the registry's read port). */
  async reportThreshold(): Promise<number | null> {
    const [row] = await this.db.select({ threshold: stationConfig.reportThreshold }).from(stationConfig).where(eq(stationConfig.id, 1));
    return row?.threshold ?? null;
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

  /**
   * Reads the record under a row lock, lets `decide` validate and compute the change from it, and applies
   * that change in the same transaction: two concurrent partial updates cannot combine into a record
   * that neither caller validated. `decide` may throw to abort without changing anything.
   */
  async updateLocked(decide: (current: StationConfigRow) => StationConfigPatch): Promise<{ before: StationConfigRow; after: StationConfigRow }> {
    await this.get();
    return this.db.transaction(async (tx) => {
      const [before] = await tx.select().from(stationConfig).where(eq(stationConfig.id, 1)).for('update');
      const patch = decide(before);
      if (Object.keys(patch).length === 0) return { before, after: before };
      const [after] = await tx
        .update(stationConfig)
        .set({ ...patch, updatedAt: sql`now()` })
        .where(eq(stationConfig.id, 1))
        .returning();
      return { before, after };
    });
  }

  /**
   * Switches the radio on or off atomically: null when it already was in that state (two admins
   * pressing "enable" at once: exactly one succeeds). `onSwitched` runs in the same transaction when this call
   * switched it, so that what it records (station.radio.enabled/disabled in the webhooks' outbox) commits with
   * the switch; its answer is handed back with the row.
   */
  async switchRadio<T>(
    enabled: boolean,
    change: { at: Date; by: string | null; reason: string | null },
    onSwitched: (tx: DbOrTx) => Promise<T>,
  ): Promise<{ row: StationConfigRow; raised: T } | null> {
    await this.get();
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(stationConfig)
        .set({
          radioEnabled: enabled,
          radioChangedAt: change.at,
          radioChangedBy: change.by,
          disabledReason: enabled ? null : change.reason,
          updatedAt: sql`now()`,
        })
        .where(and(eq(stationConfig.id, 1), eq(stationConfig.radioEnabled, !enabled)))
        .returning();
      return row ? { row, raised: await onSwitched(tx) } : null;
    });
  }
}
