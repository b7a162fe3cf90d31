/**
 * The demo (STATION_DEMO) for the composition root: the seed that fills an empty station in the background
 * (seeder.ts), and the three accounts to try the platform as, with the route that lists them (seed-accounts.ts).
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Db } from '../infra/db/client.js';
import { demoAccountsRoutes } from './demo-accounts.routes.js';
import { DemoAccounts, type DemoAccountsAuth } from './seed-accounts.js';
import { DemoSeeder, type DemoSeederDeps } from './seeder.js';

export interface DemoSeedModuleDeps extends DemoSeederDeps {
  /** Length of every demo master at full length (STATION_DEMO_TRACK_SEC). */
  trackSec: number;
}

/** The background seed: masters, models, catalog and store, in the order that puts an AI track on air soonest. */
export function buildDemoSeedModule({ trackSec, ...deps }: DemoSeedModuleDeps) {
  const seeder = new DemoSeeder(deps, trackSec);
  return {
    /** `seeder.done` resolves when its background work ends; tests await it. */
    seeder,
    start: () => seeder.start(),
    stop: () => seeder.stop(),
  };
}

export interface DemoAccountsModuleDeps {
  db: Db;
  auth: DemoAccountsAuth;
  /** The JWT key: shared by every instance of a station, so each derives the same passwords. */
  jwtKey: Buffer;
  log: FastifyBaseLogger;
}

/** A listener, an artist and an integrator to try the platform as, and GET /v1/demo/accounts that lists them. */
export function buildDemoAccountsModule({ db, auth, jwtKey, log }: DemoAccountsModuleDeps) {
  const accounts = new DemoAccounts(db, auth, jwtKey);
  return {
    routes: async (app: FastifyInstance) => {
      await app.register(demoAccountsRoutes(accounts));
    },
    /** Creates the accounts that are missing and logs the credentials of those made now. */
    start: () => accounts.seed(log),
  };
}
