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

export interface PaymentProcessor {
  readonly name: ProcessorName;
  /** Whether an artist must have a payout account here before their products can be sold. */
  readonly requiresPayoutAccount: boolean;
  createCheckout(request: CheckoutRequest): Promise<CheckoutCreated>;
  createOnboardingLink(request: OnboardingRequest): Promise<OnboardingLink>;
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
