/** The radio's running order and the scheduler's state, in the database so a restart resumes them. */
import { randomBytes } from 'node:crypto';
import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lte, ne, notInArray, sql } from 'drizzle-orm';
import type { Db } from '../../infra/db/client.js';
import { radioSlots, radioState } from '../../infra/db/schema/index.js';

export type SlotRow = typeof radioSlots.$inferSelect;

/** Why a catalog slot holds an AI slot's place: no audio model yet (it becomes AI again once one exists). */
export const NO_AUDIO_MODEL = 'no production audio model yet';

export function newRadioSessionId(at: Date): string {
  return `ses_${at.toISOString().slice(0, 10).replaceAll('-', '')}_${randomBytes(4).toString('hex')}`;
}

export class SlotsRepository {
  constructor(private readonly db: Db) {}

  async state(now: Date) {
    const [row] = await this.db.select().from(radioState).where(eq(radioState.id, 1)).limit(1);
    if (row) return row;
    await this.db
      .insert(radioState)
      .values({ id: 1, sessionId: newRadioSessionId(now), sessionStartedAt: now })
      .onConflictDoNothing();
    const [created] = await this.db.select().from(radioState).where(eq(radioState.id, 1)).limit(1);
    return created;
  }

  async updateState(fields: Partial<typeof radioState.$inferInsert>): Promise<void> {
    await this.db.update(radioState).set(fields).where(eq(radioState.id, 1));
  }

  /** Slots not yet handed to the stream, in order. */
  async planned(): Promise<SlotRow[]> {
    return this.db.select().from(radioSlots).where(eq(radioSlots.status, 'planned')).orderBy(asc(radioSlots.id));
  }

  /** Whether an AI slot (or a catalog slot holding an AI slot's place until a model exists) is planned. */
  async aiSlotPlanned(): Promise<boolean> {
    const aiPlanned = await this.db
      .select({ id: radioSlots.id })
      .from(radioSlots)
      .where(and(eq(radioSlots.status, 'planned'), sql`(${radioSlots.origin} = 'ai_generated' or ${radioSlots.replacedReason} = ${NO_AUDIO_MODEL})`))
      .limit(1);
    return aiPlanned.length > 0;
  }

  async insert(row: typeof radioSlots.$inferInsert): Promise<SlotRow> {
    const [inserted] = await this.db.insert(radioSlots).values(row).returning();
    return inserted;
  }

  async update(id: number, fields: Partial<typeof radioSlots.$inferInsert>): Promise<SlotRow | null> {
    const [row] = await this.db.update(radioSlots).set(fields).where(eq(radioSlots.id, id)).returning();
    return row ?? null;
  }

  /** Hands a planned slot to the stream (cued: playing, not yet started). False if someone else took it. */
  async cue(id: number, fields: Partial<typeof radioSlots.$inferInsert>): Promise<SlotRow | null> {
    const [row] = await this.db
      .update(radioSlots)
      .set({ ...fields, status: 'playing' })
      .where(and(eq(radioSlots.id, id), eq(radioSlots.status, 'planned')))
      .returning();
    return row ?? null;
  }

  /** The latest slot handed to the stream (cued or started): what the next slot must not repeat. */
  async lastHandedOut(): Promise<SlotRow | null> {
    const [row] = await this.db
      .select()
      .from(radioSlots)
      .where(inArray(radioSlots.status, ['playing', 'played']))
      // A cued slot (not started yet) is the latest; then by start time (slots may be cued out of id order).
      .orderBy(sql`${radioSlots.startedAt} desc nulls first`, desc(radioSlots.id))
      .limit(1);
    return row ?? null;
  }

  /** The slot now on air: the latest one that has started. */
  async onAir(): Promise<SlotRow | null> {
    const [row] = await this.db
      .select()
      .from(radioSlots)
      .where(and(eq(radioSlots.status, 'playing'), isNotNull(radioSlots.startedAt)))
      .orderBy(desc(radioSlots.startedAt), desc(radioSlots.id))
      .limit(1);
    return row ?? null;
  }

  /**
   * Marks a cued slot as started and closes the one before it; null when the slot is not cued (started already,
   * or back in the plan), and then nothing changes. A start recorded late (heard while no instance led, recorded
   * once one did) closes only what started before it, and is closed itself where a slot that started after it
   * took over (it comes back played).
   */
  async start(id: number, startedAt: Date, listeners: number): Promise<SlotRow | null> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(radioSlots)
        .set({ startedAt, listenersAtStart: listeners })
        .where(and(eq(radioSlots.id, id), eq(radioSlots.status, 'playing'), isNull(radioSlots.startedAt)))
        .returning();
      if (!row) return null;
      await tx
        .update(radioSlots)
        .set({ status: 'played', endedAt: startedAt })
        .where(and(eq(radioSlots.status, 'playing'), isNotNull(radioSlots.startedAt), ne(radioSlots.id, id), lte(radioSlots.startedAt, startedAt)));
      const [next] = await tx
        .select({ startedAt: radioSlots.startedAt })
        .from(radioSlots)
        .where(and(ne(radioSlots.id, id), gt(radioSlots.startedAt, startedAt)))
        .orderBy(asc(radioSlots.startedAt))
        .limit(1);
      if (!next?.startedAt) return row;
      const [closed] = await tx.update(radioSlots).set({ status: 'played', endedAt: next.startedAt }).where(eq(radioSlots.id, id)).returning();
      return closed;
    });
  }

  /** After a restart nothing is on air: started slots are done, cued ones go back to the front of the plan. */
  async resetAfterRestart(now: Date): Promise<void> {
    await this.db
      .update(radioSlots)
      .set({ status: 'played', endedAt: now })
      .where(and(eq(radioSlots.status, 'playing'), isNotNull(radioSlots.startedAt)));
    await this.returnCued();
  }

  /** Slots handed to the stream but never started go back to the front of the plan (all but those in `keep`). */
  async returnCued(keep: readonly number[] = []): Promise<void> {
    await this.db
      .update(radioSlots)
      .set({ status: 'planned' })
      .where(and(eq(radioSlots.status, 'playing'), isNull(radioSlots.startedAt), keep.length === 0 ? undefined : notInArray(radioSlots.id, [...keep])));
  }

  async find(id: number): Promise<SlotRow | null> {
    const [row] = await this.db.select().from(radioSlots).where(eq(radioSlots.id, id)).limit(1);
    return row ?? null;
  }

  async history(limit: number, sessionId?: string): Promise<SlotRow[]> {
    return this.db
      .select()
      .from(radioSlots)
      .where(and(isNotNull(radioSlots.startedAt), sessionId ? eq(radioSlots.sessionId, sessionId) : undefined))
      .orderBy(desc(radioSlots.startedAt), desc(radioSlots.id))
      .limit(limit);
  }

  /** The catalog tracks of the latest catalog slots, most recent first (their artists are the catalog's to name). */
  async recentCatalogTrackIds(limit = 16): Promise<string[]> {
    const rows = await this.db
      .select({ trackId: radioSlots.trackId })
      .from(radioSlots)
      .where(and(eq(radioSlots.origin, 'catalog'), isNotNull(radioSlots.trackId)))
      .orderBy(desc(radioSlots.id))
      .limit(limit);
    return rows.map((r) => r.trackId!);
  }

  /**
   * Planned catalog slots of a track that can no longer play (taken down, no audio: the caller asks the catalog)
   * are replaced, so it leaves the running order at once; slots already played stay as history. Returns how many
   * were replaced.
   */
  async withdrawTrack(trackId: string): Promise<number> {
    const rows = await this.db
      .update(radioSlots)
      .set({ status: 'replaced', replacedReason: 'the catalog track is no longer playable' })
      .where(and(eq(radioSlots.status, 'planned'), eq(radioSlots.trackId, trackId)))
      .returning({ id: radioSlots.id });
    return rows.length;
  }
}
