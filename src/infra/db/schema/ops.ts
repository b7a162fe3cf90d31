import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Every e-mail the product sends; the embedded default's "mail server" and an audit trail for SMTP. */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    transport: text('transport').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    error: text('error'),
  },
  (t) => [index('mail_outbox_created_idx').on(t.createdAt)],
);

/**
 * The demo seed's progress, shared by every instance: which instance holds the lease to run it (only one
 * seeds), which model types it will still deploy and when it expects to (so a generation request can wait
 * for them), and when it finished. One row (id 1).
 */
export const demoSeed = pgTable('demo_seed', {
  id: integer('id').primaryKey(),
  holder: text('holder'),
  leaseExpiresAt: timestamp('lease_expires_at', { withTimezone: true }),
  step: text('step').notNull().default('starting'),
  /** Model type -> expected deploy time (ISO 8601), for the types the seed will still deploy; null if unknown. */
  expected: jsonb('expected').$type<Record<string, string | null>>().notNull().default({}),
  completedAt: timestamp('completed_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
