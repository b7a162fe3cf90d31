/** GET /v1/users/me and PATCH /v1/users/me. */
import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Nullable } from '../../http/schemas.js';
import type { UsersService } from './users.service.js';

const Privacy = {
  history_public: Type.Boolean({ description: 'Whether others may read the play history (default false: owner and admins only)' }),
  playlists_public: Type.Boolean({ description: 'Whether others may list the playlists (default true)' }),
};

const Me = Type.Object(
  {
    id: Type.String(),
    email: Type.String(),
    email_verified: Type.Boolean({
      description:
        'Whether the address is verified (POST /v1/auth/verify-email); actions marked "verified address" answer 403 PLATFORM_EMAIL_UNVERIFIED until it is',
    }),
    role: Type.String(),
    status: Type.String(),
    plan: Type.String({ enum: ['free', 'pro'], description: 'pro once a subscription is paid (POST /v1/subscriptions)' }),
    display_name: Type.String(),
    avatar_url: Nullable(Type.String()),
    country: Nullable(Type.String({ description: 'ISO 3166-1 alpha-2' })),
    birth_year: Nullable(Type.Integer()),
    ...Privacy,
    created_at: Type.String({ format: 'date-time' }),
    developer_account: Type.Boolean({ description: 'Whether the user opened a developer account (POST /v1/developer/account): API keys and OAuth apps' }),
    credential: Type.Object(
      {
        type: Type.String({ enum: ['session', 'api_key', 'oauth'], description: 'oauth: an app acting for the user with the scopes the user approved' }),
        environment: Type.String({ enum: ['live', 'test'], description: 'test: a sandbox key; its requests never see live data' }),
        scopes: Type.Array(Type.String()),
      },
      { description: 'The credential of this request' },
    ),
  },
  { title: 'CurrentUser' },
);

export function usersRoutes(users: UsersService) {
  return async function register(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.get(
      '/v1/users/me',
      {
        config: { scope: 'users:read' },
        schema: {
          tags: ['users'],
          summary: 'The current user, profile and the credential used (a developer key answers for its owner)',
          response: { 200: Me },
        },
      },
      async (request) => users.me(request.principal!),
    );

    app.patch(
      '/v1/users/me',
      {
        schema: {
          tags: ['users'],
          summary: "Updates the caller's profile; fields left out are unchanged, null clears a field",
          description:
            'From a login session only (an API key answers 403 PLATFORM_FORBIDDEN). Unknown fields, a country that is not an assigned ISO 3166-1 alpha-2 code, or a birth year in the future answer 400 PLATFORM_VALIDATION_FAILED.',
          body: Type.Object(
            {
              display_name: Type.Optional(Type.String({ minLength: 1, maxLength: 80 })),
              avatar_url: Type.Optional(
                Type.Union([Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2048, description: 'http(s) URL' }), Type.Null()]),
              ),
              country: Type.Optional(Type.Union([Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2, upper case' }), Type.Null()])),
              birth_year: Type.Optional(Type.Union([Type.Integer({ minimum: 1900, maximum: 2100 }), Type.Null()])),
              history_public: Type.Optional(Privacy.history_public),
              playlists_public: Type.Optional(Privacy.playlists_public),
            },
            { additionalProperties: false, minProperties: 1 },
          ),
          response: { 200: Me },
        },
      },
      async (request) => users.update(request.principal!, request.body),
    );
  };
}
