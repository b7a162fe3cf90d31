/**
 * Platform authentication: sign-up, login (with the 2FA step for the roles that need TOTP), refresh and revoke.
 * Every session answer carries the refresh token in its body (API clients, contract.md) and also sets it as an
 * HttpOnly, SameSite=Strict cookie scoped to POST /v1/auth/refresh, which the web player uses instead: its
 * script never holds a refresh token (security issue #16, item 13). A refresh by cookie answers without the
 * token in the body.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AuthService, IssuedLogin } from '../../auth/auth.service.js';
import { REFRESH_TOKEN_TTL_SEC } from '../../auth/tokens.js';
import { Errors } from '../../errors.js';
import { clientKey } from '../../http/client-address.js';
import { Email, Password } from '../../http/schemas.js';
import { AuthorizationCode, accountRoutes } from './account-routes.js';

/** The web player's refresh token (the staff one is `refresh_token` on /api/auth). */
export const PLATFORM_REFRESH_COOKIE = 'platform_refresh_token';
export const PLATFORM_REFRESH_PATH = '/v1/auth/refresh';

const PublicUser = Type.Object({ id: Type.String(), email: Type.String(), role: Type.String(), display_name: Type.String() }, { title: 'User' });
const SessionAnswer = Type.Object(
  {
    token: Type.String({ description: 'Access JWT, 15 minutes' }),
    refresh_token: Type.String({ description: 'Refresh token, 7 days, rotated on every use' }),
    role: Type.String(),
    csrf_token: Type.String(),
    expires_in: Type.Integer(),
    user: PublicUser,
  },
  { title: 'PlatformSession' },
);
const TwoFactorAnswer = Type.Object(
  { requires_2fa: Type.Literal(true), temp_token: Type.String({ description: 'Valid 5 minutes, for /v1/auth/2fa/verify' }) },
  { title: 'TwoFactorRequired' },
);

function sessionAnswer(login: IssuedLogin) {
  return {
    token: login.accessToken,
    refresh_token: login.refreshToken,
    role: login.user.role,
    csrf_token: login.csrfToken,
    expires_in: login.expiresIn,
    user: login.user,
  };
}

const RefreshAnswer = Type.Composite(
  [
    Type.Omit(SessionAnswer, ['refresh_token']),
    Type.Object({
      refresh_token: Type.Optional(Type.String({ description: 'The rotated refresh token; left out when the refresh came by cookie (the cookie carries it)' })),
    }),
  ],
  { title: 'PlatformRefreshed' },
);

const credentialCreating = { public: true, csrfExempt: true } as const;

export function platformAuthRoutes(auth: AuthService, secureCookies: boolean) {
  function setRefreshCookie(reply: FastifyReply, login: IssuedLogin) {
    reply.setCookie(PLATFORM_REFRESH_COOKIE, login.refreshToken, {
      httpOnly: true,
      sameSite: 'strict',
      secure: secureCookies,
      path: PLATFORM_REFRESH_PATH,
      maxAge: REFRESH_TOKEN_TTL_SEC,
    });
  }
  /** The session answer, with the refresh cookie set beside it. */
  const issue = (reply: FastifyReply, login: IssuedLogin) => {
    setRefreshCookie(reply, login);
    return sessionAnswer(login);
  };

  return async function register(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    await app.register(accountRoutes(auth));

    app.post(
      '/v1/auth/signup',
      {
        config: { ...credentialCreating, rateLimit: { max: 20, timeWindow: 60_000, keyGenerator: (r) => clientKey(r.ip) } },
        schema: {
          tags: ['platform-auth'],
          summary: 'Creates a listener account and returns its tokens',
          body: Type.Object({ email: Email, password: Password, display_name: Type.String({ minLength: 1, maxLength: 80 }) }, { additionalProperties: false }),
          response: { 201: SessionAnswer },
        },
      },
      async (request, reply) => {
        const login = await auth.accounts.signup({
          email: request.body.email,
          password: request.body.password,
          displayName: request.body.display_name.trim(),
        });
        return reply.status(201).send(issue(reply, login));
      },
    );

    app.post(
      '/v1/auth/login',
      {
        config: { ...credentialCreating, rateLimit: { max: 10, timeWindow: 60_000, keyGenerator: (r) => clientKey(r.ip) } },
        schema: {
          tags: ['platform-auth'],
          summary: 'Returns tokens and role; roles whose scopes need TOTP get the 2FA answer instead',
          description:
            'developer, admin and super_admin with a TOTP secret get `{"requires_2fa":true,"temp_token"}` (5 minutes) and complete on /v1/auth/2fa/verify. ' +
            'Such a role without a TOTP secret gets a session without the TOTP-only scopes (station scopes other than station:read, and platform:admin). ' +
            'Every failure answers the same 401 PLATFORM_INVALID_CREDENTIALS; after 5 failures for one e-mail, 429 with Retry-After (30 s doubling up to 15 min).',
          body: Type.Object({ email: Email, password: Type.String({ minLength: 1, maxLength: 256 }) }, { additionalProperties: false }),
          response: { 200: Type.Union([SessionAnswer, TwoFactorAnswer]) },
        },
      },
      async (request, reply) => {
        const result = await auth.platformLogin(request.body.email, request.body.password, clientKey(request.ip));
        return 'mfaToken' in result ? { requires_2fa: true as const, temp_token: result.mfaToken } : issue(reply, result);
      },
    );

    app.post(
      '/v1/auth/2fa/verify',
      {
        config: { ...credentialCreating, rateLimit: { max: 5, timeWindow: 5 * 60_000, keyGenerator: (r) => clientKey(r.ip) } },
        schema: {
          tags: ['platform-auth'],
          summary: 'Completes a login that answered requires_2fa, with the TOTP code',
          description: 'A temp_token takes at most 5 codes and opens one session; every failure answers the same 401 PLATFORM_INVALID_CREDENTIALS.',
          body: Type.Object(
            { temp_token: Type.String({ minLength: 1, maxLength: 2048 }), code: Type.String({ pattern: '^[0-9]{6}$' }) },
            { additionalProperties: false },
          ),
          response: { 200: SessionAnswer },
        },
      },
      async (request, reply) => issue(reply, await auth.verifySecondFactor(request.body.temp_token, request.body.code, clientKey(request.ip))),
    );

    app.post(
      '/v1/auth/google',
      {
        config: { ...credentialCreating, rateLimit: { max: 20, timeWindow: 60_000, keyGenerator: (r) => clientKey(r.ip) } },
        schema: {
          tags: ['platform-auth'],
          summary: 'Signs in with the OpenID Connect provider (OIDC_ISSUER): redeems an authorization code obtained with PKCE',
          description: [
            'The client sends the user to the provider\'s authorization endpoint (response_type=code, scope "openid email profile",',
            'code_challenge_method=S256, its own redirect_uri, state and nonce), then posts here what came back with the PKCE verifier.',
            'The server redeems the code with OIDC_CLIENT_ID / OIDC_CLIENT_SECRET and verifies the ID token (signature, issuer, audience, expiry, nonce).',
            'A known identity signs its account in; a new one is linked to the account with the same e-mail only if the provider marks it verified',
            'and that account verified its address (otherwise 409 PLATFORM_CONFLICT: the owner logs in and links it with POST /v1/users/me/identities);',
            'linking ends every other session of the account. Otherwise the identity gets a new listener account (`created: true`, event user.signup),',
            'its address verified when the provider says so.',
            'Answers like /v1/auth/login (roles needing TOTP get requires_2fa). A refused code or token: 401 PLATFORM_INVALID_CREDENTIALS;',
            'not configured: 503 PLATFORM_IDENTITY_PROVIDER_NOT_CONFIGURED; provider unreachable: 503 PLATFORM_IDENTITY_PROVIDER_UNAVAILABLE.',
          ].join(' '),
          body: AuthorizationCode,
          response: {
            200: Type.Union([
              Type.Composite([SessionAnswer, Type.Object({ created: Type.Boolean({ description: 'a new account was created' }) })], {
                title: 'ProviderSession',
              }),
              TwoFactorAnswer,
            ]),
          },
        },
      },
      async (request, reply) => {
        const { code, redirect_uri, code_verifier, state, nonce, iss } = request.body;
        const result = await auth.signInWithProvider({ code, redirectUri: redirect_uri, codeVerifier: code_verifier, state, nonce, iss });
        return 'mfaToken' in result ? { requires_2fa: true as const, temp_token: result.mfaToken } : { ...issue(reply, result), created: result.created };
      },
    );

    app.post(
      '/v1/auth/token',
      {
        config: { ...credentialCreating, rateLimit: { max: 60, timeWindow: 60_000, keyGenerator: (r) => clientKey(r.ip) } },
        schema: {
          tags: ['platform-auth'],
          summary: "Exchanges a developer API key for a JWT (15 minutes) with the key's scopes and environment",
          description:
            'Later requests send `Authorization: Bearer <token>` and `X-API-Key: <key>`; when both are sent the key must be the one the token was issued for. ' +
            'The token dies with the key: a revoked key or a banned owner stops it at once. The bootstrap service key (STATION_SERVICE_API_KEY) has no owner ' +
            'and is not exchanged: it authenticates with X-API-Key. An unknown, revoked or ownerless key answers 401 PLATFORM_INVALID_CREDENTIALS.',
          body: Type.Object({ api_key: Type.String({ minLength: 1, maxLength: 512 }) }, { additionalProperties: false }),
          response: {
            200: Type.Object(
              {
                token: Type.String(),
                expires_in: Type.Integer({ description: 'seconds' }),
                csrf_token: Type.String({ description: 'X-CSRF-Token for state-changing calls with this key or token' }),
              },
              { title: 'ApiKeyToken' },
            ),
          },
        },
      },
      async (request) => {
        const issued = await auth.apiKeys.exchange(request.body.api_key);
        return { token: issued.token, expires_in: issued.expiresIn, csrf_token: issued.csrfToken };
      },
    );

    app.post(
      '/v1/auth/refresh',
      {
        config: { ...credentialCreating, rateLimit: { max: 60, timeWindow: 60_000, keyGenerator: (r) => clientKey(r.ip) } },
        schema: {
          tags: ['platform-auth'],
          summary: 'New tokens from a refresh token (rotated; reuse revokes the login)',
          description:
            'The refresh token comes in the body (API clients) or, when the body has none, from the `platform_refresh_token` cookie ' +
            '(HttpOnly, SameSite=Strict, Path=/v1/auth/refresh, 7 days) that every session answer sets: the web player uses the cookie and never sees the token. ' +
            'Either way the cookie is rotated; a refresh by cookie answers without `refresh_token` in the body. ' +
            'Presenting a token that was already rotated revokes the whole login. No token at all, or an unknown, expired or revoked one: 401 PLATFORM_AUTH_REQUIRED.',
          body: Type.Object({ refresh_token: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })) }, { additionalProperties: false }),
          response: { 200: RefreshAnswer },
        },
        // A cookie refresh may come with no body at all: it is validated as the empty object.
        preValidation: async (request) => {
          request.body ??= {};
        },
      },
      async (request, reply) => {
        const fromBody = request.body.refresh_token;
        const presented = fromBody ?? request.cookies[PLATFORM_REFRESH_COOKIE];
        if (!presented) throw Errors.authRequired('send {"refresh_token"} or the refresh cookie');
        const login = await auth.refresh(presented, 'platform');
        const answer = issue(reply, login);
        if (fromBody !== undefined) return answer;
        const { refresh_token: _inCookieOnly, ...withoutToken } = answer;
        return withoutToken;
      },
    );

    app.post(
      '/v1/auth/reset-password',
      {
        config: { ...credentialCreating, rateLimit: { max: 5, timeWindow: 60_000, keyGenerator: (r) => clientKey(r.ip) } },
        schema: {
          tags: ['platform-auth'],
          summary: 'Mails a password-reset link; always 202, whether or not the address has an account',
          description:
            'An active account gets a mail (SMTP with SMTP_URL, otherwise the database outbox) with `{PUBLIC_BASE_URL}/reset-password?token=...`: ' +
            'valid 1 hour, usable once; only its hash is stored. At most 3 links per address per hour (later requests still answer 202). ' +
            'The answer and its timing are the same whether the address exists or not: the mail is written after the answer.',
          body: Type.Object({ email: Email }, { additionalProperties: false }),
          response: { 202: Type.Object({ status: Type.Literal('accepted') }, { title: 'ResetRequested' }) },
        },
      },
      async (request, reply) => {
        await auth.accounts.requestPasswordReset(request.body.email);
        return reply.status(202).send({ status: 'accepted' as const });
      },
    );

    app.post(
      '/v1/auth/reset-password/confirm',
      {
        config: { ...credentialCreating, rateLimit: { max: 10, timeWindow: 60_000, keyGenerator: (r) => clientKey(r.ip) } },
        schema: {
          tags: ['platform-auth'],
          summary: 'Sets a new password from a reset link and ends every session of the account',
          description:
            'Every login of the account is revoked (refresh tokens included) and its WebSocket clients and streams are closed. ' +
            'An unknown, used or expired token answers 400 PLATFORM_RESET_TOKEN_INVALID.',
          body: Type.Object({ token: Type.String({ minLength: 1, maxLength: 256 }), password: Password }, { additionalProperties: false }),
          response: { 204: Type.Null() },
        },
      },
      async (request, reply) => {
        await auth.accounts.confirmPasswordReset(request.body.token, request.body.password);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/v1/auth/revoke',
      {
        schema: {
          tags: ['platform-auth'],
          summary: 'Revokes the current session: its access and refresh tokens stop working',
          response: { 200: Type.Object({ revoked: Type.Boolean() }) },
        },
      },
      async (request, reply) => {
        const sessionId = request.principal!.sessionId;
        if (sessionId) await auth.revokeSession(sessionId, 'revoked by the user');
        reply.clearCookie(PLATFORM_REFRESH_COOKIE, { path: PLATFORM_REFRESH_PATH });
        return { revoked: sessionId !== null };
      },
    );
  };
}
