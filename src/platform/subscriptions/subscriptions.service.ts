/**
 * Pro subscriptions through the payment-processor port: POST /v1/subscriptions opens a subscription-mode
 * checkout (Stripe when configured, otherwise the sandbox's pay page), and the processor's completion (the
 * sandbox page's Pay, or Stripe's checkout.session.completed in subscription mode, dispatched here by the
 * store's webhook route) makes the user Pro once and emits user.subscribed. The server sets the price.
 */
import type { Clock } from '../../infra/clock/clock.js';
import { PaymentProcessorError, type CompletedSubscription, type EndedSubscription, type PaymentProcessor } from '../../infra/payments/processor.js';
import { processorFor, type PaymentProcessors } from '../../infra/payments/processors.js';
import type { Principal } from '../../auth/principal.js';
import { loginSessionUser } from '../../auth/developer-keys.js';
import { DomainError, Errors } from '../../errors.js';
import type { Page } from '../../pagination.js';
import type { TransactionalPlatformEvents } from '../webhooks/platform-events.js';
import { noLivePaymentProcessor, type StoreLog, type StripeSubscriptionHandler } from '../store/store.types.js';
import type { SubscriptionRow, SubscriptionsRepository } from './subscriptions.repository.js';

export const PLANS = ['pro'] as const;
export type Plan = (typeof PLANS)[number];
/** The Pro plan's price: set by the server, never by a request. */
export const PRO_PLAN = { plan: 'pro' as const, title: 'Station Pro', amountCents: 999, currency: 'usd', interval: 'month' as const };
/** An unpaid checkout is answered again for a day (the sandbox link and a Stripe session live that long); then a new one is opened. */
export const OPEN_CHECKOUT_TTL_MS = 24 * 3600 * 1000;

export function subscriptionJson(row: SubscriptionRow) {
  return {
    id: row.id,
    plan: row.plan,
    status: row.status,
    processor: row.processor,
    livemode: row.livemode,
    session_id: row.processorSessionId,
    checkout_url: row.status === 'open' ? row.checkoutUrl : null,
    amount: row.amountCents / 100,
    amount_cents: row.amountCents,
    currency: row.currency,
    interval: row.interval,
    created_at: row.createdAt.toISOString(),
    activated_at: row.activatedAt?.toISOString() ?? null,
    cancel_at_period_end: row.cancelAtPeriodEnd,
    ended_at: row.endedAt?.toISOString() ?? null,
  };
}

export class SubscriptionsService implements StripeSubscriptionHandler {
  constructor(
    private readonly repo: SubscriptionsRepository,
    private readonly processors: PaymentProcessors,
    /** user.subscribed, recorded in the activation's transaction. */
    private readonly events: TransactionalPlatformEvents,
    private readonly clock: Clock,
    private readonly baseUrl: string,
  ) {}

  get sandbox() {
    return this.processors.sandbox;
  }

  /**
   * Opens (or answers again) the caller's checkout for a plan. One open checkout per user, so a retried or
   * concurrent call answers the same one; a user who is Pro already gets 409 ALREADY_SUBSCRIBED. The plan is
   * the live account's: the sandbox's data space cannot buy it, and without Stripe only a demo store (never live
   * money) takes it; otherwise 503.
   */
  async subscribe(caller: Principal, plan: Plan) {
    const userId = loginSessionUser(caller, 'Subscriptions');
    if (caller.environment !== 'live') throw Errors.forbidden('Pro is a plan of the live account: subscribe through /v1, not the sandbox');
    const choice = processorFor(this.processors, 'live');
    if (!choice) throw noLivePaymentProcessor('A Pro subscription');
    const user = await this.repo.user(userId);
    if (!user) throw Errors.notFound('User', userId);
    if (user.plan === plan) throw new DomainError('conflict', 'ALREADY_SUBSCRIBED', 'This account is on the Pro plan already');
    const processor: PaymentProcessor = choice.processor;
    let row = await this.repo.openOf(userId);
    if (row && (row.createdAt.getTime() <= this.clock.now() - OPEN_CHECKOUT_TTL_MS || row.processor !== processor.name)) {
      await this.repo.expire(row.id);
      row = null;
    }
    row ??=
      (await this.repo.insertOpen({
        userId,
        plan: PRO_PLAN.plan,
        amountCents: PRO_PLAN.amountCents,
        currency: PRO_PLAN.currency,
        interval: PRO_PLAN.interval,
        processor: processor.name,
        livemode: choice.livemode,
        createdAt: this.clock.date(),
      })) ?? (await this.repo.openOf(userId));
    if (!row) throw Errors.conflict('Another checkout of this account changed at the same time; retry');
    if (row.processorSessionId === null) row = await this.openAtProcessor(row, processor, user.email);
    return subscriptionJson(row);
  }

  /** Creates the processor's session, idempotent on our id (a concurrent or retried call gets the same one). */
  private async openAtProcessor(row: SubscriptionRow, processor: PaymentProcessor, email: string): Promise<SubscriptionRow> {
    try {
      const created = await processor.createSubscriptionCheckout({
        subscriptionId: row.id,
        userId: row.userId,
        email,
        plan: row.plan,
        planTitle: PRO_PLAN.title,
        amountCents: row.amountCents,
        currency: row.currency,
        interval: PRO_PLAN.interval,
        successUrl: `${this.baseUrl}/?subscription=success&session_id={CHECKOUT_SESSION_ID}`,
        cancelUrl: `${this.baseUrl}/?subscription=cancelled`,
      });
      return await this.repo.setProcessorSession(row.id, created.processorSessionId, created.checkoutUrl);
    } catch (error) {
      if (error instanceof PaymentProcessorError) {
        throw new DomainError('unavailable', 'PAYMENTS_UNAVAILABLE', 'The payment processor could not open a checkout; retry later');
      }
      throw error;
    }
  }

  async list(caller: Principal, page: Page) {
    const userId = loginSessionUser(caller, 'Subscriptions');
    const { rows, total } = await this.repo.listOf(userId, page.limit, page.offset);
    return { data: rows.map(subscriptionJson), total, page: page.page, limit: page.limit };
  }

  /**
   * The owner cancels a paid subscription. The sandbox ends it now; Stripe ends it at the paid period's end
   * (cancel_at_period_end), and its customer.subscription.deleted then makes the account free. Another
   * user's id answers 404, one never paid (open, expired) 409; a cancelled one is answered as it is.
   */
  async cancel(caller: Principal, id: string) {
    const userId = loginSessionUser(caller, 'Subscriptions');
    const row = await this.repo.byId(id);
    if (!row || row.userId !== userId) throw Errors.notFound('Subscription', id);
    // Cancelling is idempotent: a retried (or concurrent) call answers the cancelled subscription.
    if (row.status === 'cancelled') return subscriptionJson(row);
    if (row.status !== 'active') throw Errors.conflict(`This subscription is ${row.status}; only an active one can be cancelled`);
    if (row.cancelAtPeriodEnd) return subscriptionJson(row);
    const processor = row.processor === 'stripe' ? this.processors.stripe : this.processors.sandbox;
    if (!processor)
      throw new DomainError('unavailable', 'PAYMENTS_UNAVAILABLE', 'Stripe is not configured on this server; the subscription cannot be cancelled now');
    let timing;
    try {
      timing = await processor.cancelSubscription(row.processorSubscriptionId);
    } catch (error) {
      if (error instanceof PaymentProcessorError)
        throw new DomainError('unavailable', 'PAYMENTS_UNAVAILABLE', 'The payment processor could not cancel the subscription; retry later');
      throw error;
    }
    if (timing === 'period_end') return subscriptionJson(await this.repo.markCancelAtPeriodEnd(row.id));
    const ending = await this.repo.end(row, this.clock.date());
    if (ending.outcome !== 'ended' && ending.row.status !== 'cancelled')
      throw Errors.conflict(`This subscription is ${ending.row.status}; only an active one can be cancelled`);
    return subscriptionJson(ending.row);
  }

  /** A verified customer.subscription.deleted: the account is free again. Unknown or ended ones are acknowledged. */
  async stripeSubscriptionEnded(ended: EndedSubscription, log: StoreLog): Promise<void> {
    const row = await this.repo.byProcessorSubscription(ended.processorSubscriptionId);
    if (!row || row.processor !== 'stripe') {
      log.warn({ event_id: ended.reference }, 'stripe ended a subscription we do not know; ignored');
      return;
    }
    const ending = await this.repo.end(row, this.clock.date());
    if (ending.outcome === 'ended')
      log.info({ event_id: ended.reference, subscription_id: row.id }, 'subscription ended at stripe; account back on the free plan');
  }

  /** The sandbox page before paying; an invalid or expired token says nothing about whether the session exists. */
  async sandboxCheckout(processorSessionId: string, token: string | undefined): Promise<SubscriptionRow> {
    if (!this.processors.sandbox.verify('subscription', processorSessionId, token)) throw Errors.notFound('Subscription checkout', processorSessionId);
    const row = await this.repo.byProcessorSession(processorSessionId);
    if (!row || row.processor !== 'sandbox') throw Errors.notFound('Subscription checkout', processorSessionId);
    return row;
  }

  /** The sandbox page's Pay. */
  async payInSandbox(processorSessionId: string, token: string | undefined): Promise<SubscriptionRow> {
    const row = await this.sandboxCheckout(processorSessionId, token);
    if (row.status === 'expired') throw Errors.conflict('This checkout expired; open a new one');
    return this.complete(row, { reference: processorSessionId, processorSubscriptionId: null });
  }

  /** A verified checkout.session.completed in subscription mode. Unknown sessions and wrong amounts are logged and acknowledged. */
  async stripeSubscriptionCompleted(completed: CompletedSubscription, log: StoreLog): Promise<void> {
    const row = await this.repo.byProcessorSession(completed.processorSessionId);
    if (!row || row.processor !== 'stripe') {
      log.warn({ event_id: completed.reference }, 'stripe subscription checkout completed for an unknown session; ignored');
      return;
    }
    if (completed.amountCents !== row.amountCents || completed.currency.toLowerCase() !== row.currency) {
      log.error({ event_id: completed.reference, subscription_id: row.id }, 'stripe reports another amount than the subscription’s; not activated');
      return;
    }
    const activated = await this.complete(row, { reference: completed.reference, processorSubscriptionId: completed.processorSubscriptionId }, log);
    if (activated.status !== 'active')
      log.error({ event_id: completed.reference, subscription_id: row.id }, 'a second subscription was paid for a Pro account; refund it');
  }

  /**
   * Activates once. user.subscribed is recorded in the webhooks' outbox in the activation's transaction (a
   * crash after the commit delays it, never loses it), on every completion notice with the activation's own
   * timestamp, so it has one event id: the webhook engine delivers it once.
   */
  private async complete(
    row: SubscriptionRow,
    change: { reference: string; processorSubscriptionId: string | null },
    log?: StoreLog,
  ): Promise<SubscriptionRow> {
    const activation = await this.repo.activate(row, { ...change, now: this.clock.date() }, (tx, active) =>
      this.events.recordIn(tx, {
        event: 'user.subscribed',
        timestamp: active.activatedAt!.toISOString(),
        data: {
          user_id: active.userId,
          plan: active.plan,
          amount: active.amountCents / 100,
          amount_cents: active.amountCents,
          currency: active.currency,
          interval: active.interval,
          subscription_id: active.id,
          // false: a demo store's sandbox subscription, no money taken.
          livemode: active.livemode,
        },
      }),
    );
    if (activation.outcome === 'duplicate') {
      log?.warn({ subscription_id: row.id }, 'subscription paid while the account is Pro already');
      return activation.row;
    }
    await activation.raised?.();
    return activation.row;
  }
}
