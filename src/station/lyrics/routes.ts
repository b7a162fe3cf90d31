/** Module F's endpoints: lyrics generated at once, or accepted while the first lyrics model is on its way. */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { IdParams } from '../../http/schemas.js';
import type { LyricsService } from './lyrics.service.js';
import { LyricsRequestBody, LyricsView, SafetyCheckView } from './schemas.js';

const LyricId = IdParams('lyric_id');
/** Documented with the generation endpoints they sit beside. */
const TAGS = ['station-generation'];

export function lyricsRoutes(lyrics: LyricsService) {
  return async function register(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const caller = (request: { principal: { userId: string | null; apiKeyId: string | null } | null }) =>
      request.principal?.userId ?? request.principal?.apiKeyId ?? null;

    app.post(
      '/station/v1/generate/lyrics',
      {
        config: { scope: 'station:generate' },
        schema: {
          tags: TAGS,
          summary:
            'Generates lyrics synchronously in the requested structure, with their safety score (201). While the first lyrics model is still being trained the request is accepted pending (202) and generated when it is deployed; poll GET /generate/lyrics/{lyric_id}. No model and none coming: 409',
          body: LyricsRequestBody,
          response: { 201: LyricsView, 202: LyricsView },
        },
      },
      async (request, reply) => {
        const view = await lyrics.create(request.body, caller(request));
        return reply.status(view.status === 'complete' ? 201 : 202).send(view);
      },
    );

    app.get(
      '/station/v1/generate/lyrics/:lyric_id',
      {
        config: { scope: 'station:generate' },
        schema: { tags: TAGS, summary: 'Structured lyrics with their safety scores', params: LyricId, response: { 200: LyricsView } },
      },
      async (request) => lyrics.get(request.params.lyric_id),
    );

    app.post(
      '/station/v1/generate/lyrics/:lyric_id/safety-check',
      {
        config: { scope: 'station:generate' },
        schema: {
          tags: TAGS,
          summary: 'Explicit-content and copyright-similarity check; required before playback when explicit_allowed is false',
          params: LyricId,
          response: { 200: SafetyCheckView },
        },
      },
      async (request) => lyrics.safetyCheck(request.params.lyric_id),
    );
  };
}
