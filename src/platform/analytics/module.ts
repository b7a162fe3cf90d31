/** Analytics assembled for the composition root: reports, the live feed (started and stopped with the app) and routes. */
import type { FastifyInstance } from 'fastify';
import type { LiveAccess } from '../../auth/connection-guard.js';
import type { Clock } from '../../infra/clock/clock.js';
import type { IntervalTimers } from '../../infra/clock/timers.js';
import type { Db } from '../../infra/db/client.js';
import type { EventBus } from '../../infra/pubsub/event-bus.js';
import { AnalyticsRepository } from './analytics.repository.js';
import { AnalyticsService } from './analytics.service.js';
import { LiveFeed } from './live-feed.js';
import { LiveFeedRepository } from './live-feed.repository.js';
import { analyticsRoutes } from './routes.js';

export interface AnalyticsOptions {
  /** Period of the SSE heartbeat comments (15 s by default; tests shorten it). */
  heartbeatMs?: number;
  timers?: IntervalTimers;
}

export interface AnalyticsDeps extends AnalyticsOptions {
  db: Db;
  bus: EventBus;
  clock: Clock;
  access: LiveAccess;
  /** The station's listener total now. */
  listeners: () => number;
  onError: (error: unknown) => void;
}

export function buildAnalyticsModule(deps: AnalyticsDeps) {
  const service = new AnalyticsService(new AnalyticsRepository(deps.db), deps.clock);
  const feed = new LiveFeed({
    repo: new LiveFeedRepository(deps.db),
    bus: deps.bus,
    clock: deps.clock,
    listeners: deps.listeners,
    heartbeatMs: deps.heartbeatMs,
    timers: deps.timers,
    onError: deps.onError,
  });
  return {
    service,
    feed,
    routes: async (app: FastifyInstance) => {
      await app.register(analyticsRoutes(service, feed, deps.access));
    },
    start: () => feed.start(),
    stop: () => feed.stop(),
  };
}
