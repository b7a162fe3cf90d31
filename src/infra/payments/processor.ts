/**
 * The payment-processor port. The store (src/platform/store) decides prices, splits and orders; a processor
 * only takes the buyer's money and, for Connect-style processors, routes the artist's share. Two
 * implementations: the built-in sandbox (sandbox-processor.ts, never contacts anything) and Stripe
 * (stripe-processor.ts, chosen by STRIPE_SECRET_KEY). Secret keys stay inside the implementations.
 */
export type ProcessorName = 'sandbox' | 'stripe';

export interface CheckoutRequest {
  /** Our checkout session id: the processor's idempotency key, so a retried creation yields the same session. */
  sessionId: string;
  amountCents: number;
  currency: string;
  productTitle: string;
  buyerUserId: string;
  productId: string;
  /** Platform fee kept by us; the rest goes to `destinationAccountId` (a destination charge). */
  applicationFeeCents: number;
  destinationAccountId: string | null;
  successUrl: string;
  cancelUrl: string;
}

export interface CheckoutCreated {
  processorSessionId: string;
  /** The page the buyer visits to pay. */
  checkoutUrl: string;
}

export interface OnboardingRequest {
  artistId: string;
  /** The account made earlier for this artist, if any: onboarding resumes it. */
  existingAccountId: string | null;
  refreshUrl: string;
  returnUrl: string;
}

export interface OnboardingLink {
  accountId: string;
  url: string;
  expiresAt: Date | null;
}

/** A payment the processor reports complete. */
export interface CompletedPayment {
  /** The processor's id of this notice (Stripe event id); orders are idempotent on the session. */
  reference: string;
  processorSessionId: string;
  /** Our session id as we gave it to the processor (metadata / client_reference_id). */
  sessionId: string | null;
  amountCents: number;
  currency: string;
}

/** A recurring plan (Pro) for a user: a subscription-mode checkout, the platform's own revenue (no split). */
export interface SubscriptionCheckoutRequest {
  /** Our subscription id: the processor's idempotency key and the reference it reports back. */
  subscriptionId: string;
  userId: string;
  /** Pre-fills the processor's form. */
  email: string | null;
  plan: string;
  planTitle: string;
  amountCents: number;
  currency: string;
  interval: 'month' | 'year';
  successUrl: string;
  cancelUrl: string;
}

/** A subscription checkout the processor reports paid. */
export interface CompletedSubscription {
  /** The processor's id of this notice (Stripe event id). */
  reference: string;
  processorSessionId: string;
  /** Our subscription id as we gave it (metadata / client_reference_id). */
  subscriptionId: string | null;
  /** The processor's recurring subscription (Stripe sub_...). */
  processorSubscriptionId: string | null;
  amountCents: number;
  currency: string;
}

/** A subscription the processor reports ended (Stripe customer.subscription.deleted). */
export interface EndedSubscription {
  reference: string;
  processorSubscriptionId: string;
}

/**
 * How a cancellation takes effect: 'now' (the sandbox, which bills nothing, ends it at once) or
 * 'period_end' (Stripe: the user keeps what they paid for; the processor reports the end later).
 */
export type CancellationTiming = 'now' | 'period_end';

export interface PaymentProcessor {
  readonly name: ProcessorName;
  /** Whether an artist must have a payout account here before their products can be sold. */
  readonly requiresPayoutAccount: boolean;
  createCheckout(request: CheckoutRequest): Promise<CheckoutCreated>;
  createSubscriptionCheckout(request: SubscriptionCheckoutRequest): Promise<CheckoutCreated>;
  createOnboardingLink(request: OnboardingRequest): Promise<OnboardingLink>;
  /** Stops a paid subscription's renewals; `processorSubscriptionId` is null for the sandbox's. */
  cancelSubscription(processorSubscriptionId: string | null): Promise<CancellationTiming>;
}

/** A failure talking to the processor; its message is ours and safe to log (never the processor's raw text). */
export class PaymentProcessorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PaymentProcessorError';
  }
}

/** A webhook that does not verify (bad signature, too old, malformed). */
export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}
