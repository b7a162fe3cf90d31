/**
 * Stripe, through the official SDK: Checkout Sessions as destination charges (the artist's Connect account
 * receives the payment less application_fee_amount, our 15%), Checkout Sessions in subscription mode for the
 * Pro plan, Connect Express onboarding through Account Links, and webhook verification of Stripe-Signature (constructEvent, 300 s tolerance). The secret key
 * lives in the SDK client only; errors are rethrown with our own text, never the SDK's (which may echo
 * request data).
 */
import Stripe from 'stripe';
import type { Clock } from '../clock/clock.js';
import {
  PaymentProcessorError,
  WebhookVerificationError,
  type CheckoutCreated,
  type CheckoutRequest,
  type CompletedPayment,
  type CompletedSubscription,
  type CancellationTiming,
  type EndedSubscription,
  type OnboardingLink,
  type OnboardingRequest,
  type PaymentProcessor,
  type SubscriptionCheckoutRequest,
} from './processor.js';

/** Stripe's default, stated here so it is ours to see: a signature older than this is refused. */
export const STRIPE_WEBHOOK_TOLERANCE_SEC = 300;

export interface StripeOptions {
  secretKey: string;
  webhookSecret: string;
  clock: Clock;
  /** Where the API is (tests point it at a local server); api.stripe.com over HTTPS by default. */
  endpoint?: { host: string; port: number; protocol: 'http' | 'https' };
}

export type StripeWebhookOutcome =
  | { kind: 'completed'; payment: CompletedPayment }
  | { kind: 'subscription_completed'; subscription: CompletedSubscription }
  | { kind: 'subscription_ended'; subscription: EndedSubscription }
  | { kind: 'ignored'; type: string; id: string };

export class StripeProcessor implements PaymentProcessor {
  readonly name = 'stripe' as const;
  readonly requiresPayoutAccount = true;
  private readonly client: Stripe;

  constructor(private readonly options: StripeOptions) {
    this.client = new Stripe(options.secretKey, {
      maxNetworkRetries: 2,
      timeout: 20_000,
      telemetry: false,
      ...(options.endpoint ? { host: options.endpoint.host, port: options.endpoint.port, protocol: options.endpoint.protocol } : {}),
    });
  }

  async createCheckout(request: CheckoutRequest): Promise<CheckoutCreated> {
    if (!request.destinationAccountId) throw new PaymentProcessorError('a Stripe checkout needs the artist’s connected account');
    try {
      const session = await this.client.checkout.sessions.create(
        {
          mode: 'payment',
          line_items: [
            {
              quantity: 1,
              price_data: { currency: request.currency, unit_amount: request.amountCents, product_data: { name: request.productTitle } },
            },
          ],
          client_reference_id: request.sessionId,
          metadata: { session_id: request.sessionId, product_id: request.productId, user_id: request.buyerUserId },
          payment_intent_data: {
            application_fee_amount: request.applicationFeeCents,
            transfer_data: { destination: request.destinationAccountId },
            metadata: { session_id: request.sessionId },
          },
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
        },
        { idempotencyKey: `checkout-${request.sessionId}` },
      );
      if (!session.url) throw new PaymentProcessorError('Stripe answered a checkout session without a URL');
      return { processorSessionId: session.id, checkoutUrl: session.url };
    } catch (error) {
      throw asProcessorError('creating a Stripe checkout session failed', error);
    }
  }

  /** A Checkout Session in subscription mode: the price recurs each interval; the platform keeps it all. */
  async createSubscriptionCheckout(request: SubscriptionCheckoutRequest): Promise<CheckoutCreated> {
    const metadata = { subscription_id: request.subscriptionId, user_id: request.userId, plan: request.plan };
    try {
      const session = await this.client.checkout.sessions.create(
        {
          mode: 'subscription',
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: request.currency,
                unit_amount: request.amountCents,
                recurring: { interval: request.interval },
                product_data: { name: request.planTitle },
              },
            },
          ],
          client_reference_id: request.subscriptionId,
          metadata,
          subscription_data: { metadata },
          ...(request.email ? { customer_email: request.email } : {}),
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
        },
        { idempotencyKey: `subscription-${request.subscriptionId}` },
      );
      if (!session.url) throw new PaymentProcessorError('Stripe answered a checkout session without a URL');
      return { processorSessionId: session.id, checkoutUrl: session.url };
    } catch (error) {
      throw asProcessorError('creating a Stripe subscription checkout failed', error);
    }
  }

  /** Cancels at the end of the paid period, as customers expect; Stripe sends customer.subscription.deleted then. */
  async cancelSubscription(processorSubscriptionId: string | null): Promise<CancellationTiming> {
    if (!processorSubscriptionId) throw new PaymentProcessorError('a Stripe subscription without its sub_ id cannot be cancelled');
    try {
      await this.client.subscriptions.update(processorSubscriptionId, { cancel_at_period_end: true }, { idempotencyKey: `cancel-${processorSubscriptionId}` });
      return 'period_end';
    } catch (error) {
      throw asProcessorError('cancelling a Stripe subscription failed', error);
    }
  }

  async createOnboardingLink(request: OnboardingRequest): Promise<OnboardingLink> {
    try {
      const accountId =
        request.existingAccountId ??
        (
          await this.client.accounts.create(
            { type: 'express', metadata: { artist_id: request.artistId } },
            { idempotencyKey: `connect-account-${request.artistId}` },
          )
        ).id;
      const link = await this.client.accountLinks.create({
        account: accountId,
        refresh_url: request.refreshUrl,
        return_url: request.returnUrl,
        type: 'account_onboarding',
      });
      return { accountId, url: link.url, expiresAt: new Date(link.expires_at * 1000) };
    } catch (error) {
      throw asProcessorError('creating a Stripe onboarding link failed', error);
    }
  }

  /**
   * Verifies a webhook's Stripe-Signature over the raw body (HMAC-SHA256 with STRIPE_WEBHOOK_SECRET, at most
   * 300 s old by our clock) and reads what the store (payment-mode sessions) or the subscriptions (subscription-mode sessions, and
   * customer.subscription.deleted: a subscription that ended) act on.
   */
  verifyWebhook(rawBody: Buffer, signature: string | undefined): StripeWebhookOutcome {
    if (!signature) throw new WebhookVerificationError('missing Stripe-Signature header');
    let event: Stripe.Event;
    try {
      event = this.client.webhooks.constructEvent(
        rawBody,
        signature,
        this.options.webhookSecret,
        STRIPE_WEBHOOK_TOLERANCE_SEC,
        undefined,
        // receivedAt is in milliseconds (the SDK divides by 1000); our clock, so tests can drive it.
        this.options.clock.now(),
      );
    } catch {
      throw new WebhookVerificationError('the Stripe-Signature does not verify, or its timestamp is outside the 300 s tolerance');
    }
    if (event.type === 'customer.subscription.deleted') {
      const subscription = event.data.object as Stripe.Subscription;
      return { kind: 'subscription_ended', subscription: { reference: event.id, processorSubscriptionId: subscription.id } };
    }
    if (event.type !== 'checkout.session.completed' && event.type !== 'checkout.session.async_payment_succeeded') {
      return { kind: 'ignored', type: event.type, id: event.id };
    }
    const session = event.data.object as Stripe.Checkout.Session;
    if (session.payment_status !== 'paid' && session.payment_status !== 'no_payment_required') {
      return { kind: 'ignored', type: `${event.type} (${session.payment_status})`, id: event.id };
    }
    if (session.mode === 'subscription') {
      const subscription = typeof session.subscription === 'string' ? session.subscription : (session.subscription?.id ?? null);
      return {
        kind: 'subscription_completed',
        subscription: {
          reference: event.id,
          processorSessionId: session.id,
          subscriptionId: session.metadata?.subscription_id ?? session.client_reference_id ?? null,
          processorSubscriptionId: subscription,
          amountCents: session.amount_total ?? 0,
          currency: session.currency ?? '',
        },
      };
    }
    return {
      kind: 'completed',
      payment: {
        reference: event.id,
        processorSessionId: session.id,
        sessionId: session.metadata?.session_id ?? session.client_reference_id ?? null,
        amountCents: session.amount_total ?? 0,
        currency: session.currency ?? '',
      },
    };
  }
}

function asProcessorError(message: string, error: unknown): PaymentProcessorError {
  if (error instanceof PaymentProcessorError) return error;
  // The SDK's error type and code are safe to keep for the log; its message may quote request parameters.
  const detail =
    error instanceof Stripe.errors.StripeError ? ` (${error.type}${error.code ? `, ${error.code}` : ''}, status ${error.statusCode ?? 'none'})` : '';
  return new PaymentProcessorError(`${message}${detail}`);
}
