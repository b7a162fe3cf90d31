/**
 * The payment processors of this deployment, built once and shared by the store and the subscriptions: the
 * sandbox always (test keys, and the default), Stripe when STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set.
 */
import type { Config } from '../../config.js';
import type { Clock } from '../clock/clock.js';
import { loadOrCreateSecret } from '../secrets.js';
import { SandboxProcessor } from './sandbox-processor.js';
import { StripeProcessor, type StripeOptions } from './stripe-processor.js';

export type StripeEndpoint = NonNullable<StripeOptions['endpoint']>;

export interface PaymentProcessors {
  sandbox: SandboxProcessor;
  stripe: StripeProcessor | null;
}

export function createPaymentProcessors(config: Pick<Config, 'dataDir' | 'publicBaseUrl' | 'stripe'>, clock: Clock, stripeEndpoint?: StripeEndpoint): PaymentProcessors {
  const sandbox = new SandboxProcessor(loadOrCreateSecret(config.dataDir, 'payments-sandbox', null), config.publicBaseUrl, clock);
  const stripe = config.stripe
    ? new StripeProcessor({ secretKey: config.stripe.secretKey, webhookSecret: config.stripe.webhookSecret, clock, endpoint: stripeEndpoint })
    : null;
  return { sandbox, stripe };
}
