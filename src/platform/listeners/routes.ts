/** GET /v1/listeners/{id}, /v1/listeners/{id}/history, /v1/listeners/{id}/playlists; POST/DELETE /v1/artists/{id}/follow. */
import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { IdParams, Nullable, PageQuery, Paginated } from '../../http/schemas.js';
import { pageOf } from '../../pagination.js';
import { PlaylistSummary } from '../playlists/routes.js';
import type { ListenersService } from './listeners.service.js';
import { TrackRef } from '../shared/track-ref.js';

const PRIVACY =
  "Privacy: when the listener's profile has `history_public` (default false) or `playlists_public` (default true) set to false, anyone but the listener and admins gets 403 PLATFORM_FORBIDDEN on that listing; others see public playlists only. An unknown or banned listener answers 404 PLATFORM_NOT_FOUND.";

const ListenerProfile = Type.Object(
  {
    id: Type.String(),
    display_name: Type.String(),
    avatar_url: Nullable(Type.String()),
    country: Nullable(Type.String({ description: 'ISO 3166-1 alpha-2; shown to the listener and admins only, null for others' })),
    history_public: Type.Boolean(),
    playlists_public: Type.Boolean(),
    counts: Type.Object({
      playlists: Nullable(Type.Integer({ description: 'playlists the caller may see; null when the playlists are private to the caller' })),
      following: Type.Integer({ description: 'artists followed' }),
      plays: Nullable(Type.Integer({ description: 'recorded plays; null when the history is private to the caller' })),
    }),
    created_at: Type.String({ format: 'date-time' }),
  },
  { title: 'ListenerProfile' },
);

const HistoryEntry = Type.Object(
  {
    played_at: Type.String({ format: 'date-time' }),
    source: Type.String({ enum: ['radio', 'on_demand'] }),
    seconds_played: Nullable(Type.Number()),
    track: TrackRef,
  },
  { title: 'HistoryEntry' },
);

const FollowState = Type.Object(
  {
    artist_id: Type.String(),
    artist_slug: Type.String(),
    following: Type.Boolean(),
    followers: Type.Integer({ description: "the artist's follower count after the call" }),
  },
  { title: 'FollowState' },
);

export function listenersRoutes(listeners: ListenersService) {
  return async function register(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const page = Type.Composite([PageQuery], { additionalProperties: false });

    app.get(
      '/v1/listeners/:id',
      {
        config: { scope: 'users:read' },
        schema: {
          tags: ['listeners'],
          summary: "A listener's public profile with counts",
          description: PRIVACY,
          params: IdParams('id'),
          response: { 200: ListenerProfile },
        },
      },
      async (request) => listeners.profile(request.principal!, request.params.id),
    );

    app.get(
      '/v1/listeners/:id/history',
      {
        config: { scope: 'users:read' },
        schema: {
          tags: ['listeners'],
          summary: "A listener's play history, newest first",
          description: `From recorded play events: on-demand streams and radio plays of catalog tracks credited to the listener. Test (sandbox) credentials see an empty history.\n\n${PRIVACY}`,
          params: IdParams('id'),
          querystring: page,
          response: { 200: Paginated(HistoryEntry, 'HistoryPage') },
        },
      },
      async (request) => {
        const { page, limit, offset } = pageOf(request.query);
        return { ...(await listeners.history(request.principal!, request.params.id, limit, offset)), page, limit };
      },
    );

    app.get(
      '/v1/listeners/:id/playlists',
      {
        config: { scope: 'users:read' },
        schema: {
          tags: ['listeners'],
          summary: "A listener's playlists, newest first",
          description: `The listener and admins see all of them; others the public ones.\n\n${PRIVACY}`,
          params: IdParams('id'),
          querystring: page,
          response: { 200: Paginated(PlaylistSummary, 'PlaylistPage') },
        },
      },
      async (request) => {
        const { page, limit, offset } = pageOf(request.query);
        return { ...(await listeners.playlistsOf(request.principal!, request.params.id, limit, offset)), page, limit };
      },
    );

    const FOLLOW =
      'platform-api.md lists one `POST /artists/{id}/follow` to "follow or unfollow": POST with `{"follow": false}` unfollows, POST with no body or `{"follow": true}` follows; DELETE also unfollows. Every form is idempotent (a repeat changes nothing and answers the same state). The path takes the artist\'s slug or its id. From a login session only (an API key answers 403).';
    const FollowBody = Type.Object({ follow: Type.Optional(Type.Boolean({ default: true, description: 'false unfollows' })) }, { additionalProperties: false });

    app.post(
      '/v1/artists/:slug/follow',
      {
        schema: {
          tags: ['artists'],
          summary: 'Follows or unfollows an artist',
          description: FOLLOW,
          params: IdParams('slug'),
          body: FollowBody,
          response: { 200: FollowState },
        },
        // The body is optional (a bare POST follows, as before); an absent body is validated as `{}`.
        preValidation: async (request) => {
          request.body ??= {};
        },
      },
      async (request) => listeners.setFollow(request.principal!, request.params.slug, request.body?.follow ?? true),
    );

    app.delete(
      '/v1/artists/:slug/follow',
      {
        schema: { tags: ['artists'], summary: 'Unfollows an artist', description: FOLLOW, params: IdParams('slug'), response: { 200: FollowState } },
      },
      async (request) => listeners.setFollow(request.principal!, request.params.slug, false),
    );
  };
}
