/** GET /v1/tracks, /v1/tracks/{id}, /v1/tracks/{id}/stream, /v1/artists, /v1/artists/{slug}. */
import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { IdParams, PageQuery, Paginated } from '../../http/schemas.js';
import { pageOf } from '../../pagination.js';
import type { CatalogService } from './catalog.service.js';
import { ArtistProfile, ArtistSummary, TrackDetail, TrackSummary } from './schemas.js';

const SearchText = Type.String({ minLength: 1, maxLength: 200 });

export function catalogRoutes(catalog: CatalogService) {
  return async function register(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.get(
      '/v1/tracks',
      {
        config: { scope: 'tracks:read' },
        schema: {
          tags: ['tracks'],
          summary: 'Lists published tracks, most streamed first',
          querystring: Type.Composite([
            PageQuery,
            Type.Object({
              q: Type.Optional(SearchText),
              search: Type.Optional(SearchText),
              genre: Type.Optional(Type.String({ minLength: 1, maxLength: 80 })),
              artist: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'artist slug or name' })),
            }),
          ], { additionalProperties: false }),
          response: { 200: Paginated(TrackSummary, 'TrackList') },
        },
      },
      async (request) => {
        const { page, limit, offset } = pageOf(request.query);
        const { q, search, genre, artist } = request.query;
        const result = await catalog.listTracks({ search: q ?? search, genre, artist }, limit, offset);
        return { ...result, page, limit };
      },
    );

    app.get(
      '/v1/tracks/:id',
      {
        config: { scope: 'tracks:read' },
        schema: { tags: ['tracks'], summary: 'Track detail with credits', params: IdParams('id'), response: { 200: TrackDetail } },
      },
      async (request) => catalog.getTrack(request.params.id),
    );

    app.get(
      '/v1/tracks/:id/stream',
      {
        config: { scope: 'streams:read' },
        schema: {
          tags: ['tracks'],
          summary: 'Redirects to a signed, expiring link to the audio (which answers Range requests with 206)',
          params: IdParams('id'),
          response: { 302: Type.Null({ description: 'Location: the signed audio URL' }) },
        },
      },
      async (request, reply) => {
        const url = await catalog.streamTrack(request.params.id, request.principal?.userId ?? null);
        return reply.header('Cache-Control', 'no-store').redirect(url, 302);
      },
    );

    app.get(
      '/v1/artists',
      {
        config: { scope: 'tracks:read' },
        schema: {
          tags: ['artists'],
          summary: 'Lists artists',
          querystring: Type.Composite([
            PageQuery,
            Type.Object({
              genre: Type.Optional(Type.String({ minLength: 1, maxLength: 80 })),
              search: Type.Optional(SearchText),
              verified: Type.Optional(Type.Boolean()),
            }),
          ], { additionalProperties: false }),
          response: { 200: Paginated(ArtistSummary, 'ArtistList') },
        },
      },
      async (request) => {
        const { page, limit, offset } = pageOf(request.query);
        const { genre, search, verified } = request.query;
        return { ...(await catalog.listArtists({ genre, search, verified }, limit, offset)), page, limit };
      },
    );

    app.get(
      '/v1/artists/:slug',
      {
        config: { scope: 'tracks:read' },
        schema: {
          tags: ['artists'],
          summary: 'Artist profile with discography',
          params: IdParams('slug'),
          response: { 200: ArtistProfile },
        },
      },
      async (request) => catalog.getArtist(request.params.slug),
    );
  };
}
