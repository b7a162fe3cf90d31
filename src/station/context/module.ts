/**
 * Module D (context engine) for the composition root: the live context and its presets behind
 * /station/v1/context. Its rotation runs on the radio's leader only (context-rotator.ts), so it is a second
 * factory, which modules.ts calls once the radio, and its leader, exist.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Clock } from '../../infra/clock/clock.js';
import type { Db } from '../../infra/db/client.js';
import { ContextRotator } from './context-rotator.js';
import { ContextRepository } from './context.repository.js';
import { ContextService, type ContextSessions } from './context.service.js';
import { contextRoutes } from './routes.js';

export interface ContextModuleDeps {
  db: Db;
  clock: Clock;
  /** How often the live context rotates (STATION_CONTEXT_ROTATION_SEC). */
  rotationSec: number;
  /** Module E's read port: the generations made under each context, by radio session (the context history). */
  sessionsOf: ContextSessions;
}

export function buildContextModule({ db, clock, rotationSec, sessionsOf }: ContextModuleDeps) {
  const repo = new ContextRepository(db);
  const service = new ContextService(repo, clock, rotationSec, sessionsOf);
  return {
    repo,
    service,
    routes: async (app: FastifyInstance) => {
      await app.register(contextRoutes(service));
    },
  };
}

export type ContextModule = ReturnType<typeof buildContextModule>;

export interface ContextRotationDeps {
  context: Pick<ContextModule, 'service' | 'repo'>;
  clock: Clock;
  /** Whether this instance leads the station's background work (the radio scheduler's election). */
  isLeader: () => boolean | Promise<boolean>;
  log: FastifyBaseLogger;
}

/** The live context's auto-rotation: ticks on every instance, rotates on the leader only. */
export function buildContextRotationModule({ context, clock, isLeader, log }: ContextRotationDeps) {
  const rotator = new ContextRotator({ contexts: context.service, repo: context.repo, clock, isLeader, log });
  return {
    rotator,
    start: async () => rotator.start(),
    stop: () => rotator.stop(),
  };
}
