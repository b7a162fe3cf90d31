/** Module I endpoints (scope station:read) and the public AI policy page they link to. */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { StationTrackIdParams } from '../registry/schemas.js';
import { POLICY_PATH, policyDocument, policyHtml } from './policy.js';
import { StationTransparency, TrackTransparency } from './schemas.js';
import type { TransparencyService } from './transparency.service.js';

export const TRANSPARENCY_TAG = { name: 'station-transparency', description: 'Module I: disclosure of what made and influenced AI tracks' };
const TAGS = [TRANSPARENCY_TAG.name];

export function transparencyRoutes(transparency: TransparencyService, publicBaseUrl: string) {
  return async function register(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    // Static before parametric: "station" is never a station_track_id (those start with stn_).
    app.get(
      '/station/v1/transparency/station',
      {
        config: { scope: 'station:read' },
        schema: {
          tags: TAGS,
          summary: 'Station-level statement: system, legal compliance, AI tracks generated and played, training data policy, models, chain head',
          response: { 200: StationTransparency },
        },
      },
      async () => transparency.station(),
    );

    app.get(
      '/station/v1/transparency/:station_track_id',
      {
        config: { scope: 'station:read' },
        schema: {
          tags: TAGS,
          summary: 'Transparency record of an AI track: model, training data, influences, lyrics source, AI label (404 for anything not in the registry)',
          params: StationTrackIdParams,
          response: { 200: TrackTransparency },
        },
      },
      async (request) => transparency.track(request.params.station_track_id),
    );

    app.get(
      POLICY_PATH,
      {
        config: { public: true },
        schema: {
          tags: TAGS,
          summary: 'The public AI policy: HTML, or JSON with Accept: application/json',
        },
      },
      async (request, reply) => {
        const accept = request.headers.accept ?? '';
        if (accept.includes('application/json') && !accept.includes('text/html')) return policyDocument(publicBaseUrl);
        return reply.type('text/html; charset=utf-8').send(policyHtml(publicBaseUrl));
      },
    );
  };
}
