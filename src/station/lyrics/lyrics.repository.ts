import { and, asc, desc, eq, inArray, isNull, ne, type SQLWrapper } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../infra/db/client.js';
import { lyricGenerations } from '../../infra/db/schema/index.js';
import { idEq } from '../../infra/db/ids.js';

export type LyricRow = typeof lyricGenerations.$inferSelect;

/** A lyric's words in the order they are sung (a chorus sung three times is listed three times). */
export interface SungSections {
  language: string;
  sections: { name: string; text: string }[];
}

/**
 * Module E's read port (src/station/generation/module.ts, sessionGenerationIds): the ids of a session's
 * generations, as a subquery this repository filters its rows by (module E's table stays module E's).
 */
export type SessionGenerationIds = (sessionId: string) => SQLWrapper;

export class LyricsRepository {
  constructor(
    private readonly db: Db,
    private readonly sessionGenerationIds: SessionGenerationIds,
  ) {}

  /**
   * Runs `work` in one transaction with a repository bound to it and the transaction's handle (the webhooks'
   * outbox records station.safety.flag_raised in the transaction that stores the verdict).
   */
  transaction<T>(work: (repo: LyricsRepository, tx: DbOrTx) => Promise<T>): Promise<T> {
    // A transaction handle has the database's query API (client.ts).
    return this.db.transaction((tx) => work(new LyricsRepository(tx as Db, this.sessionGenerationIds), tx));
  }

  async insert(row: typeof lyricGenerations.$inferInsert): Promise<LyricRow> {
    const [inserted] = await this.db.insert(lyricGenerations).values(row).returning();
    return inserted;
  }

  async find(id: string): Promise<LyricRow | null> {
    const [row] = await this.db.select().from(lyricGenerations).where(idEq(lyricGenerations.id, id)).limit(1);
    return row ?? null;
  }

  /** Requests waiting for the first production lyrics model, oldest first. */
  async waitingForModel(): Promise<LyricRow[]> {
    return this.db
      .select()
      .from(lyricGenerations)
      .where(and(eq(lyricGenerations.status, 'pending'), isNull(lyricGenerations.modelVersion)))
      .orderBy(asc(lyricGenerations.createdAt), asc(lyricGenerations.id));
  }

  /** pending -> complete (or failed) with the generated fields; null when another instance finished it first. */
  async finishWaiting(id: string, fields: Partial<typeof lyricGenerations.$inferInsert>): Promise<LyricRow | null> {
    const [row] = await this.db
      .update(lyricGenerations)
      .set(fields)
      .where(and(eq(lyricGenerations.id, id), eq(lyricGenerations.status, 'pending')))
      .returning();
    return row ?? null;
  }

  async setWaitingEta(id: string, etaSeconds: number | null): Promise<void> {
    await this.db
      .update(lyricGenerations)
      .set({ etaSeconds })
      .where(and(eq(lyricGenerations.id, id), eq(lyricGenerations.status, 'pending')));
  }

  async updateSafety(id: string, fields: Pick<LyricRow, 'safetyScore' | 'explicitDetected' | 'safety' | 'safetyCheckedAt'>): Promise<LyricRow> {
    const [row] = await this.db.update(lyricGenerations).set(fields).where(eq(lyricGenerations.id, id)).returning();
    return row;
  }

  /**
   * The distinct lines sung by the last `songs` tracks of a generation session (the radio's, or a client's
   * `session_id`), in a language, newest first; the generation asking is left out, so a retried job writes the
   * same song again.
   */
  async sessionLines(sessionId: string, language: string, exceptGenerationId: string | null, songs: number): Promise<string[]> {
    const rows = await this.db
      .select({ structure: lyricGenerations.structure })
      .from(lyricGenerations)
      .where(
        and(
          inArray(lyricGenerations.generationId, this.sessionGenerationIds(sessionId)),
          eq(lyricGenerations.status, 'complete'),
          eq(lyricGenerations.language, language),
          exceptGenerationId ? ne(lyricGenerations.generationId, exceptGenerationId) : undefined,
        ),
      )
      .orderBy(desc(lyricGenerations.createdAt))
      .limit(songs);
    const lines = rows.flatMap((row) => Object.values(row.structure ?? {}).flatMap((text) => text.split('\n')));
    return [...new Set(lines.map((line) => line.trim()).filter(Boolean))];
  }

  /** The words of a lyric, section by section in singing order; null when it has none (yet). */
  async sungSections(lyricId: string): Promise<SungSections | null> {
    const [row] = await this.db
      .select({ language: lyricGenerations.language, structure: lyricGenerations.structure, safety: lyricGenerations.safety })
      .from(lyricGenerations)
      .where(eq(lyricGenerations.id, lyricId))
      .limit(1);
    if (!row?.structure) return null;
    const structure = row.structure;
    const order = Array.isArray(row.safety.order) ? row.safety.order.map(String) : Object.keys(structure);
    const sections = order.filter((name) => typeof structure[name] === 'string').map((name) => ({ name, text: structure[name] }));
    return sections.length > 0 ? { language: row.language, sections } : null;
  }
}
