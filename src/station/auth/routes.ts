/** Staff authentication (contract.md): admin login with TOTP, refresh cookie rotation, CSRF token, permission set. */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AuthService, IssuedLogin } from '../../auth/auth.service.js';
import { REFRESH_TOKEN_TTL_SEC } from '../../auth/tokens.js';
import { Errors } from '../../errors.js';
import { clientKey } from '../../http/client-address.js';
import { Email } from '../../http/schemas.js';

const REFRESH_COOKIE = 'refresh_token';
const COOKIE_PATH = '/api/auth';

const StaffUser = Type.Object({ id: Type.String(), email: Type.String(), role: Type.String() });
const TokenAnswer = Type.Object({
  access_token: Type.String(),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer(),
  csrf_token: Type.String(),
});
const LoginAnswer = Type.Composite([TokenAnswer, Type.Object({ user: StaffUser })], { title: 'StaffLoginAnswer' });
const LoginBody = Type.Object(
  {
    email: Email,
    password: Type.String({ minLength: 1, maxLength: 256 }),
    totp_code: Type.String({ pattern: '^[0-9]{6}$', description: 'RFC 6238 code (SHA-1, 6 digits, 30 s)' }),
  },
  { additionalProperties: false },
);
const Permissions = Type.Object(
  {
    can_train: Type.Boolean(),
    can_generate: Type.Boolean(),
    can_toggle_radio: Type.Boolean(),
    scopes: Type.Array(Type.String()),
    role: Type.Union([Type.String(), Type.Null()]),
    subject: Type.Union([Type.String(), Type.Null()]),
  },
  { title: 'PermissionSet' },
);

export function staffAuthRoutes(auth: AuthService, secureCookies: boolean) {
  function setRefreshCookie(reply: FastifyReply, login: IssuedLogin) {
    reply.setCookie(REFRESH_COOKIE, login.refreshToken, {
      httpOnly: true,
      sameSite: 'strict',
      secure: secureCookies,
      path: COOKIE_PATH,
      maxAge: REFRESH_TOKEN_TTL_SEC,
    });
  }
  const tokenAnswer = (login: IssuedLogin) => ({
    access_token: login.accessToken,
    token_type: 'Bearer' as const,
    expires_in: login.expiresIn,
    csrf_token: login.csrfToken,
  });

  return async function register(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.post(
      '/api/auth/admin/login',
      {
        config: { public: true, csrfExempt: true, rateLimit: { max: 5, timeWindow: 15 * 60 * 1000, keyGenerator: (r) => clientKey(r.ip) } },
        schema: {
          tags: ['station-auth'],
          summary: 'Staff login: e-mail, password and TOTP code (5 per 15 minutes per address)',
          description:
            'For the roles whose scopes need TOTP (developer, admin, super_admin). Every failure answers the same 401 STATION_INVALID_CREDENTIALS. ' +
            'After 5 failures for one e-mail, further attempts are refused with 429 and Retry-After for a time that doubles with each failure (30 s up to 15 min).',
          body: LoginBody,
          response: { 200: LoginAnswer },
        },
      },
      async (request, reply) => {
        const { email, password, totp_code } = request.body;
        const login = await auth.staffLogin({ email, password, totpCode: totp_code }, clientKey(request.ip));
        setRefreshCookie(reply, login);
        return { ...tokenAnswer(login), user: { id: login.user.id, email: login.user.email, role: login.user.role } };
      },
    );

    app.post(
      '/api/auth/refresh',
      {
        config: { public: true, csrfExempt: true, rateLimit: { max: 60, timeWindow: 60_000, keyGenerator: (r) => clientKey(r.ip) } },
        schema: {
          tags: ['station-auth'],
          summary: 'Turns the refresh cookie into a new access token and rotates the cookie',
          description: 'Presenting a refresh token that was already rotated revokes the whole login.',
          response: { 200: TokenAnswer },
        },
      },
      async (request, reply) => {
        const presented = request.cookies[REFRESH_COOKIE];
        if (!presented) throw Errors.authRequired('refresh cookie missing');
        const login = await auth.refresh(presented, 'staff');
        setRefreshCookie(reply, login);
        return tokenAnswer(login);
      },
    );

    app.post(
      '/api/auth/logout',
      {
        schema: {
          tags: ['station-auth'],
          summary: 'Ends this login: revokes its refresh tokens and clears the cookie',
          response: { 204: Type.Null({ description: 'Logged out' }) },
        },
      },
      async (request, reply) => {
        if (request.principal?.sessionId) await auth.revokeSession(request.principal.sessionId, 'logout');
        reply.clearCookie(REFRESH_COOKIE, { path: COOKIE_PATH });
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/api/auth/csrf',
      {
        schema: {
          tags: ['station-auth'],
          summary: 'The CSRF token bound to the presented credential (bearer or X-API-Key)',
          response: { 200: Type.Object({ csrf_token: Type.String() }) },
        },
      },
      async (request) => ({ csrf_token: auth.csrf.forCredential(request.principal!.credentialId) }),
    );

    app.get(
      '/station/v1/auth/validate',
      { schema: { tags: ['station-auth'], summary: 'The permission set of the presented token', response: { 200: Permissions } } },
      async (request) => {
        const principal = request.principal!;
        return {
          can_train: principal.scopes.has('station:train'),
          can_generate: principal.scopes.has('station:generate'),
          can_toggle_radio: principal.scopes.has('station:admin'),
          scopes: [...principal.scopes].filter((s) => s.startsWith('station:')).sort(),
          role: principal.role,
          subject: principal.userId ?? principal.apiKeyId,
        };
      },
    );
  };
}
