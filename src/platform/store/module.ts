/** The store assembled for the composition root: the processor chosen by configuration, its services (products, checkout, purchases, payouts) and routes. */
import type { Config } from '../../config.js';
import type { BlobStore } from '../../infra/blobs/blob-store.js';
import type { UrlSigner } from '../../infra/blobs/url-signer.js';
import type { Clock } from '../../infra/clock/clock.js';
import type { Database } from '../../infra/db/client.js';
import type { EventBus } from '../../infra/pubsub/event-bus.js';
import { createPaymentProcessors, type PaymentProcessors, type StripeEndpoint } from '../../infra/payments/processors.js';
import { storeRoutes } from './routes.js';
import { StoreRepository } from './store.repository.js';
import { BuyerRepository } from './buyer.repository.js';
import { CheckoutService } from './checkout.service.js';
import { PayoutsService } from './payouts.service.js';
import { ProductsService } from './products.service.js';
import { PurchasesService } from './purchases.service.js';
import { StoreArtists } from './store-artists.js';
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

export function buildStoreModule(deps: StoreDeps) {
  const { config, clock } = deps;
  const processors = deps.processors ?? createPaymentProcessors(config, clock, deps.stripeEndpoint);
  const repo = new StoreRepository(deps.database.db);
  const artists = new StoreArtists(repo);
  const services = {
    products: new ProductsService(repo, artists, clock),
    checkout: new CheckoutService(repo, processors, deps.bus, clock, config.publicBaseUrl, deps.subscriptions ?? null),
    purchases: new PurchasesService(new BuyerRepository(deps.database.db), processors, deps.signer, new DownloadFiles(deps.blobs)),
    payouts: new PayoutsService(repo, artists, processors, config.publicBaseUrl),
  };
  return { ...services, routes: storeRoutes(services) };
}
