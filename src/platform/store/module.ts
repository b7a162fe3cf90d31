/** The store assembled for the composition root: the processor chosen by configuration, its services (products, checkout, purchases, payouts) and routes. */
import type { FastifyInstance } from 'fastify';
import type { BlobStore } from '../../infra/blobs/blob-store.js';
import type { UrlSigner } from '../../infra/blobs/url-signer.js';
import type { Clock } from '../../infra/clock/clock.js';
import type { Db } from '../../infra/db/client.js';
import type { EventBus } from '../../infra/pubsub/event-bus.js';
import type { PaymentProcessors } from '../../infra/payments/processors.js';
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

export interface StoreDeps {
  db: Db;
  bus: EventBus;
  signer: UrlSigner;
  /** Where purchases' download files are (download-files.ts). */
  blobs: BlobStore;
  clock: Clock;
  /** Shared with the Pro subscriptions: the Stripe webhook serves both. */
  processors: PaymentProcessors;
  /** Where checkout and onboarding send the browser back to. */
  publicBaseUrl: string;
  /** Where the Stripe webhook sends subscription-mode sessions (src/platform/subscriptions). */
  subscriptions: StripeSubscriptionHandler;
}

export function buildStoreModule(deps: StoreDeps) {
  const { clock, processors, publicBaseUrl } = deps;
  const repo = new StoreRepository(deps.db);
  const artists = new StoreArtists(repo);
  const services = {
    products: new ProductsService(repo, artists, clock),
    checkout: new CheckoutService(repo, processors, deps.bus, clock, publicBaseUrl, deps.subscriptions),
    purchases: new PurchasesService(new BuyerRepository(deps.db), processors, deps.signer, new DownloadFiles(deps.blobs)),
    payouts: new PayoutsService(repo, artists, processors, publicBaseUrl),
  };
  return {
    ...services,
    routes: async (app: FastifyInstance) => {
      await app.register(storeRoutes(services));
    },
  };
}
