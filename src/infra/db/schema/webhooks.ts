/**
 * Webhooks: one registry for station (`station.*`) and platform events. A delivery row is one attempt;
 * the attempts of one event to one endpoint share `event_id` and `webhook_message_id` (X-Webhook-Id).
 */
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { apiKeyEnvironment, users } from './auth.js';

export const webhookDeliveryStatus = pgEnum('webhook_delivery_status', ['pending', 'succeeded', 'failed', 'retrying']);

export const webhooks = pgTable(
  'webhooks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerUserId: uuid('owner_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    events: text('events').array().notNull(),
    // AES-256-GCM under the DATA_DIR key `webhook-secrets`, bound to the row id: `v1.<iv>.<tag>.<ciphertext>`.
    secretCiphertext: text('secret_ciphertext').notNull(),
    active: boolean('active').notNull().default(true),
    /**
     * The data space whose events it receives: 'test' when registered with a test key (the sandbox's events
     * only), otherwise 'live' (station events and the live platform's). Never both.
     */
    environment: apiKeyEnvironment('environment').notNull().default('live'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('webhooks_owner_idx').on(t.ownerUserId, t.createdAt)],
);

export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    webhookId: uuid('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    /** sha256 of the bus message's canonical JSON: every instance computes the same id for one event. */
    eventId: text('event_id').notNull(),
    event: text('event').notNull(),
    /** The exact raw body POSTed (the same bytes on every attempt). */
    payload: text('payload').notNull(),
    webhookMessageId: text('webhook_message_id').notNull(),
    attempt: integer('attempt').notNull(),
    status: webhookDeliveryStatus('status').notNull().default('pending'),
    responseStatus: integer('response_status'),
    error: text('error'),
    durationMs: integer('duration_ms'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull(),
    /** A worker's claim on a pending attempt; expired claims are taken over (crash recovery). */
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    attemptedAt: timestamp('attempted_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  },
  (t) => [
    // Several instances receive the same bus message; only the first insert of an attempt counts.
    uniqueIndex('webhook_deliveries_once').on(t.webhookId, t.eventId, t.attempt),
    index('webhook_deliveries_webhook_idx').on(t.webhookId, t.createdAt),
    index('webhook_deliveries_pending_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
  ],
);
