/** GET /v1/users/me/library, POST and DELETE /v1/users/me/library/{id}. */
import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { IdParams, PageQuery, Paginated } from '../../http/schemas.js';
import { pageOf } from '../../pagination.js';
import { TrackRef } from '../shared/track-ref.js';
import type { LibraryService } from './library.service.js';

const LibraryItem = Type.Object(
  {
    type: Type.String({ enum: ['track'], description: 'Only tracks for now: the platform has no albums or releases to save yet' }),
    saved_at: Type.String({ format: 'date-time' }),
    track: TrackRef,
  },
  { title: 'LibraryItem' },
);

export function libraryRoutes(library: LibraryService) {
  return async function register(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.get(
      '/v1/users/me/library',
      {
        config: { scope: 'users:read' },
        schema: {
          tags: ['library'],
          summary: "The caller's saved tracks, most recently saved first",
          description:
            'Only the caller\'s own library: there is no path to another user\'s. Items are tracks (`type: "track"`); albums will join the same list when the platform has releases. A track taken down later stays listed with `status: "removed"`.',
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
          summary: 'Saves a track to the caller\'s library (idempotent)',
          description:
            'From a login session only (an API key answers 403 PLATFORM_FORBIDDEN). 201 when the track was added, 200 with the same item when it was already saved. A track id that names no published track answers 404 PLATFORM_NOT_FOUND.',
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
          summary: 'Removes a track from the caller\'s library',
          description: 'From a login session only. 204 when removed; 404 PLATFORM_NOT_FOUND when the track is not in the library (so a repeat answers 404).',
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
