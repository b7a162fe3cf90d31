/**
 * POST /v1/oauth/token. OAuth clients post application/x-www-form-urlencoded (JSON is accepted too) and read
 * RFC 6749's error body, `{"error","error_description"}` with 400 (401 invalid_client), not the platform's
 * envelope: this plugin parses forms and answers protocol errors itself. Rate limits and failures of ours
 * keep the envelope.
 */
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { clientKey } from '../../http/client-address.js';
import { sendError, toErrorResponse } from '../../http/error-handler.js';
import { OAuthError, invalidClient, invalidRequest } from './oauth-errors.js';
import type { BasicCredentials, OAuthTokenService } from './token.service.js';

const Param = (description: string) => Type.Optional(Type.String({ maxLength: 2048, description }));

const OAuthErrorBody = Type.Object(
  {
    error: Type.String({ enum: ['invalid_request', 'invalid_client', 'invalid_grant', 'unauthorized_client', 'unsupported_grant_type', 'invalid_scope'] }),
    error_description: Type.String(),
  },
  { title: 'OAuthErrorBody' },
);

function noStore(reply: FastifyReply): FastifyReply {
  return reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
}

function sendOAuthError(reply: FastifyReply, error: OAuthError, basicUsed: boolean) {
  // RFC 6749 section 5.2: a client that tried Authorization: Basic is told how to authenticate.
  if (error.error === 'invalid_client' && basicUsed) reply.header('WWW-Authenticate', 'Basic realm="station", charset="UTF-8"');
  return noStore(reply).status(error.status).send(error.body());
}

/** RFC 6749 section 2.3.1: client_id and client_secret are form-urlencoded, then joined with ':' and base64-encoded. */
export function basicCredentials(header: string | undefined): BasicCredentials | null {
  if (!header || !/^Basic\s/i.test(header)) return null;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 1) throw invalidClient('malformed Basic credentials');
  try {
    const part = (text: string) => decodeURIComponent(text.replace(/\+/g, ' '));
    return { clientId: part(decoded.slice(0, colon)), clientSecret: part(decoded.slice(colon + 1)) };
  } catch {
    throw invalidClient('malformed Basic credentials');
  }
}

export function oauthTokenRoutes(tokens: OAuthTokenService) {
  return async function register(fastify: FastifyInstance) {
    // Each parameter once (RFC 6749 section 3.2): a repeated one is refused rather than picked.
    fastify.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16 * 1024 }, (_request, body, done) => {
      const params = new URLSearchParams(String(body));
      const names = [...params.keys()];
      const repeated = names.find((name, i) => names.indexOf(name) !== i);
      if (repeated) return done(invalidRequest(`parameter ${repeated} is repeated`), undefined);
      done(null, Object.fromEntries(params));
    });
    fastify.setErrorHandler((error: FastifyError | OAuthError, request, reply) => {
      if (error instanceof OAuthError) return sendOAuthError(reply, error, false);
      const failure = toErrorResponse(error);
      if (failure.code === 'VALIDATION_FAILED' || failure.code === 'UNSUPPORTED_MEDIA_TYPE') {
        return sendOAuthError(
          reply,
          invalidRequest(failure.status === 415 ? 'send application/x-www-form-urlencoded' : failure.detail || failure.message),
          false,
        );
      }
      if (failure.status >= 500) request.log.error({ err: error, code: failure.code }, 'request failed');
      return sendError(request, reply, failure);
    });

    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    app.post(
      '/v1/oauth/token',
      {
        config: { public: true, csrfExempt: true, rateLimit: { max: 60, timeWindow: 60_000, keyGenerator: (r) => clientKey(r.ip) } },
        schema: {
          tags: ['oauth'],
          summary: 'OAuth 2.0 token endpoint: authorization_code (with code_verifier) and refresh_token (rotated)',
          description: [
            'Body application/x-www-form-urlencoded (or JSON). A confidential app authenticates with HTTP Basic (client_secret_basic) or client_id and client_secret in the body (client_secret_post);',
            'a public app sends client_id only. authorization_code needs code, redirect_uri (the authorization request’s) and code_verifier (PKCE S256);',
            'a code is spent by its first redemption: a second one is refused and revokes the tokens issued from it. refresh_token answers a new refresh token',
            'and spends the old one; presenting a spent one revokes that access. An optional scope narrows the access for good (never widens it).',
            'The tokens act for the user with the approved scopes only, within the user’s own rights, and stop when the user is banned, the app deleted or the access revoked;',
            'csrf_token is the X-CSRF-Token for the app’s state-changing calls. Errors follow RFC 6749: {"error","error_description"}, 400 (401 invalid_client).',
          ].join(' '),
          consumes: ['application/x-www-form-urlencoded', 'application/json'],
          body: Type.Object(
            {
              grant_type: Param('authorization_code or refresh_token'),
              code: Param('authorization_code: the code from the redirect'),
              redirect_uri: Param('authorization_code: the redirect_uri of the authorization request'),
              code_verifier: Param('authorization_code: the PKCE verifier (43 to 128 characters)'),
              refresh_token: Param('refresh_token: the current refresh token'),
              scope: Param('refresh_token: optional, a subset of the granted scopes'),
              client_id: Param('the app’s client_id (unless sent with HTTP Basic)'),
              client_secret: Param('client_secret_post: a confidential app’s secret'),
            },
            { additionalProperties: true },
          ),
          response: {
            200: Type.Object(
              {
                access_token: Type.String(),
                token_type: Type.Literal('Bearer'),
                expires_in: Type.Integer(),
                refresh_token: Type.String(),
                scope: Type.String({ description: 'What the token holds: the approved scopes the user’s role grants' }),
                csrf_token: Type.String(),
              },
              { title: 'OAuthTokenAnswer' },
            ),
            400: OAuthErrorBody,
            401: OAuthErrorBody,
          },
        },
      },
      async (request, reply) => {
        const header = request.headers.authorization;
        const basicUsed = typeof header === 'string' && /^Basic\s/i.test(header);
        try {
          const answer = await tokens.token(request.body as Record<string, string>, basicCredentials(header));
          return noStore(reply).send(answer);
        } catch (error) {
          if (error instanceof OAuthError) return sendOAuthError(reply, error, basicUsed);
          throw error;
        }
      },
    );
  };
}
