/** The store assembled for the composition root: the processor chosen by configuration, its services (products, checkout, purchases, payouts) and routes. */
import type { FastifyInstance } from 'fastify';
import type { BlobStore } from '../../infra/blobs/blob-store.js';
import type { UrlSigner } from '../../infra/blobs/url-signer.js';
import type { Clock } from '../../infra/clock/clock.js';
import type { Db } from '../../infra/db/client.js';
import type { TransactionalPlatformEvents } from '../webhooks/platform-events.js';
import type { PaymentProcessors } from '../../infra/payments/processors.js';
import { storeRoutes } from './routes.js';
import { StoreRepository, type SandboxTwins, type StoreCatalog } from './store.repository.js';
import { BuyerRepository, type BuyerCatalog } from './buyer.repository.js';
import { CheckoutService } from './checkout.service.js';
import { PayoutsService } from './payouts.service.js';
import { ProductsService } from './products.service.js';
import { PurchasesService, type UploadedMasters } from './purchases.service.js';
import { StoreArtists } from './store-artists.js';
import { DownloadFiles } from './download-files.js';
import type { StripeSubscriptionHandler } from './store.types.js';
import type { Environment } from '../../kernel/environment.js';

export interface StoreDeps {
  db: Db;
  /** The webhooks' outbox for payment.success, written in the order's transaction. */
  events: TransactionalPlatformEvents;
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
  /** The uploads' read port: a purchased track's uploaded master is what it downloads. */
  masters: UploadedMasters;
  /** The catalog's read port: sellers, the tracks and releases products hold, credits, payout lines' names. */
  catalog: StoreCatalog & BuyerCatalog;
  /** The artists group's port: the sandbox copies of a test key's owner's artists, made before it sells. */
  sandboxTwins: SandboxTwins;
}

export function buildStoreModule(deps: StoreDeps) {
  const { clock, processors, publicBaseUrl } = deps;
  const repo = new StoreRepository(deps.db, deps.catalog, deps.sandboxTwins);
  const buyers = new BuyerRepository(deps.db, deps.catalog);
  const artists = new StoreArtists(repo);
  const services = {
    products: new ProductsService(repo, artists, clock),
    checkout: new CheckoutService(repo, processors, deps.events, clock, publicBaseUrl, deps.subscriptions),
    purchases: new PurchasesService(buyers, processors, deps.signer, new DownloadFiles(deps.blobs), deps.masters),
    payouts: new PayoutsService(repo, artists, processors, publicBaseUrl),
  };
  return {
    ...services,
    /** Read port for purchase-unlocked capsules: a demo store's sandbox purchases count while STATION_STORE_SANDBOX_LIVE is on. */
    capsulePurchases: {
      productArtist: (productId: string) => buyers.productArtist(productId),
      hasBought: (userId: string, environment: Environment, artistId: string, productId: string | null) =>
        buyers.hasBought(userId, environment, artistId, productId, processors.sandboxLive),
    },
    /** Read port for a release's page: the active products that sell it. */
    releaseProducts: { productsOfAlbums: (albumIds: string[]) => repo.productsOfAlbums(albumIds) },
    routes: async (app: FastifyInstance) => {
      await app.register(storeRoutes(services));
    },
  };
}
