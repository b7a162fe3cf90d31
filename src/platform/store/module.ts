/** The store assembled for the composition root: the processor chosen by configuration, service and routes. */
import type { Config } from '../../config.js';
import type { BlobStore } from '../../infra/blobs/blob-store.js';
import type { UrlSigner } from '../../infra/blobs/url-signer.js';
import type { Clock } from '../../infra/clock/clock.js';
import type { Database } from '../../infra/db/client.js';
import type { EventBus } from '../../infra/pubsub/event-bus.js';
import { createPaymentProcessors, type PaymentProcessors, type StripeEndpoint } from '../../infra/payments/processors.js';
import { storeRoutes } from './routes.js';
import { StoreRepository } from './store.repository.js';
import { StoreService } from './store.service.js';
import { DownloadFiles } from './download-files.js';
import type { StripeSubscriptionHandler } from './store.types.js';

export type { StripeEndpoint };

export interface StoreDeps {
  config: Config;
  database: Database;
  bus: EventBus;
  signer: UrlSigner;
  /** Where purchases' download files are (download-files.ts). */
  blobs: BlobStore;
  clock: Clock;
  stripeEndpoint?: StripeEndpoint;
  /** The processors, when shared with other modules (subscriptions); built here otherwise. */
  processors?: PaymentProcessors;
  /** Where the Stripe webhook sends subscription-mode sessions (src/platform/subscriptions). */
  subscriptions?: StripeSubscriptionHandler;
}

export function createStore(deps: StoreDeps) {
  const { config, clock } = deps;
  const processors = deps.processors ?? createPaymentProcessors(config, clock, deps.stripeEndpoint);
  const service = new StoreService(new StoreRepository(deps.database.db), processors, deps.bus, deps.signer, new DownloadFiles(deps.blobs), clock, config.publicBaseUrl, deps.subscriptions ?? null);
  return { service, routes: storeRoutes(service) };
}
