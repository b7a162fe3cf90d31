/**
 * GET/POST /v1/capsules, GET/PATCH /v1/capsules/{id}, POST /v1/capsules/{id}/unlock,
 * GET /v1/artists/{slug}/capsules.
 */
import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { IdParams, Nullable, OpaqueId, PageQuery, Paginated, StringEnum } from '../../http/schemas.js';
import { pageOf } from '../../pagination.js';
import { TrackRef } from '../shared/track-ref.js';
import type { CapsulesService } from './capsules.service.js';

const RULES = ['none', 'follow', 'own'] as const;

const ABOUT =
  "Sonic Capsules with Tap-to-Reveal: the title and teaser are public; the hidden content is shown (`content`) only to listeners who unlocked the capsule (POST /v1/capsules/{id}/unlock), the owner of its artist and admins, and is `null` for everyone else. `unlock_rule`: `none` (any signed-in listener may unlock), `follow` (only followers of the artist, POST /v1/artists/{slug}/follow) or `own` (only buyers: of the store product `unlock_product_id` when it is set, else of any product holding one of the artist's tracks; purchases made with a test key count in the sandbox only). A capsule of the other environment (live/sandbox) does not exist for the caller.";

const teaserFields = {
  id: Type.String(),
  artist_id: Type.String(),
  artist_slug: Type.String(),
  artist_name: Type.String(),
  title: Type.String(),
  teaser: Type.String(),
  unlock_rule: StringEnum(RULES),
  unlock_product_id: Nullable(Type.String({ description: "with rule own: the store product to buy; null: any product with one of the artist's tracks" })),
  unlocked: Type.Boolean({ description: 'whether the caller has unlocked it' }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
};

const CapsuleTeaser = Type.Object(teaserFields, { title: 'CapsuleTeaser' });

const Capsule = Type.Object(
  {
    ...teaserFields,
    content: Type.Union(
      [Type.Object({ text: Nullable(Type.String()), track: Type.Union([TrackRef, Type.Null()]), media_url: Nullable(Type.String()) }), Type.Null()],
      { description: 'null unless the caller unlocked the capsule, owns its artist or is an admin' },
    ),
  },
  { title: 'Capsule' },
);

const Title = Type.String({ minLength: 1, maxLength: 200 });
const Teaser = Type.String({ minLength: 1, maxLength: 1000 });
const content = {
  content_text: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 20_000 }), Type.Null()])),
  content_track_id: Type.Optional(Type.Union([OpaqueId, Type.Null()], { description: 'a published catalog track (404 if none)' })),
  content_media_url: Type.Optional(Type.Union([Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2048 }), Type.Null()])),
  unlock_rule: Type.Optional(StringEnum(RULES, { description: 'default none' })),
  unlock_product_id: Type.Optional(
    Type.Union([OpaqueId, Type.Null()], {
      description: "with unlock_rule own: a product of the capsule's artist (unknown: 404; another artist's: 400); another rule clears it",
    }),
  ),
};

export function capsulesRoutes(capsules: CapsulesService) {
  return async function register(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const page = Type.Composite([PageQuery], { additionalProperties: false });

    app.get(
      '/v1/capsules',
      {
        config: { scope: 'tracks:read' },
        schema: {
          tags: ['capsules'],
          summary: 'All capsules, newest first (teasers only)',
          description: ABOUT,
          querystring: page,
          response: { 200: Paginated(CapsuleTeaser, 'CapsuleList') },
        },
      },
      async (request) => {
        const { page, limit, offset } = pageOf(request.query);
        return { ...(await capsules.list(request.principal!, limit, offset)), page, limit };
      },
    );

    app.get(
      '/v1/artists/:slug/capsules',
      {
        config: { scope: 'tracks:read' },
        schema: {
          tags: ['artists', 'capsules'],
          summary: "An artist's capsules, newest first (teasers only); the path takes the slug or the id",
          description: ABOUT,
          params: IdParams('slug'),
          querystring: page,
          response: { 200: Paginated(CapsuleTeaser, 'ArtistCapsuleList') },
        },
      },
      async (request) => {
        const { page, limit, offset } = pageOf(request.query);
        return { ...(await capsules.listByArtist(request.principal!, request.params.slug, limit, offset)), page, limit };
      },
    );

    app.get(
      '/v1/capsules/:id',
      {
        config: { scope: 'tracks:read' },
        schema: {
          tags: ['capsules'],
          summary: 'A capsule; its content only for those who may see it',
          description: ABOUT,
          params: IdParams('id'),
          response: { 200: Capsule },
        },
      },
      async (request) => capsules.get(request.principal!, request.params.id),
    );

    app.post(
      '/v1/capsules',
      {
        config: { scope: 'artist' },
        schema: {
          tags: ['capsules'],
          summary: 'Creates a capsule for an artist the caller owns',
          description: `\`artist_id\` (slug or id) may be left out when the caller owns exactly one artist. Another's artist: 403 PLATFORM_FORBIDDEN (admins may create for any). At least one of content_text, content_track_id, content_media_url.\n\n${ABOUT}`,
          body: Type.Object({ artist_id: Type.Optional(OpaqueId), title: Title, teaser: Teaser, ...content }, { additionalProperties: false }),
          response: { 201: Capsule },
        },
      },
      async (request, reply) => reply.code(201).send(await capsules.create(request.principal!, request.body)),
    );

    app.patch(
      '/v1/capsules/:id',
      {
        config: { scope: 'artist' },
        schema: {
          tags: ['capsules'],
          summary: 'Updates a capsule; fields left out are unchanged, null clears a content field',
          description: `Only the owner of the capsule's artist or an admin (403 PLATFORM_FORBIDDEN otherwise). Some hidden content must remain. Unlocks already made stay.\n\n${ABOUT}`,
          params: IdParams('id'),
          body: Type.Object({ title: Type.Optional(Title), teaser: Type.Optional(Teaser), ...content }, { additionalProperties: false, minProperties: 1 }),
          response: { 200: Capsule },
        },
      },
      async (request) => capsules.update(request.principal!, request.params.id, request.body),
    );

    app.post(
      '/v1/capsules/:id/unlock',
      {
        schema: {
          tags: ['capsules'],
          summary: 'Unlocks a capsule for the caller and answers it with its content',
          description: `Checks the unlock rule (\`follow\` and not following, or \`own\` and not a buyer: 403 PLATFORM_FORBIDDEN). Idempotent: a repeat answers the same; the platform event \`capsule.unlocked\` (capsule_id, user_id, artist_id) is sent once per user and capsule. From a login session only (an API key answers 403).\n\n${ABOUT}`,
          params: IdParams('id'),
          response: { 200: Capsule },
        },
      },
      async (request) => capsules.unlock(request.principal!, request.params.id),
    );
  };
}
