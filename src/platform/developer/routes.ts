/**
 * Developer keys, the platform's "API key management" (contract.md): POST/GET /v1/developer/keys and
 * DELETE /v1/developer/keys/{id}. Keys are managed from a login session of a developer or admin account;
 * the rules (scopes, environments, quotas, the sandbox) are in README.md beside this file.
 */
import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AuthService } from '../../auth/auth.service.js';
import { PLATFORM_SCOPES, STATION_SCOPES } from '../../auth/scopes.js';
import { IdParams, Nullable, PageQuery, Paginated, StringEnum } from '../../http/schemas.js';
import { pageOf } from '../../pagination.js';
import { QUOTA_DESCRIPTION } from '../../auth/api-quota.js';
import { loginSessionUser } from '../../auth/developer-keys.js';
import type { DeveloperAccountsService } from './developer-accounts.js';

const DeveloperAccount = Type.Object(
  {
    developer_account: Type.Literal(true),
    created_at: Type.String({ format: 'date-time' }),
    sandbox_base_url: Type.String({ description: '`{PUBLIC_BASE_URL}/sandbox/v1`: the platform API of /v1, always on sandbox data' }),
  },
  { title: 'DeveloperAccount' },
);

const ScopeName = StringEnum([...PLATFORM_SCOPES, ...STATION_SCOPES], { description: 'A platform or station scope' });
const Environment = StringEnum(['live', 'test'] as const, {
  description: 'live: production data; test: the sandbox (its own data space on the same paths, never live data)',
});

const ApiKeyFields = {
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String({ description: 'The first characters of the key, to tell keys apart' }),
  scopes: Type.Array(Type.String()),
  environment: Type.String({ enum: ['live', 'test'] }),
  created_at: Type.String({ format: 'date-time' }),
  last_used_at: Nullable(
    Type.String({ format: 'date-time', description: 'When the key (or a JWT exchanged for it) was last used, to about a minute; null if never' }),
  ),
};
const ApiKey = Type.Object(ApiKeyFields, { title: 'ApiKey' });
const CreatedApiKey = Type.Object(
  { ...ApiKeyFields, key: Type.String({ description: 'The key itself: shown in this answer only, stored hashed, never shown again' }) },
  { title: 'CreatedApiKey' },
);

const Usage = Type.Object({ used: Type.Integer({ minimum: 0 }), limit: Type.Integer({ minimum: 0 }) });
const QuotaUsageView = Type.Object(
  {
    month: Type.String({ description: 'The calendar month (UTC) counted, e.g. 2025-03' }),
    resets_at: Type.String({ format: 'date-time', description: 'When the month turns and the counts start again' }),
    burst_per_minute: Type.Integer({ description: "At most this many requests a minute, per environment, of the account's keys together" }),
    live: Usage,
    test: Usage,
  },
  { title: 'QuotaUsage' },
);

const MANAGEMENT =
  'Keys are managed from a login session (a key cannot create, list or revoke keys: 403 PLATFORM_FORBIDDEN). ' +
  'Creating one needs a developer account (POST /v1/developer/account), or the staff role developer, admin or super_admin. An app acting for a user (OAuth token) cannot manage keys either.';

export function developerRoutes(auth: AuthService, accounts: DeveloperAccountsService) {
  return async function register(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.post(
      '/v1/developer/account',
      {
        schema: {
          tags: ['developer'],
          summary: "Opens the caller's developer account (an integrator's): API keys and OAuth apps, and the sandbox",
          description:
            'Any user, from a login session, with a verified e-mail address (otherwise 403 PLATFORM_EMAIL_UNVERIFIED). ' +
            "201 when opened, 200 with the same body when it exists. It adds the webhook scopes (webhooks:read, webhooks:write) to the account's role; keys and apps hold only scopes the account holds " +
            '(never a station scope the role lacks; the staff role developer is given by admins only).',
          response: { 200: DeveloperAccount, 201: DeveloperAccount },
        },
      },
      async (request, reply) => {
        const { view, created } = await accounts.open(request.principal!);
        return reply.status(created ? 201 : 200).send(view);
      },
    );

    app.post(
      '/v1/developer/keys',
      {
        schema: {
          tags: ['developer'],
          summary: 'Creates an API key with chosen scopes; answers the key once',
          description: [
            MANAGEMENT,
            "The scopes must all be held by the caller's session now (a key is never wider than its owner): otherwise 400 PLATFORM_VALIDATION_FAILED.",
            "A key's rights also follow its owner afterwards: scopes the owner's role loses leave the key at once, and a banned owner's keys stop working.",
            'Use: send it as `X-API-Key`, or exchange it at POST /v1/auth/token for a JWT and send both.',
            QUOTA_DESCRIPTION,
          ].join(' '),
          body: Type.Object(
            {
              name: Type.String({ minLength: 1, maxLength: 100 }),
              scopes: Type.Array(ScopeName, { minItems: 1, maxItems: PLATFORM_SCOPES.length + STATION_SCOPES.length }),
              environment: Environment,
            },
            { additionalProperties: false },
          ),
          response: { 201: CreatedApiKey },
        },
      },
      async (request, reply) => reply.status(201).send(await auth.developerKeys.create(request.principal!, request.body)),
    );

    app.get(
      '/v1/developer/keys',
      {
        schema: {
          tags: ['developer'],
          summary: "The caller's API keys that are not revoked, newest first (never the key itself)",
          description: MANAGEMENT,
          querystring: Type.Composite([PageQuery], { additionalProperties: false }),
          response: { 200: Paginated(ApiKey, 'ApiKeyList') },
        },
      },
      async (request) => auth.developerKeys.list(request.principal!, pageOf(request.query)),
    );

    app.get(
      '/v1/developer/usage',
      {
        schema: {
          tags: ['developer'],
          summary: "This month's requests of the caller's keys against the quotas, live and test",
          description: `${MANAGEMENT} ${QUOTA_DESCRIPTION} Reading the usage is not counted.`,
          response: { 200: QuotaUsageView },
        },
      },
      async (request) => auth.quota.usage(loginSessionUser(request.principal!, 'API keys')),
    );

    app.delete(
      '/v1/developer/keys/:id',
      {
        schema: {
          tags: ['developer'],
          summary: 'Revokes an API key at once: the key and the JWTs exchanged for it stop working',
          description: `${MANAGEMENT} Another user's key answers 404 PLATFORM_NOT_FOUND (admins with platform:admin may revoke any key).`,
          params: IdParams('id'),
          response: { 204: Type.Null() },
        },
      },
      async (request, reply) => {
        await auth.developerKeys.revoke(request.principal!, request.params.id);
        return reply.status(204).send(null);
      },
    );
  };
}
