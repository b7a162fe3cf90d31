/** Module H's listener_feedback: a listener's rating of a track, stored with whatever must commit with it. */
import type { Db, DbOrTx } from '../../infra/db/client.js';
import { listenerFeedback } from '../../infra/db/schema/index.js';

export type FeedbackRow = typeof listenerFeedback.$inferSelect;
export type NewFeedback = typeof listenerFeedback.$inferInsert;

export class FeedbackRepository {
  constructor(private readonly db: Db) {}

  /**
   * Stores the rating and runs `alongside` in the same transaction (module G's report of the track), so a
   * report is never kept without its rating, nor a rating whose report failed.
   */
  async record<R>(feedback: NewFeedback, alongside: (tx: DbOrTx, row: FeedbackRow) => Promise<R>): Promise<{ row: FeedbackRow; result: R }> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.insert(listenerFeedback).values(feedback).returning();
      return { row, result: await alongside(tx, row) };
    });
  }
}
