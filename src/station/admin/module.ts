/**
 * Module A (station control) for the composition root: the station configuration, the status summary, and
 * the safety filter's dry run, behind /station/v1/admin. The status reads the radio and module C through the
 * narrow ports of status-ports.ts, so it is built after them.
 */
import type { FastifyInstance } from 'fastify';
import type { Engine } from '../../engine/engine.js';
import type { Clock } from '../../infra/clock/clock.js';
import type { EventBus } from '../../infra/pubsub/event-bus.js';
import type { RadioStatus } from '../events/now-playing.js';
import type { StationEvents } from '../events/station-events.js';
import type { ModelStore } from '../models/model-store.js';
import type { SafetyReferenceStore } from '../safety/safety-reference.js';
import type { ConfigRepository } from './config.repository.js';
import { StationConfigService } from './config.service.js';
import { adminRoutes } from './routes.js';
import { SafetyTestService, type CatalogFeaturesRead } from './safety-test.service.js';
import type { TrainingStatusSource } from './status-ports.js';
import { StationStatusService } from './status.service.js';

export interface StationAdminModuleDeps {
  bus: EventBus;
  clock: Clock;
  engine: Engine;
  events: StationEvents;
  /** The configuration's repository, made first: most modules read the configuration through it. */
  stationConfig: ConfigRepository;
  models: ModelStore;
  safetyReference: SafetyReferenceStore;
  /** When this station process started (ms since the epoch): uptime counts from here. */
  startedAt: number;
  /** The scheduler's view of the radio. */
  radio: RadioStatus;
  /** Module C's training jobs, summed up. */
  training: TrainingStatusSource;
  /** Module E's read port: generations pending or in progress. */
  generationQueueDepth: () => Promise<number>;
  /** Module G's read port: safety flags raised since a moment. */
  safetyFlagsSince: (since: Date) => Promise<number>;
  /** Module G applies a changed report_threshold to the tracks already in its review queue. */
  reportThresholdChanged: (threshold: number) => Promise<unknown>;
  /** The catalog's read port: the safety test's catalog track features. */
  catalogFeatures: CatalogFeaturesRead;
}

export function buildStationAdminModule(deps: StationAdminModuleDeps) {
  const services = {
    config: new StationConfigService(deps.stationConfig, deps.events, deps.bus, deps.clock, deps.reportThresholdChanged),
    status: new StationStatusService({
      config: deps.stationConfig,
      generationQueueDepth: deps.generationQueueDepth,
      safetyFlagsSince: deps.safetyFlagsSince,
      models: deps.models,
      engine: deps.engine,
      clock: deps.clock,
      startedAt: deps.startedAt,
      radio: deps.radio,
      training: deps.training,
    }),
    safetyTest: new SafetyTestService(deps.engine, deps.safetyReference, deps.stationConfig, deps.catalogFeatures),
  };
  return {
    ...services,
    routes: async (app: FastifyInstance) => {
      await app.register(adminRoutes(services));
    },
  };
}

export type StationAdminModule = ReturnType<typeof buildStationAdminModule>;
