/**
 * POST /v1/playlists, GET/PATCH/DELETE /v1/playlists/{id}, POST /v1/playlists/{id}/tracks,
 * PUT /v1/playlists/{id}/tracks (the full order), DELETE /v1/playlists/{id}/tracks/{trackId}.
 */
import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { IdParams, OpaqueId } from '../../http/schemas.js';
import { TrackRef } from '../shared/track-ref.js';
import { MAX_PLAYLIST_TRACKS } from './playlists.repository.js';
import type { PlaylistsService } from './playlists.service.js';

const VISIBILITY =
  "Visibility: the owner and admins always see a playlist; anyone else only when it is public and the owner's profile has `playlists_public` true, otherwise 404 PLATFORM_NOT_FOUND (a private playlist's existence is not revealed). Only the owner changes it, from a login session: another user who can see it gets 403 PLATFORM_FORBIDDEN, an API key 403.";

const playlistFields = {
  id: Type.String(),
  owner_id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  public: Type.Boolean(),
  track_count: Type.Integer(),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
};

export const PlaylistSummary = Type.Object(playlistFields, { title: 'PlaylistSummary' });

const Playlist = Type.Object(
  {
    ...playlistFields,
    tracks: Type.Array(
      Type.Object({
        position: Type.Integer({ minimum: 0, description: '0-based, contiguous' }),
        added_at: Type.String({ format: 'date-time' }),
        track: TrackRef,
      }),
    ),
  },
  { title: 'Playlist' },
);

const Name = Type.String({ minLength: 1, maxLength: 200 });
const Description = Type.String({ maxLength: 2000 });
const Public = Type.Boolean({ description: 'Whether others may see it (default true)' });

export function playlistsRoutes(playlists: PlaylistsService) {
  return async function register(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.post(
      '/v1/playlists',
      {
        schema: {
          tags: ['playlists'],
          summary: 'Creates a playlist owned by the caller',
          description: VISIBILITY,
          body: Type.Object({ name: Name, description: Type.Optional(Description), public: Type.Optional(Public) }, { additionalProperties: false }),
          response: { 201: Playlist },
        },
      },
      async (request, reply) => reply.code(201).send(await playlists.create(request.principal!, request.body)),
    );

    app.get(
      '/v1/playlists/:id',
      {
        config: { scope: 'users:read' },
        schema: {
          tags: ['playlists'],
          summary: 'A playlist with its tracks in order',
          description: VISIBILITY,
          params: IdParams('id'),
          response: { 200: Playlist },
        },
      },
      async (request) => playlists.get(request.principal!, request.params.id),
    );

    app.patch(
      '/v1/playlists/:id',
      {
        schema: {
          tags: ['playlists'],
          summary: 'Renames a playlist, changes its description or makes it public or private',
          description: VISIBILITY,
          params: IdParams('id'),
          body: Type.Object(
            { name: Type.Optional(Name), description: Type.Optional(Description), public: Type.Optional(Public) },
            { additionalProperties: false, minProperties: 1 },
          ),
          response: { 200: Playlist },
        },
      },
      async (request) => playlists.update(request.principal!, request.params.id, request.body),
    );

    app.delete(
      '/v1/playlists/:id',
      {
        schema: { tags: ['playlists'], summary: 'Deletes a playlist', description: VISIBILITY, params: IdParams('id'), response: { 204: Type.Null() } },
      },
      async (request, reply) => {
        await playlists.delete(request.principal!, request.params.id);
        return reply.code(204).send(null);
      },
    );

    app.post(
      '/v1/playlists/:id/tracks',
      {
        schema: {
          tags: ['playlists'],
          summary: 'Adds a track to a playlist',
          description: `At \`position\` (0-based; the end when left out or beyond the end); the tracks after it move down. A track already in the playlist answers 409 PLATFORM_CONFLICT, as does a playlist of ${MAX_PLAYLIST_TRACKS} tracks; a track id that names no published track 404. Concurrent edits queue on the playlist, so positions stay contiguous and unique.\n\n${VISIBILITY}`,
          params: IdParams('id'),
          body: Type.Object({ track_id: OpaqueId, position: Type.Optional(Type.Integer({ minimum: 0 })) }, { additionalProperties: false }),
          response: { 201: Playlist },
        },
      },
      async (request, reply) =>
        reply.code(201).send(await playlists.addTrack(request.principal!, request.params.id, request.body.track_id, request.body.position)),
    );

    app.put(
      '/v1/playlists/:id/tracks',
      {
        schema: {
          tags: ['playlists'],
          summary: 'Reorders a playlist: the full new order of its track ids',
          description: `\`track_ids\` must name every track of the playlist exactly once; otherwise (for instance after a concurrent add) 409 PLATFORM_CONFLICT and nothing changes.\n\n${VISIBILITY}`,
          params: IdParams('id'),
          body: Type.Object({ track_ids: Type.Array(OpaqueId, { maxItems: MAX_PLAYLIST_TRACKS }) }, { additionalProperties: false }),
          response: { 200: Playlist },
        },
      },
      async (request) => playlists.reorder(request.principal!, request.params.id, request.body.track_ids),
    );

    app.delete(
      '/v1/playlists/:id/tracks/:trackId',
      {
        schema: {
          tags: ['playlists'],
          summary: 'Removes a track from a playlist; the tracks after it move up',
          description: `A track not in the playlist answers 404 PLATFORM_NOT_FOUND.\n\n${VISIBILITY}`,
          params: IdParams('id', 'trackId'),
          response: { 200: Playlist },
        },
      },
      async (request) => playlists.removeTrack(request.principal!, request.params.id, request.params.trackId),
    );
  };
}
