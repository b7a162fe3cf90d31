/**
 * The payment processors of this deployment, built once and shared by the store and the subscriptions: the
 * sandbox always (test keys, the sandbox's data space, and the demo store), Stripe when STRIPE_SECRET_KEY and
 * STRIPE_WEBHOOK_SECRET are set.
 *
 * Which one takes a payment (processorFor): the sandbox's data space always pays in the sandbox; the live one
 * pays through Stripe, or through the sandbox only when the operator opted in to a demo store
 * (STATION_STORE_SANDBOX_LIVE). A sandbox payment is never live money: `livemode` is true only for Stripe.
 */
import type { Config } from '../../config.js';
import type { Clock } from '../clock/clock.js';
import { loadOrCreateSecret } from '../secrets.js';
import type { PaymentProcessor } from './processor.js';
import { SandboxProcessor } from './sandbox-processor.js';
import { StripeProcessor, type StripeOptions } from './stripe-processor.js';
import type { Environment } from '../../kernel/environment.js';

export type StripeEndpoint = NonNullable<StripeOptions['endpoint']>;

export interface PaymentProcessors {
  sandbox: SandboxProcessor;
  stripe: StripeProcessor | null;
  /** Live payments may complete through the sandbox when Stripe is not configured (a demo store). */
  sandboxLive: boolean;
}

/** Who takes a payment and whether it is real money; null: live payments have no processor here. */
export type ProcessorChoice = { processor: PaymentProcessor; livemode: boolean } | null;

export function processorFor(processors: PaymentProcessors, environment: Environment): ProcessorChoice {
  if (environment === 'test') return { processor: processors.sandbox, livemode: false };
  if (processors.stripe) return { processor: processors.stripe, livemode: true };
  return processors.sandboxLive ? { processor: processors.sandbox, livemode: false } : null;
}

export function createPaymentProcessors(
  config: Pick<Config, 'dataDir' | 'publicBaseUrl' | 'stripe' | 'storeSandboxLive'>,
  clock: Clock,
  stripeEndpoint?: StripeEndpoint,
): PaymentProcessors {
  const sandbox = new SandboxProcessor(loadOrCreateSecret(config.dataDir, 'payments-sandbox', null), config.publicBaseUrl, clock);
  const stripe = config.stripe
    ? new StripeProcessor({ secretKey: config.stripe.secretKey, webhookSecret: config.stripe.webhookSecret, clock, endpoint: stripeEndpoint })
    : null;
  return { sandbox, stripe, sandboxLive: config.storeSandboxLive };
}
