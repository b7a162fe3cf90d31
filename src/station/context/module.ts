/**
 * Module D (context engine) for the composition root: the live context and its presets behind
 * /station/v1/context. Its rotation runs on the radio's leader only (context-rotator.ts), so modules.ts builds
 * the rotator once the radio, and its leader, exist.
 */
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../infra/clock/clock.js';
import type { Db } from '../../infra/db/client.js';
import { ContextRepository } from './context.repository.js';
import { ContextService } from './context.service.js';
import { contextRoutes } from './routes.js';

export interface ContextModuleDeps {
  db: Db;
  clock: Clock;
  /** How often the live context rotates (STATION_CONTEXT_ROTATION_SEC). */
  rotationSec: number;
}

export function buildContextModule({ db, clock, rotationSec }: ContextModuleDeps) {
  const repo = new ContextRepository(db);
  const service = new ContextService(repo, clock, rotationSec);
  return {
    repo,
    service,
    routes: async (app: FastifyInstance) => {
      await app.register(contextRoutes(service));
    },
  };
}

export type ContextModule = ReturnType<typeof buildContextModule>;
