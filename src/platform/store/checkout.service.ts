/**
 * Checkout: a session opened at a payment processor (the sandbox, or Stripe when configured) for a product at
 * the server's price, and its completion (the sandbox page's Pay, or the verified Stripe webhook) into one
 * order per paid session, announced by payment.success.
 */
import { createHash } from 'node:crypto';
import type { Clock } from '../../infra/clock/clock.js';
import type { PaymentProcessor, ProcessorName } from '../../infra/payments/processor.js';
import { PaymentProcessorError } from '../../infra/payments/processor.js';
import type { PaymentProcessors } from '../../infra/payments/processors.js';
import type { SandboxProcessor } from '../../infra/payments/sandbox-processor.js';
import type { StripeProcessor } from '../../infra/payments/stripe-processor.js';
import { DomainError, Errors } from '../../errors.js';
import type { TransactionalPlatformEvents } from '../webhooks/platform-events.js';
import { platformSplit } from './split.js';
import type { CheckoutRow, OrderRow, ProductView, StoreRepository } from './store.repository.js';
import { processorOfCaller } from './store-processors.js';
import type { CheckoutInput, StoreCaller, StoreLog, StripeSubscriptionHandler } from './store.types.js';
import { centsToPrice, checkoutJson, priceToCents } from './store.views.js';

/** The store repository's part that checkout uses. */
export type CheckoutRepository = Pick<
  StoreRepository,
  'product' | 'payoutAccount' | 'insertCheckout' | 'checkoutByKey' | 'checkoutByProcessorId' | 'setProcessorSession' | 'completeCheckout' | 'artistByIdOrSlug'
>;

export class CheckoutService {
  constructor(
    private readonly repo: CheckoutRepository,
    private readonly processors: PaymentProcessors,
    /** payment.success, recorded in the transaction that creates the order. */
    private readonly events: TransactionalPlatformEvents,
    private readonly clock: Clock,
    private readonly baseUrl: string,
    private readonly subscriptions: StripeSubscriptionHandler | null = null,
  ) {}

  get sandbox(): SandboxProcessor {
    return this.processors.sandbox;
  }

  get stripe(): StripeProcessor | null {
    return this.processors.stripe;
  }

  private processorNamed(name: ProcessorName): PaymentProcessor {
    if (name === 'sandbox') return this.processors.sandbox;
    if (!this.processors.stripe) throw new DomainError('unavailable', 'PAYMENTS_UNAVAILABLE', 'The payment processor of this session is not configured');
    return this.processors.stripe;
  }

  async checkout(caller: StoreCaller, input: CheckoutInput, idempotencyKey: string | null) {
    if (caller.userId === null) throw Errors.forbidden('checkout is for a user: use a user token or a user-owned API key');
    if (input.user_id !== caller.userId) throw Errors.forbidden('user_id must be the calling user');
    const view = await this.repo.product(input.product_id, caller.environment);
    if (!view || view.product.status !== 'active') throw Errors.notFound('Product', input.product_id);
    const { product } = view;
    if (priceToCents(input.price) !== product.priceCents) {
      throw new DomainError(
        'conflict',
        'PRICE_MISMATCH',
        'The price does not match the product: the server sets prices',
        `this product costs ${centsToPrice(product.priceCents).toFixed(2)} ${product.currency}`,
      );
    }
    const requestHash = createHash('sha256')
      .update(JSON.stringify([input.product_id, product.priceCents, input.user_id]))
      .digest('hex');

    let row: CheckoutRow | null = null;
    if (idempotencyKey !== null) {
      row = await this.repo.checkoutByKey(caller.userId, idempotencyKey);
      if (row && row.requestHash !== requestHash) throw idempotencyReused();
    }
    if (!row) {
      const { processor, livemode } = processorOfCaller(this.processors, caller, 'A store purchase');
      if (processor.requiresPayoutAccount && !(await this.repo.payoutAccount(product.artistId, processor.name))) {
        throw new DomainError('conflict', 'ARTIST_NOT_ONBOARDED', 'This artist cannot receive payments yet', 'the artist has not set up a payout account');
      }
      const { platformFeeCents } = platformSplit(product.priceCents);
      const values = {
        userId: caller.userId,
        productId: product.id,
        artistId: product.artistId,
        amountCents: product.priceCents,
        platformFeeCents,
        currency: product.currency,
        processor: processor.name,
        livemode,
        environment: caller.environment,
        idempotencyKey,
        requestHash,
        createdAt: this.clock.date(),
      };
      row = await this.repo.insertCheckout(values);
      // Another request with the same key won the insert: answer its session.
      if (!row && idempotencyKey !== null) row = await this.repo.checkoutByKey(caller.userId, idempotencyKey);
      if (!row) throw new Error('checkout session insert answered nothing');
      if (row.requestHash !== requestHash) throw idempotencyReused();
    }
    if (row.processorSessionId === null || row.checkoutUrl === null) row = await this.openAtProcessor(row, view);
    return checkoutJson(row);
  }

  /** Creates the processor's session (idempotent on our session id, so concurrent or retried calls agree). */
  private async openAtProcessor(row: CheckoutRow, view: ProductView): Promise<CheckoutRow> {
    const processor = this.processorNamed(row.processor);
    const destination = processor.requiresPayoutAccount ? await this.repo.payoutAccount(row.artistId, processor.name) : null;
    try {
      const created = await processor.createCheckout({
        sessionId: row.id,
        amountCents: row.amountCents,
        currency: row.currency,
        productTitle: `${view.product.title} — ${view.artist.name}`,
        buyerUserId: row.userId,
        productId: row.productId,
        applicationFeeCents: row.platformFeeCents,
        destinationAccountId: destination,
        successUrl: `${this.baseUrl}/?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
        cancelUrl: `${this.baseUrl}/?checkout=cancelled`,
      });
      return await this.repo.setProcessorSession(row.id, created.processorSessionId, created.checkoutUrl);
    } catch (error) {
      if (error instanceof PaymentProcessorError) {
        throw new DomainError('unavailable', 'PAYMENTS_UNAVAILABLE', 'The payment processor could not open a checkout; retry with the same Idempotency-Key');
      }
      throw error;
    }
  }

  // ---- completion ----

  /** The sandbox page's "Pay": completes the session its signed token names. */
  async payInSandbox(processorSessionId: string, token: string | undefined) {
    // An invalid or expired token says nothing about whether the session exists.
    if (!this.processors.sandbox.verify('checkout', processorSessionId, token)) throw Errors.notFound('Checkout session', processorSessionId);
    const session = await this.repo.checkoutByProcessorId(processorSessionId);
    if (!session || session.processor !== 'sandbox') throw Errors.notFound('Checkout session', processorSessionId);
    return this.complete(session, processorSessionId);
  }

  /** What the sandbox page shows before paying. */
  async sandboxCheckoutPage(processorSessionId: string, token: string | undefined) {
    // An invalid or expired token says nothing about whether the session exists.
    if (!this.processors.sandbox.verify('checkout', processorSessionId, token)) throw Errors.notFound('Checkout session', processorSessionId);
    const session = await this.repo.checkoutByProcessorId(processorSessionId);
    if (!session) throw Errors.notFound('Checkout session', processorSessionId);
    const view = await this.repo.product(session.productId);
    return { session, view: view! };
  }

  /**
   * A verified Stripe webhook. Only a paid checkout.session.completed acts; anything else is acknowledged
   * and ignored. A notice for a session we do not know is acknowledged too (Stripe would retry forever).
   */
  async stripeWebhook(rawBody: Buffer, signature: string | undefined, log: StoreLog) {
    const stripe = this.processors.stripe;
    if (!stripe) throw Errors.notFound('Stripe webhook endpoint');
    const outcome = stripe.verifyWebhook(rawBody, signature);
    if (outcome.kind === 'ignored') return { received: true, order_id: null };
    if (outcome.kind === 'subscription_completed') {
      await this.subscriptions?.stripeSubscriptionCompleted(outcome.subscription, log);
      return { received: true, order_id: null };
    }
    if (outcome.kind === 'subscription_ended') {
      await this.subscriptions?.stripeSubscriptionEnded(outcome.subscription, log);
      return { received: true, order_id: null };
    }
    const { payment } = outcome;
    const session = await this.repo.checkoutByProcessorId(payment.processorSessionId);
    if (!session || session.processor !== 'stripe') {
      log.warn({ event_id: payment.reference }, 'stripe checkout.session.completed for an unknown session; ignored');
      return { received: true, order_id: null };
    }
    if (payment.amountCents !== session.amountCents || payment.currency.toLowerCase() !== session.currency) {
      log.error({ event_id: payment.reference, session_id: session.id }, 'stripe reports another amount than the session’s; no order created');
      return { received: true, order_id: null };
    }
    const order = await this.complete(session, payment.reference);
    return { received: true, order_id: order.id };
  }

  /**
   * The order of a paid session, created on the first completion only, and payment.success, recorded in the
   * webhooks' outbox in the order's transaction: a crash after the commit delays the event, never loses it. It
   * is recorded on every completion notice with the order's own timestamp, so it has one event id, which the
   * outbox keeps once (at least once, never twice). What runs after the commit is only a wake-up.
   */
  private async complete(session: CheckoutRow, reference: string): Promise<OrderRow> {
    // The order's artist is the session's.
    const seller = await this.repo.artistByIdOrSlug(session.artistId, session.environment);
    const { order, raised } = await this.repo.completeCheckout(session, reference, this.clock.date(), (tx, order) =>
      this.events.recordIn(tx, {
        event: 'payment.success',
        timestamp: order.createdAt.toISOString(),
        // The sandbox's order is heard by its webhooks, not the live ones; a demo store's order by the live
        // ones, with livemode false (no money moved).
        environment: order.environment,
        // Heard by the selling artist's owner and admins only (src/platform/webhooks/event-audience.ts).
        audience: { ownerUserId: seller?.ownerUserId ?? null },
        data: {
          order_id: order.id,
          user_id: order.userId,
          product_id: order.productId,
          amount: centsToPrice(order.amountCents),
          amount_cents: order.amountCents,
          currency: order.currency,
          livemode: order.livemode,
        },
      }),
    );
    await raised();
    return order;
  }
}

function idempotencyReused(): DomainError {
  return new DomainError(
    'conflict',
    'IDEMPOTENCY_KEY_REUSED',
    'This Idempotency-Key was used with another request body',
    'use a new key for a different checkout',
  );
}
