/** Module D (context engine) endpoints. */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { IdParams, PageQuery } from '../../http/schemas.js';
import type { ContextService } from './context.service.js';
import { ContextPatchBody, ContextView, HistoryPage, PresetBody, PresetPage, PresetView } from './schemas.js';

const TAGS = ['station-context'];
const PresetId = IdParams('preset_id');

export function contextRoutes(contexts: ContextService) {
  return async function register(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.get(
      '/station/v1/context/current',
      {
        config: { scope: 'station:read' },
        schema: {
          tags: TAGS,
          summary: 'The active context that drives every generation; rotates every 30 minutes (auto_rotate) or on a manual override',
          response: { 200: ContextView },
        },
      },
      async () => contexts.currentView(),
    );

    app.patch(
      '/station/v1/context/current',
      {
        config: { scope: 'station:admin' },
        schema: {
          tags: TAGS,
          summary: 'Overrides context fields; the very next generation request uses the result',
          body: ContextPatchBody,
          response: { 200: ContextView },
        },
      },
      async (request) => contexts.override(request.body),
    );

    app.post(
      '/station/v1/context/presets',
      {
        config: { scope: 'station:admin' },
        schema: {
          tags: TAGS,
          summary: 'Saves a named context preset (409 when the name is taken)',
          body: PresetBody,
          response: { 201: PresetView },
        },
      },
      async (request, reply) => reply.status(201).send(await contexts.createPreset(request.body)),
    );

    app.get(
      '/station/v1/context/presets',
      {
        config: { scope: 'station:admin' },
        schema: { tags: TAGS, summary: 'Context presets by name', querystring: PageQuery, response: { 200: PresetPage } },
      },
      async (request) => contexts.listPresets(request.query),
    );

    app.post(
      '/station/v1/context/presets/:preset_id/activate',
      {
        config: { scope: 'station:admin' },
        schema: {
          tags: TAGS,
          summary: 'Makes the preset the current context immediately; answers the new current context',
          params: PresetId,
          response: { 200: ContextView },
        },
      },
      async (request) => contexts.activatePreset(request.params.preset_id),
    );

    app.get(
      '/station/v1/context/history',
      {
        config: { scope: 'station:admin' },
        schema: {
          tags: TAGS,
          summary: 'Contexts of the last 30 days, newest first, each with the generation sessions that used it',
          querystring: PageQuery,
          response: { 200: HistoryPage },
        },
      },
      async (request) => contexts.history(request.query),
    );
  };
}
