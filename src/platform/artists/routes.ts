/**
 * GET /v1/artists, /v1/artists/{slug}, /v1/artists/{slug}/tracks. Capsules (GET /v1/artists/{slug}/capsules) are
 * in src/platform/capsules, follows in src/platform/listeners. Every artist path takes the slug (the v2.1
 * rename) or the id.
 */
import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { IdParams, PageQuery, Paginated } from '../../http/schemas.js';
import { pageOf } from '../../pagination.js';
import { TrackSummary } from '../catalog/schemas.js';
import type { ArtistsService } from './artists.service.js';
import { ArtistProfile, ArtistSummary } from './schemas.js';

const SLUG_OR_ID =
  "The path takes the artist's slug or its id; an unknown one answers 404 PLATFORM_NOT_FOUND. A test key sees the sandbox's artists " +
  '(copies of the demo artists under the same slugs, never platform-owned), every other credential the live ones.';

export function artistsRoutes(artists: ArtistsService) {
  return async function register(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.get(
      '/v1/artists',
      {
        config: { scope: 'tracks:read' },
        schema: {
          tags: ['artists'],
          summary: 'Lists artists by name',
          description: 'A test key lists the sandbox’s artists, every other credential the live ones.',
          querystring: Type.Composite(
            [
              PageQuery,
              Type.Object({
                genre: Type.Optional(Type.String({ minLength: 1, maxLength: 80, description: 'case-insensitive' })),
                search: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'part of the name or bio, case-insensitive' })),
                verified: Type.Optional(Type.Boolean()),
              }),
            ],
            { additionalProperties: false },
          ),
          response: { 200: Paginated(ArtistSummary, 'ArtistList') },
        },
      },
      async (request) => {
        const { page, limit, offset } = pageOf(request.query);
        const { genre, search, verified } = request.query;
        return { ...(await artists.list({ environment: request.principal!.environment, genre, search, verified }, limit, offset)), page, limit };
      },
    );

    app.get(
      '/v1/artists/:slug',
      {
        config: { scope: 'tracks:read' },
        schema: {
          tags: ['artists'],
          summary: 'Artist profile: discography (releases with their tracks), followers, verification, virtual-artist metadata',
          description: `\`followers\` is the live count, or for a test (sandbox) credential the sandbox's own follows. ${SLUG_OR_ID}`,
          params: IdParams('slug'),
          response: { 200: ArtistProfile },
        },
      },
      async (request) => artists.profile(request.principal!, request.params.slug),
    );

    app.get(
      '/v1/artists/:slug/tracks',
      {
        config: { scope: 'tracks:read' },
        schema: {
          tags: ['artists'],
          summary: "An artist's published tracks, most streamed first",
          description: SLUG_OR_ID,
          params: IdParams('slug'),
          querystring: Type.Composite([PageQuery], { additionalProperties: false }),
          response: { 200: Paginated(TrackSummary, 'ArtistTrackList') },
        },
      },
      async (request) => {
        const { page, limit, offset } = pageOf(request.query);
        return { ...(await artists.tracks(request.principal!, request.params.slug, limit, offset)), page, limit };
      },
    );
  };
}
