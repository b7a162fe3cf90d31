/** Module A (station control) endpoints; every one needs station:admin. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { invalidConfig, type StationConfigService } from './config.service.js';
import type { SafetyTestService } from './safety-test.service.js';
import type { StationStatusService } from './status.service.js';
import { DisableBody, RadioSwitchView, SafetyTestBody, StationConfigPatchBody, StationConfigView, StationStatusView, SafetyTestView } from './schemas.js';

const TAGS = ['station-admin'];
/** Spec limit: 60 config updates per minute. */
const CONFIG_PATCH_LIMIT = { max: 60, timeWindow: 60_000 };

export interface AdminServices {
  config: StationConfigService;
  status: StationStatusService;
  safetyTest: SafetyTestService;
}

const callerOf = (request: FastifyRequest) => request.principal?.userId ?? request.principal?.apiKeyId ?? null;

export function adminRoutes({ config, status, safetyTest }: AdminServices) {
  return async function register(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.get(
      '/station/v1/admin/config',
      { config: { scope: 'station:admin' }, schema: { tags: TAGS, summary: 'The station configuration', response: { 200: StationConfigView } } },
      async () => config.get(),
    );

    app.patch(
      '/station/v1/admin/config',
      {
        config: { scope: 'station:admin', rateLimit: CONFIG_PATCH_LIMIT },
        // A body that does not fit the schema (unknown field, enum, range) is an invalid configuration too.
        attachValidation: true,
        schema: {
          tags: TAGS,
          summary: 'Partial update of the configuration; applies on the next scheduler cycle (60 per minute)',
          description:
            'Any violation answers 400 STATION_INVALID_CONFIG and changes nothing. radio_enabled can only be switched ' +
            'through POST /station/v1/admin/radio/enable and /disable.',
          body: StationConfigPatchBody,
          response: { 200: StationConfigView },
        },
      },
      async (request) => {
        if (request.validationError) throw invalidConfig(request.validationError.message);
        return config.update(request.body);
      },
    );

    app.post(
      '/station/v1/admin/radio/enable',
      {
        config: { scope: 'station:admin' },
        schema: {
          tags: TAGS,
          summary: 'Puts the station on air (409 STATION_RADIO_ALREADY_ENABLED when it is on); emits station.radio.enabled',
          response: { 200: RadioSwitchView },
        },
      },
      async (request) => config.enable(callerOf(request)),
    );

    app.post(
      '/station/v1/admin/radio/disable',
      {
        config: { scope: 'station:admin' },
        schema: {
          tags: TAGS,
          summary: 'Takes the station off air after the current track (409 STATION_CONFLICT when already off); emits station.radio.disabled',
          body: DisableBody,
          response: { 200: RadioSwitchView },
        },
      },
      async (request) => config.disable(request.body.reason, callerOf(request)),
    );

    app.get(
      '/station/v1/admin/status',
      {
        config: { scope: 'station:admin' },
        schema: {
          tags: TAGS,
          summary: 'Radio, listeners, current track, queues, training, models, safety and ML service health',
          response: { 200: StationStatusView },
        },
      },
      async () => status.status(),
    );

    app.post(
      '/station/v1/admin/safety/test',
      {
        config: { scope: 'station:admin' },
        schema: {
          tags: TAGS,
          summary: 'Runs the safety filter on test lyrics and/or audio features; returns the safety score and flagged categories',
          body: SafetyTestBody,
          response: { 200: SafetyTestView },
        },
      },
      async (request) => safetyTest.run(request.body),
    );
  };
}
