/**
 * Mail through an SMTP server (SMTP_URL). Every message is still recorded in mail_outbox, with transport
 * 'smtp' and then either sent_at or the error, so admins can see what was sent and what bounced at the relay.
 */
import { eq } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import { type Clock, systemClock } from '../clock/clock.js';
import type { DbOrTx } from '../db/client.js';
import { mailOutbox } from '../db/schema/ops.js';
import type { Mailer, MailMessage } from './mailer.js';

export interface SmtpMailerOptions {
  db: DbOrTx;
  /** smtp:// or smtps:// with credentials and query options as nodemailer reads them. */
  smtpUrl: string;
  /** The From header (MAIL_FROM). */
  from: string;
  clock?: Clock;
}

export class MailDeliveryError extends Error {
  constructor(to: string, cause: unknown) {
    super(`mail to ${to} was not accepted by the SMTP server: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
    this.name = 'MailDeliveryError';
  }
}

export class SmtpMailer implements Mailer {
  private readonly db: DbOrTx;
  private readonly from: string;
  private readonly clock: Clock;
  private readonly transport: Transporter;

  constructor(options: SmtpMailerOptions) {
    this.db = options.db;
    this.from = options.from;
    this.clock = options.clock ?? systemClock;
    this.transport = nodemailer.createTransport(options.smtpUrl);
  }

  /** Records the message first, so a crash mid-send still leaves a trace; throws MailDeliveryError on refusal. */
  async send(message: MailMessage): Promise<void> {
    const [row] = await this.db
      .insert(mailOutbox)
      .values({
        toAddress: message.to,
        subject: message.subject,
        textBody: message.text,
        transport: 'smtp',
        createdAt: this.clock.date(),
      })
      .returning({ id: mailOutbox.id });
    try {
      await this.transport.sendMail({ from: this.from, to: message.to, subject: message.subject, text: message.text });
    } catch (error) {
      const failure = new MailDeliveryError(message.to, error);
      await this.db.update(mailOutbox).set({ error: failure.message }).where(eq(mailOutbox.id, row.id));
      // The caller decides: a job retries, a request answers anyway (reset-password is always 202).
      throw failure;
    }
    await this.db.update(mailOutbox).set({ sentAt: this.clock.date() }).where(eq(mailOutbox.id, row.id));
  }

  /** Releases pooled SMTP connections (only open with ?pool=true). */
  close(): void {
    this.transport.close();
  }
}
