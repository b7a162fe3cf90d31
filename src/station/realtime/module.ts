/**
 * The station's WebSocket channels for the composition root: the hub and its bus feeds (realtime.ts), the
 * listener-count history behind GET /station/v1/radio/listeners/history, and their routes. Who listens
 * (`buildListeners`) is made before the radio, which counts its stream listeners there; this module is built
 * after the radio, whose current card it shows to a client that joins before any card came over the bus.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { LiveAccess } from '../../auth/connection-guard.js';
import type { Clock } from '../../infra/clock/clock.js';
import { systemTimers, type IntervalTimers } from '../../infra/clock/timers.js';
import type { Db } from '../../infra/db/client.js';
import type { EventBus } from '../../infra/pubsub/event-bus.js';
import { ListenerHistory } from './listener-history.js';
import { listenerHistoryRoutes } from './listener-history.routes.js';
import { StationRealtime, type Listeners, type RealtimeDeps } from './realtime.js';
import { realtimeRoutes } from './routes.js';

export interface RealtimeModuleDeps {
  db: Db;
  bus: EventBus;
  clock: Clock;
  listenerBroadcastSec: number;
  /** Repeating timers of the channels and the history (tests fire them by hand); real ones by default. */
  timers?: IntervalTimers;
  access: Pick<LiveAccess, 'hold' | 'admit'>;
  listeners: Listeners;
  currentCard: RealtimeDeps['currentCard'];
  log: FastifyBaseLogger;
}

export function buildRealtimeModule(deps: RealtimeModuleDeps) {
  const realtime = new StationRealtime({
    bus: deps.bus,
    clock: deps.clock,
    listenerBroadcastSec: deps.listenerBroadcastSec,
    timers: deps.timers,
    access: deps.access,
    listeners: deps.listeners,
    currentCard: deps.currentCard,
    log: deps.log,
  });
  const history = new ListenerHistory(deps.db, deps.clock, deps.timers ?? systemTimers, () => deps.listeners.counter.total());
  return {
    realtime,
    history,
    routes: async (app: FastifyInstance) => {
      await app.register(realtimeRoutes(realtime));
      await app.register(listenerHistoryRoutes(history));
    },
    start: async () => {
      await realtime.start();
      history.start(deps.log);
    },
    stop: async () => {
      history.stop();
      await realtime.stop();
    },
  };
}
