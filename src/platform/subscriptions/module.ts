/** Pro subscriptions assembled for the composition root; the store's Stripe webhook hands it subscription sessions. */
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../infra/clock/clock.js';
import type { Db } from '../../infra/db/client.js';
import type { PaymentProcessors } from '../../infra/payments/processors.js';
import type { TransactionalPlatformEvents } from '../webhooks/platform-events.js';
import { subscriptionsRoutes } from './routes.js';
import { SubscriptionsRepository, type PlanWrites, type SubscriberReads } from './subscriptions.repository.js';
import { SubscriptionsService } from './subscriptions.service.js';

export interface SubscriptionsModuleDeps {
  db: Db;
  processors: PaymentProcessors;
  /** The webhooks' outbox for user.subscribed, written in the activation's transaction. */
  events: TransactionalPlatformEvents;
  clock: Clock;
  publicBaseUrl: string;
  /** Auth's writes of the plan on the user's row (auth owns `users`). */
  plans: PlanWrites;
  /** Auth's read of a subscriber's address and plan. */
  subscribers: SubscriberReads;
}

export function buildSubscriptionsModule(deps: SubscriptionsModuleDeps) {
  const service = new SubscriptionsService(
    new SubscriptionsRepository(deps.db, deps.plans, deps.subscribers),
    deps.processors,
    deps.events,
    deps.clock,
    deps.publicBaseUrl,
  );
  return {
    service,
    routes: async (app: FastifyInstance) => {
      await app.register(subscriptionsRoutes(service));
    },
  };
}
