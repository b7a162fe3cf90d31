/**
 * Pro subscriptions (src/platform/subscriptions): one row per subscription checkout at the payment processor.
 * 'open' until the processor reports it paid, then 'active' (users.plan becomes 'pro'); an open checkout
 * nobody paid within a day is 'expired'; an active one that ended (cancelled by its user, or ended by the
 * processor: unpaid renewals, a cancellation at the period's end) is 'cancelled' and the user is free again.
 * At most one open and one active row per user.
 */
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth.js';
import { paymentProcessorName } from './store.js';

export const subscriptionStatus = pgEnum('subscription_status', ['open', 'active', 'expired', 'cancelled']);

export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    plan: text('plan').notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    interval: text('interval').notNull(),
    processor: paymentProcessorName('processor').notNull(),
    /** Real money: true only when a live processor (Stripe) takes it; a sandbox (demo store) subscription never is. */
    livemode: boolean('livemode').notNull(),
    /** Null until the processor answered; a retry finishes the job. */
    processorSessionId: text('processor_session_id').unique(),
    checkoutUrl: text('checkout_url'),
    /** The processor's subscription (Stripe sub_...), once paid. */
    processorSubscriptionId: text('processor_subscription_id'),
    /** The processor's id of the completion notice (Stripe event id, or the sandbox session id). */
    processorReference: text('processor_reference'),
    status: subscriptionStatus('status').notNull().default('open'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    activatedAt: timestamp('activated_at', { withTimezone: true }),
    /** Asked to end at the processor's period end (Stripe): still active until the processor says it ended. */
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [
    index('subscriptions_user_idx').on(t.userId, t.createdAt),
    // Two concurrent POSTs open one checkout; two completion notices activate one subscription.
    uniqueIndex('subscriptions_one_open_idx')
      .on(t.userId)
      .where(sql`${t.status} = 'open'`),
    uniqueIndex('subscriptions_one_active_idx')
      .on(t.userId)
      .where(sql`${t.status} = 'active'`),
    check('subscriptions_amount_positive', sql`${t.amountCents} > 0`),
  ],
);
