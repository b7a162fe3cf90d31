/** When listeners could hear the radio (listening_sessions): stream tickets and the streams opened with them. */
import { and, eq, gte, lte, or } from 'drizzle-orm';
import type { Db } from '../../infra/db/client.js';
import { listeningSessions } from '../../infra/db/schema/index.js';

export interface Interval {
  from: Date;
  to: Date;
}

export class ListeningSessionsRepository {
  constructor(private readonly db: Db) {}

  /** A ticket from issue to expiry, or a stream from its opening to `endsAt` (its bound until it closes). */
  async record(listener: string, kind: 'ticket' | 'stream', startedAt: Date, endsAt: Date): Promise<string> {
    const [row] = await this.db.insert(listeningSessions).values({ listener, kind, startedAt, endsAt }).returning({ id: listeningSessions.id });
    return row.id;
  }

  /** A stream closed at `at`. */
  async end(id: string, at: Date): Promise<void> {
    await this.db.update(listeningSessions).set({ endsAt: at }).where(eq(listeningSessions.id, id));
  }

  /** Whether `listener` held a ticket or a stream during any of the intervals. */
  async heldDuring(listener: string, intervals: Interval[]): Promise<boolean> {
    if (intervals.length === 0) return false;
    const [row] = await this.db
      .select({ id: listeningSessions.id })
      .from(listeningSessions)
      .where(
        and(
          eq(listeningSessions.listener, listener),
          or(...intervals.map((i) => and(lte(listeningSessions.startedAt, i.to), gte(listeningSessions.endsAt, i.from)))),
        ),
      )
      .limit(1);
    return !!row;
  }
}
