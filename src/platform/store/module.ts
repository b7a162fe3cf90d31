/** The store assembled for the composition root: the processor chosen by configuration, service and routes. */
import type { Config } from '../../config.js';
import type { UrlSigner } from '../../infra/blobs/url-signer.js';
import type { Clock } from '../../infra/clock/clock.js';
import type { Database } from '../../infra/db/client.js';
import type { EventBus } from '../../infra/pubsub/event-bus.js';
import { SandboxProcessor } from '../../infra/payments/sandbox-processor.js';
import { StripeProcessor, type StripeOptions } from '../../infra/payments/stripe-processor.js';
import { loadOrCreateSecret } from '../../infra/secrets.js';
import { storeRoutes } from './routes.js';
import { StoreRepository } from './store.repository.js';
import { StoreService } from './store.service.js';

export type StripeEndpoint = NonNullable<StripeOptions['endpoint']>;

export interface StoreDeps {
  config: Config;
  database: Database;
  bus: EventBus;
  signer: UrlSigner;
  clock: Clock;
  stripeEndpoint?: StripeEndpoint;
}

export function createStore(deps: StoreDeps) {
  const { config, clock } = deps;
  const sandbox = new SandboxProcessor(loadOrCreateSecret(config.dataDir, 'payments-sandbox', null), config.publicBaseUrl, clock);
  const stripe = config.stripe
    ? new StripeProcessor({ secretKey: config.stripe.secretKey, webhookSecret: config.stripe.webhookSecret, clock, endpoint: deps.stripeEndpoint })
    : null;
  const service = new StoreService(new StoreRepository(deps.database.db), { sandbox, stripe }, deps.bus, deps.signer, clock, config.publicBaseUrl);
  return { service, routes: storeRoutes(service) };
}
