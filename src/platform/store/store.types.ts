/** What the store service takes: its callers, inputs, processors, and the hooks other modules give it. */
import type { CompletedSubscription, EndedSubscription } from '../../infra/payments/processor.js';
import { DomainError } from '../../errors.js';
import type { Environment } from '../../kernel/environment.js';
import type { ProductRow } from './store.repository.js';
import type { Currency } from './store.views.js';

export interface StoreCaller {
  userId: string | null;
  isAdmin: boolean;
  apiKeyId: string | null;
  /** The caller's data space: a test key sees, sells and buys the sandbox's products only (its artists' products). */
  environment: Environment;
}

export interface ProductInput {
  title?: string;
  type?: ProductRow['type'];
  price: number;
  currency?: Currency;
  track_ids?: string[];
  artist_id?: string;
  /** A release of the artist (id or slug): the product sells it, and its title, type and tracks are the defaults. */
  album_id?: string;
}

export interface ProductPatch {
  title?: string;
  price?: number;
  status?: ProductRow['status'];
  track_ids?: string[];
}

export interface CheckoutInput {
  product_id: string;
  price: number;
  user_id: string;
}

/**
 * 503 for a live payment on a server with no live processor: without Stripe, the sandbox completes live payments
 * only for a demo store the operator opted in to (STATION_STORE_SANDBOX_LIVE), never by default.
 */
export function noLivePaymentProcessor(what: string): DomainError {
  return new DomainError(
    'unavailable',
    'PAYMENTS_UNAVAILABLE',
    `${what} cannot be paid on this server: no payment processor is configured`,
    'the operator sets STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET (or STATION_STORE_SANDBOX_LIVE=true for a demo store whose payments are never real); test keys pay in the sandbox',
  );
}

/** Handles the subscription-mode sessions the Stripe webhook receives (src/platform/subscriptions). */
export interface StripeSubscriptionHandler {
  stripeSubscriptionCompleted(completed: CompletedSubscription, log: StoreLog): Promise<void>;
  stripeSubscriptionEnded(ended: EndedSubscription, log: StoreLog): Promise<void>;
}

export interface StoreLog {
  error(object: Record<string, unknown>, message: string): void;
  warn(object: Record<string, unknown>, message: string): void;
  info(object: Record<string, unknown>, message: string): void;
}
