/** GET /v1/users/me/library, POST and DELETE /v1/users/me/library/{id}: saved tracks and releases. */
import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { IdParams, PageQuery, Paginated } from '../../http/schemas.js';
import { pageOf } from '../../pagination.js';
import { TrackRef } from '../shared/track-ref.js';
import type { LibraryService } from './library.service.js';

const AlbumRef = Type.Object(
  {
    id: Type.String(),
    slug: Type.String(),
    title: Type.String(),
    type: Type.String({ description: 'album, ep or single' }),
    release_year: Type.Union([Type.Integer(), Type.Null()]),
    genre: Type.String(),
    artist: Type.String(),
    artist_id: Type.String(),
    artist_slug: Type.String(),
  },
  { title: 'AlbumRef' },
);

const LibraryTrackItem = Type.Object(
  { type: Type.Literal('track'), saved_at: Type.String({ format: 'date-time' }), track: TrackRef },
  { title: 'LibraryTrackItem' },
);
const LibraryAlbumItem = Type.Object(
  { type: Type.Literal('album'), saved_at: Type.String({ format: 'date-time' }), album: AlbumRef },
  { title: 'LibraryAlbumItem' },
);
const LibraryItem = Type.Union([LibraryTrackItem, LibraryAlbumItem], {
  title: 'LibraryItem',
  description: 'A saved track (`type: "track"`) or a saved release (`type: "album"`)',
});

export function libraryRoutes(library: LibraryService) {
  return async function register(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.get(
      '/v1/users/me/library',
      {
        config: { scope: 'users:read' },
        schema: {
          tags: ['library'],
          summary: "The caller's saved tracks and releases, most recently saved first",
          description:
            'Only the caller\'s own library: there is no path to another user\'s. Items are tracks (`type: "track"`) and releases (`type: "album"`: albums, EPs and singles) in one list. A track taken down later stays listed with `status: "removed"`.',
          querystring: Type.Composite([PageQuery], { additionalProperties: false }),
          response: { 200: Paginated(LibraryItem, 'LibraryPage') },
        },
      },
      async (request) => {
        const { page, limit, offset } = pageOf(request.query);
        return { ...(await library.list(request.principal!, limit, offset)), page, limit };
      },
    );

    app.post(
      '/v1/users/me/library/:id',
      {
        schema: {
          tags: ['library'],
          summary: "Saves a track or a release to the caller's library (idempotent)",
          description:
            'From a login session only (an API key answers 403 PLATFORM_FORBIDDEN). The id names a track or a release (album, EP, single). 201 when the item was added, 200 with the same item when it was already saved. An id that names neither a published track nor a release answers 404 PLATFORM_NOT_FOUND.',
          params: IdParams('id'),
          response: { 200: LibraryItem, 201: LibraryItem },
        },
      },
      async (request, reply) => {
        const { created, item } = await library.save(request.principal!, request.params.id);
        return reply.code(created ? 201 : 200).send(item);
      },
    );

    app.delete(
      '/v1/users/me/library/:id',
      {
        schema: {
          tags: ['library'],
          summary: "Removes a track or a release from the caller's library",
          description: 'From a login session only. 204 when removed; 404 PLATFORM_NOT_FOUND when the item is not in the library (so a repeat answers 404).',
          params: IdParams('id'),
          response: { 204: Type.Null() },
        },
      },
      async (request, reply) => {
        await library.remove(request.principal!, request.params.id);
        return reply.code(204).send(null);
      },
    );
  };
}
