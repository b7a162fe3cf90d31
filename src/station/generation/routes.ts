/** Module E (music generation) endpoints; module F's lyrics endpoints beside them are in lyrics/routes.ts. */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { GenerationService } from './generation.service.js';
import { IdParams } from '../../http/schemas.js';
import { GenerationRequestBody, GenerationView, QueueView } from './schemas.js';

const GenerationId = IdParams('generation_id');
const TAGS = ['station-generation'];

export function generationRoutes(generations: GenerationService) {
  return async function register(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const caller = (request: { principal: { userId: string | null; apiKeyId: string | null } | null }) =>
      request.principal?.userId ?? request.principal?.apiKeyId ?? null;

    app.post(
      '/station/v1/generate/track',
      {
        config: { scope: 'station:generate' },
        schema: {
          tags: TAGS,
          summary:
            'Starts a music generation; answers at once with generation_id (at most 4 in flight, else 429). While the first audio model is still being trained it stays pending (waiting_for_model, eta_seconds) until one is deployed; no model and none coming: 409',
          body: GenerationRequestBody,
          response: { 202: GenerationView },
        },
      },
      async (request, reply) => {
        const view = await generations.create({ quality: '128kbps', ...request.body }, caller(request));
        return reply.status(202).send(view);
      },
    );

    app.get(
      '/station/v1/generate/track/:generation_id',
      {
        config: { scope: 'station:generate' },
        schema: {
          tags: TAGS,
          summary: 'Polls a generation; the result fields appear when status is complete',
          params: GenerationId,
          response: { 200: GenerationView },
        },
      },
      async (request) => generations.get(request.params.generation_id),
    );

    app.post(
      '/station/v1/generate/track/:generation_id/regenerate',
      {
        config: { scope: 'station:admin' },
        schema: { tags: TAGS, summary: 'Same context, different seed: a new generation', params: GenerationId, response: { 202: GenerationView } },
      },
      async (request, reply) => reply.status(202).send(await generations.regenerate(request.params.generation_id, caller(request))),
    );

    app.delete(
      '/station/v1/generate/track/:generation_id',
      {
        config: { scope: 'station:generate' },
        schema: { tags: TAGS, summary: 'Cancels a pending generation (in progress: 409)', params: GenerationId, response: { 200: GenerationView } },
      },
      async (request) => generations.cancel(request.params.generation_id),
    );

    app.get(
      '/station/v1/generate/queue',
      {
        config: { scope: 'station:admin' },
        schema: { tags: TAGS, summary: 'Pending and running generations, estimated waits, worker and CPU load', response: { 200: QueueView } },
      },
      async () => generations.queueView(),
    );
  };
}
