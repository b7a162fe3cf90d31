/**
 * The embedded default's "mail server": every message is written to mail_outbox and nothing leaves the
 * machine. Admins read the outbox (listOutbox) to see what a user would have received, e.g. a reset link.
 */
import { count, desc } from 'drizzle-orm';
import { type Clock, systemClock } from '../clock/clock.js';
import type { DbOrTx } from '../db/client.js';
import { mailOutbox } from '../db/schema/ops.js';
import type { Mailer, MailMessage } from './mailer.js';

export class OutboxMailer implements Mailer {
  constructor(
    private readonly db: DbOrTx,
    private readonly clock: Clock = systemClock,
  ) {}

  async send(message: MailMessage): Promise<void> {
    // sent_at stays empty: the message was kept, not delivered anywhere.
    await this.db.insert(mailOutbox).values({
      toAddress: message.to,
      subject: message.subject,
      textBody: message.text,
      transport: 'outbox',
      createdAt: this.clock.date(),
    });
  }
}

export type OutboxEntry = typeof mailOutbox.$inferSelect;

export interface OutboxPage {
  data: OutboxEntry[];
  total: number;
  page: number;
  limit: number;
}

/** Newest first, in the contract's pagination envelope; page is 1-based and the caller validated the bounds. */
export async function listOutbox(db: DbOrTx, { page, limit }: { page: number; limit: number }): Promise<OutboxPage> {
  const [data, [{ total }]] = await Promise.all([
    db
      .select()
      .from(mailOutbox)
      .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ total: count() }).from(mailOutbox),
  ]);
  return { data, total, page, limit };
}
