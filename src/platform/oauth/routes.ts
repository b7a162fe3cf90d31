/**
 * OAuth 2.0 routes: app registration (/v1/developer/apps), the apps a user authorized (/v1/users/me/apps),
 * the authorization endpoint's consent API (/v1/oauth/authorize) and the server metadata (RFC 8414). The
 * token endpoint, which speaks RFC 6749's own error format, is in token-routes.ts.
 */
import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { IdParams, Nullable, PageQuery, Paginated, StringEnum } from '../../http/schemas.js';
import { pageOf } from '../../pagination.js';
import type { OAuthAppsService } from './apps.service.js';
import { CODE_TTL_SEC, type AuthorizeService } from './authorize.service.js';
import { GRANTABLE_SCOPES } from './scopes.js';

const AppFields = {
  id: Type.String(),
  client_id: Type.String({ description: 'The same as id' }),
  name: Type.String(),
  type: StringEnum(['confidential', 'public'] as const),
  redirect_uris: Type.Array(Type.String()),
  scopes: Type.Array(Type.String(), { description: 'The most the app may ask a user for' }),
  created_at: Type.String({ format: 'date-time' }),
};
const App = Type.Object(AppFields, { title: 'OAuthApp' });
const CreatedApp = Type.Object(
  { ...AppFields, client_secret: Nullable(Type.String({ description: 'Confidential apps: shown in this answer only, stored hashed. Null for a public app' })) },
  { title: 'CreatedOAuthApp' },
);
const AuthorizedApp = Type.Object(
  {
    id: Type.String({ description: 'The app’s client_id' }),
    client_id: Type.String(),
    name: Type.String(),
    type: Type.String(),
    scopes: Type.Array(Type.String(), { description: 'Everything the user approved for this app' }),
    authorized_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { title: 'AuthorizedApp' },
);

const Text = (maxLength: number, description: string) => Type.Optional(Type.String({ maxLength, description }));
/** The request parameters as RFC 6749 names them; all optional here so that each problem gets its OAuth answer. */
const AuthorizationParams = {
  response_type: Text(32, 'code'),
  client_id: Text(200, 'The app’s client_id'),
  redirect_uri: Text(2048, 'Exactly one of the app’s redirect_uris'),
  scope: Text(1000, `Space-separated scopes, among the app’s: ${GRANTABLE_SCOPES.join(', ')}`),
  state: Text(1024, 'Returned unchanged with the answer'),
  code_challenge: Text(128, 'base64url(SHA-256(code_verifier)), 43 characters'),
  code_challenge_method: Text(16, 'S256 (plain is refused)'),
};

const ConsentAnswer = Type.Union(
  [
    Type.Object(
      {
        type: Type.Literal('consent'),
        client: Type.Object({ id: Type.String(), name: Type.String(), type: Type.String() }),
        redirect_uri: Type.String(),
        state: Nullable(Type.String()),
        scope: Type.String({ description: 'The scopes requested' }),
        scopes: Type.Array(
          Type.Object({
            name: Type.String(),
            description: Type.String(),
            grantable: Type.Boolean({ description: 'false: the user does not hold it, approving leaves it out' }),
            previously_approved: Type.Boolean(),
          }),
        ),
        previously_approved: Type.Boolean({ description: 'Every grantable scope was approved before (a client may skip asking again)' }),
      },
      { title: 'OAuthConsentRequest' },
    ),
    Type.Object({ type: Type.Literal('redirect'), redirect_to: Type.String({ format: 'uri' }) }, { title: 'OAuthErrorRedirect' }),
  ],
  { title: 'OAuthConsentAnswer' },
);

const LOGIN_ONLY = 'From a login session only: an API key or an app’s own token answers 403 PLATFORM_FORBIDDEN.';

export interface OAuthRoutesDeps {
  apps: OAuthAppsService;
  authorize: AuthorizeService;
  issuer: string;
}

export function oauthRoutes({ apps, authorize, issuer }: OAuthRoutesDeps) {
  return async function register(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.post(
      '/v1/developer/apps',
      {
        schema: {
          tags: ['oauth'],
          summary: 'Registers an OAuth app (authorization code with PKCE); a confidential app’s client_secret is answered once',
          description: [
            LOGIN_ONLY,
            'Needs a developer, admin or super_admin account. redirect_uris are matched exactly and must be https (http only on localhost, 127.0.0.1 or [::1]), without fragment.',
            'scopes are the most the app may ask for (platform:admin and TOTP-only station scopes are never granted to apps). A public app (a browser or native app that cannot keep a secret) has no secret and relies on PKCE alone.',
          ].join(' '),
          body: Type.Object(
            {
              name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
              redirect_uris: Type.Array(Type.String({ minLength: 1, maxLength: 2048 }), { minItems: 1, maxItems: 10 }),
              scopes: Type.Array(StringEnum(GRANTABLE_SCOPES), { minItems: 1, maxItems: GRANTABLE_SCOPES.length }),
              type: Type.Optional(StringEnum(['confidential', 'public'] as const, { default: 'confidential' })),
            },
            { additionalProperties: false },
          ),
          response: { 201: CreatedApp },
        },
      },
      async (request, reply) => reply.status(201).send(await apps.register(request.principal!, request.body)),
    );

    app.get(
      '/v1/developer/apps',
      {
        schema: {
          tags: ['oauth'],
          summary: 'The caller’s OAuth apps, newest first (never the secret)',
          description: LOGIN_ONLY,
          querystring: Type.Composite([PageQuery], { additionalProperties: false }),
          response: { 200: Paginated(App, 'OAuthAppList') },
        },
      },
      async (request) => apps.list(request.principal!, pageOf(request.query)),
    );

    app.get(
      '/v1/developer/apps/:id',
      {
        schema: {
          tags: ['oauth'],
          summary: 'One of the caller’s OAuth apps (another user’s is 404; platform:admin sees any)',
          description: LOGIN_ONLY,
          params: IdParams('id'),
          response: { 200: App },
        },
      },
      async (request) => apps.get(request.principal!, request.params.id),
    );

    app.delete(
      '/v1/developer/apps/:id',
      {
        schema: {
          tags: ['oauth'],
          summary: 'Deletes an OAuth app: every token it holds stops working at once',
          description: `${LOGIN_ONLY} Another user’s app is 404 (platform:admin may delete any).`,
          params: IdParams('id'),
          response: { 204: Type.Null() },
        },
      },
      async (request, reply) => {
        await apps.delete(request.principal!, request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/v1/users/me/apps',
      {
        schema: {
          tags: ['oauth'],
          summary: 'The apps the caller authorized, with the scopes approved for each',
          description: LOGIN_ONLY,
          querystring: Type.Composite([PageQuery], { additionalProperties: false }),
          response: { 200: Paginated(AuthorizedApp, 'AuthorizedAppList') },
        },
      },
      async (request) => apps.userApps(request.principal!, pageOf(request.query)),
    );

    app.delete(
      '/v1/users/me/apps/:id',
      {
        schema: {
          tags: ['oauth'],
          summary: 'Revokes an app’s access (id: its client_id): its tokens stop working at once',
          description: `${LOGIN_ONLY} An app the caller never authorized is 404.`,
          params: IdParams('id'),
          response: { 204: Type.Null() },
        },
      },
      async (request, reply) => {
        await apps.revokeUserApp(request.principal!, request.params.id);
        return reply.status(204).send(null);
      },
    );

    const authorizeNotes = [
      'The authorization endpoint of the OAuth 2.0 authorization code flow with PKCE (S256 only), for the signed-in user (bearer token of a login session; an API key or an app token answers 403).',
      'The app sends the user’s browser to the platform’s web client with these parameters; the client calls this route with the user’s token.',
      'An unknown client_id, or a redirect_uri that is not exactly one of the app’s, answers 400 PLATFORM_OAUTH_INVALID_CLIENT_REQUEST and must not be redirected to.',
      'Any other problem (response_type not code, missing code_challenge, code_challenge_method not S256, a scope the app may not ask for) is for the app:',
      'the answer says where to send the browser: the redirect_uri with error, error_description, state and iss (RFC 9207).',
    ].join(' ');

    app.get(
      '/v1/oauth/authorize',
      {
        schema: {
          tags: ['oauth'],
          summary: 'Reads an authorization request: what the app asks the signed-in user to approve',
          description: `${authorizeNotes} A valid request answers \`type: "consent"\` with the app and each scope (whether the user holds it, whether it was approved before); then POST the same parameters with the decision.`,
          querystring: Type.Object(AuthorizationParams),
          response: { 200: ConsentAnswer },
        },
      },
      async (request, reply) => {
        reply.header('Cache-Control', 'no-store');
        return authorize.consent(request.principal!, request.query);
      },
    );

    app.post(
      '/v1/oauth/authorize',
      {
        schema: {
          tags: ['oauth'],
          summary: 'The user approves or denies an authorization request; answers the redirect for the browser',
          description: [
            authorizeNotes,
            `approve: the requested scopes the user holds are granted (never more than the user’s own rights; the others are left out and the token answer’s scope says what was granted),`,
            `and the redirect carries a single-use code valid ${CODE_TTL_SEC / 60} minutes, bound to the app, redirect_uri, user, scopes and code_challenge.`,
            'deny: the redirect carries error=access_denied.',
          ].join(' '),
          body: Type.Object({ ...AuthorizationParams, decision: StringEnum(['approve', 'deny'] as const) }, { additionalProperties: false }),
          response: { 200: Type.Object({ redirect_to: Type.String({ format: 'uri' }) }, { title: 'OAuthDecision' }) },
        },
      },
      async (request, reply) => {
        reply.header('Cache-Control', 'no-store');
        const { decision, ...params } = request.body;
        return authorize.decide(request.principal!, params, decision);
      },
    );

    app.get(
      '/.well-known/oauth-authorization-server',
      {
        config: { public: true },
        schema: {
          tags: ['oauth'],
          summary: 'OAuth 2.0 authorization server metadata (RFC 8414)',
          response: {
            200: Type.Object(
              {
                issuer: Type.String(),
                authorization_endpoint: Type.String(),
                token_endpoint: Type.String(),
                response_types_supported: Type.Array(Type.String()),
                response_modes_supported: Type.Array(Type.String()),
                grant_types_supported: Type.Array(Type.String()),
                code_challenge_methods_supported: Type.Array(Type.String()),
                token_endpoint_auth_methods_supported: Type.Array(Type.String()),
                scopes_supported: Type.Array(Type.String()),
                authorization_response_iss_parameter_supported: Type.Boolean(),
                service_documentation: Type.String(),
              },
              { title: 'OAuthServerMetadata' },
            ),
          },
        },
      },
      async () => ({
        issuer,
        authorization_endpoint: `${issuer}/v1/oauth/authorize`,
        token_endpoint: `${issuer}/v1/oauth/token`,
        response_types_supported: ['code'],
        response_modes_supported: ['query'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
        scopes_supported: [...GRANTABLE_SCOPES],
        authorization_response_iss_parameter_supported: true,
        service_documentation: `${issuer}/docs`,
      }),
    );
  };
}
