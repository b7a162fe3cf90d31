/** GET /station/v1/radio/listeners/history: the listener count per minute, for charts. */
import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { ListenerHistory } from './listener-history.js';

const HistoryQuery = Type.Object({
  hours: Type.Integer({ minimum: 1, maximum: 720, default: 24, description: 'how far back (at most 30 days)' }),
});

const HistoryAnswer = Type.Object({
  data: Type.Array(
    Type.Object({
      at: Type.String({ format: 'date-time', description: 'the start of the minute' }),
      listeners: Type.Integer({ description: 'the highest station-wide count seen in that minute' }),
    }),
  ),
});

export function listenerHistoryRoutes(history: ListenerHistory) {
  return async function register(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    app.get(
      '/station/v1/radio/listeners/history',
      {
        config: { scope: 'station:read' },
        schema: {
          tags: ['station-radio'],
          summary: 'The listener count per minute over the last hours (default 24), oldest first; minutes with no sample are absent',
          querystring: HistoryQuery,
          response: { 200: HistoryAnswer },
        },
      },
      async (request) => ({ data: await history.last(request.query.hours) }),
    );
  };
}
