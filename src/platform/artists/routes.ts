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
import type { ArtistOnboardingService } from './artist-onboarding.service.js';
import type { ArtistsService } from './artists.service.js';
import { ArtistFields, ArtistProfile, ArtistSummary, OwnedArtist } from './schemas.js';

const SLUG_OR_ID =
  "The path takes the artist's slug or its id; an unknown one answers 404 PLATFORM_NOT_FOUND. A test key sees the sandbox's artists " +
  '(copies of the demo artists under the same slugs, never platform-owned), every other credential the live ones.';

export function artistsRoutes(artists: ArtistsService, onboarding: ArtistOnboardingService) {
  return async function register(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.post(
      '/v1/artists',
      {
        schema: {
          tags: ['artists'],
          summary: "Creates the caller's artist profile (unverified); a listener becomes an artist",
          description:
            'Any user, from a login session, with a verified e-mail address (otherwise 403 PLATFORM_EMAIL_UNVERIFIED). ' +
            "The artist starts `verified:false` and owned by the caller (`owner_user_id`); a listener's role becomes `artist`, staff keep theirs. " +
            'One profile per account: a second answers 409 PLATFORM_CONFLICT. Until an admin verifies it (POST /v1/admin/artists/{id}/verify) ' +
            "the artist's tracks are public but never enter the radio or the training dataset.",
          body: Type.Object(
            { name: ArtistFields.name, genre: ArtistFields.genre, bio: Type.Optional(ArtistFields.bio), country: Type.Optional(ArtistFields.country) },
            { additionalProperties: false },
          ),
          response: { 201: OwnedArtist },
        },
      },
      async (request, reply) => reply.status(201).send(await onboarding.create(request.principal!, request.body)),
    );

    app.get(
      '/v1/users/me/artist',
      {
        schema: {
          tags: ['artists'],
          summary: "The caller's own artist profile (the one POST /v1/artists made), or 404 when the account has none",
          description:
            'How an artist finds its own profile (the artist studio at /studio starts here). A test key answers the sandbox copy of the ' +
            "caller's artist once one was made (by an upload, a product or a capsule in the sandbox). No profile: 404 PLATFORM_NOT_FOUND.",
          response: { 200: OwnedArtist },
        },
      },
      async (request) => onboarding.mine(request.principal!),
    );

    app.patch(
      '/v1/artists/:slug',
      {
        schema: {
          tags: ['artists'],
          summary: "Edits an artist's name, genre, bio or country (its owner or an admin); the slug stays",
          description: `Anyone else answers 403 PLATFORM_FORBIDDEN, and so does the owner's API key or app token without the \`artist\` scope. ${SLUG_OR_ID}`,
          params: IdParams('slug'),
          body: Type.Object(
            {
              name: Type.Optional(ArtistFields.name),
              genre: Type.Optional(ArtistFields.genre),
              bio: Type.Optional(ArtistFields.bio),
              country: Type.Optional(ArtistFields.country),
            },
            { additionalProperties: false, minProperties: 1 },
          ),
          response: { 200: OwnedArtist },
        },
      },
      async (request) => onboarding.update(request.principal!, request.params.slug, request.body),
    );

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
