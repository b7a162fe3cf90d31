/** GET /v1/albums and GET /v1/albums/{id}: releases (albums, EPs, singles) grouping the catalog's tracks. */
import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { IdParams, PageQuery, Paginated, StringEnum } from '../../http/schemas.js';
import { pageOf } from '../../pagination.js';
import type { AlbumsService } from './albums.service.js';
import { AlbumDetail, AlbumSummary, RELEASE_TYPES } from './schemas.js';

export function albumsRoutes(albums: AlbumsService) {
  return async function register(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.get(
      '/v1/albums',
      {
        config: { scope: 'tracks:read' },
        schema: {
          tags: ['albums'],
          summary: 'Lists releases (albums, EPs, singles), newest first',
          description:
            'Filters combine. A store product that sells a release names it (`album_id`); GET /v1/albums/{id} lists them. A release is of its ' +
            'artist’s environment: a test key sees the sandbox’s releases only (the sandbox’s copies of the demo releases, on the same slugs), every other credential the live ones.',
          querystring: Type.Composite(
            [
              PageQuery,
              Type.Object({
                artist: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: "the artist's slug or id" })),
                genre: Type.Optional(Type.String({ minLength: 1, maxLength: 80, description: 'case-insensitive' })),
                year: Type.Optional(Type.Integer({ minimum: 1900, maximum: 2100, description: 'release year' })),
                type: Type.Optional(StringEnum(RELEASE_TYPES)),
                search: Type.Optional(
                  Type.String({ minLength: 1, maxLength: 200, description: "part of the title or of the artist's name, case-insensitive" }),
                ),
              }),
            ],
            { additionalProperties: false },
          ),
          response: { 200: Paginated(AlbumSummary, 'AlbumList') },
        },
      },
      async (request) => {
        const { page, limit, offset } = pageOf(request.query);
        const { artist, genre, year, type, search } = request.query;
        return { ...(await albums.list({ environment: request.principal!.environment, artist, genre, year, type, search }, limit, offset)), page, limit };
      },
    );

    app.get(
      '/v1/albums/:id',
      {
        config: { scope: 'tracks:read' },
        schema: {
          tags: ['albums'],
          summary: 'A release with its published tracks in order and the store products that sell it; the path takes its id or slug',
          params: IdParams('id'),
          response: { 200: AlbumDetail },
        },
      },
      async (request) => albums.get(request.params.id, request.principal!.environment),
    );
  };
}
