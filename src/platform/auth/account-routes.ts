/**
 * The account's proofs of who it is: e-mail verification (contract.md, "Accounts and onboarding"), a change of
 * address or of password, and linking a sign-in provider from a login session (src/auth/email-verification.ts,
 * src/auth/provider-accounts.ts).
 */
import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AuthService } from '../../auth/auth.service.js';
import { clientKey } from '../../http/client-address.js';
import { Email, Password } from '../../http/schemas.js';

/** The body of an authorization code to redeem at the provider (as POST /v1/auth/google takes it). */
export const AuthorizationCode = Type.Object(
  {
    code: Type.String({ minLength: 1, maxLength: 2048 }),
    redirect_uri: Type.String({ format: 'uri', maxLength: 2048, description: 'the redirect_uri of the authorization request' }),
    code_verifier: Type.String({ minLength: 43, maxLength: 128, description: 'PKCE verifier (S256)' }),
    state: Type.Optional(Type.String({ maxLength: 512 })),
    nonce: Type.Optional(Type.String({ maxLength: 512, description: 'the nonce of the authorization request, checked in the ID token' })),
    iss: Type.Optional(Type.String({ maxLength: 2048, description: "the authorization response's iss parameter (RFC 9207), when there was one" })),
  },
  { additionalProperties: false },
);

export function accountRoutes(auth: AuthService) {
  return async function register(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.post(
      '/v1/auth/verify-email',
      {
        // The token is the credential, as for reset-password/confirm.
        config: { public: true, csrfExempt: true, rateLimit: { max: 10, timeWindow: 60_000, keyGenerator: (r) => clientKey(r.ip) } },
        schema: {
          tags: ['platform-auth'],
          summary: 'Marks the address verified with the token of a verification link',
          description:
            'Sign-up and an address change mail `{PUBLIC_BASE_URL}/verify-email?token=...` (SMTP with SMTP_URL, otherwise the database outbox): valid 24 hours, ' +
            'usable once, and only for the address it was mailed to. An unknown, used or expired token, or one mailed to an address the account no longer has, ' +
            'answers 400 PLATFORM_VERIFICATION_TOKEN_INVALID.',
          body: Type.Object({ token: Type.String({ minLength: 1, maxLength: 256 }) }, { additionalProperties: false }),
          response: { 200: Type.Object({ email_verified: Type.Literal(true) }, { title: 'EmailVerified' }) },
        },
      },
      async (request) => {
        await auth.accounts.verifyEmail(request.body.token);
        return { email_verified: true as const };
      },
    );

    app.post(
      '/v1/auth/verify-email/resend',
      {
        config: { rateLimit: { max: 10, timeWindow: 60_000, keyGenerator: (r) => clientKey(r.ip) } },
        schema: {
          tags: ['platform-auth'],
          summary: "Mails a new verification link to the caller's address",
          description:
            'From a login session only (an API key or an app answers 403 PLATFORM_FORBIDDEN). At most 3 links per account per clock hour (then 429 PLATFORM_RATE_LIMITED with Retry-After); an address already verified answers 409 PLATFORM_CONFLICT. ' +
            'Earlier links stay valid until they expire or one of them is used.',
          response: { 202: Type.Object({ status: Type.Literal('accepted') }, { title: 'VerificationRequested' }) },
        },
      },
      async (request, reply) => {
        await auth.accounts.resendVerification(request.principal!);
        return reply.status(202).send({ status: 'accepted' as const });
      },
    );

    app.put(
      '/v1/users/me/email',
      {
        config: { rateLimit: { max: 10, timeWindow: 60_000, keyGenerator: (r) => clientKey(r.ip) } },
        schema: {
          tags: ['users'],
          summary: "Changes the caller's e-mail address (needs the account's password); the new address starts unverified",
          description:
            'From a login session only (an API key answers 403 PLATFORM_FORBIDDEN). A verification link goes to the new address and a notice to the old one; ' +
            'outstanding verification and password-reset links die. A wrong password answers 401 PLATFORM_INVALID_CREDENTIALS and counts toward the ' +
            "account's login throttle; an address another account has answers 409 PLATFORM_CONFLICT. An account made by a sign-in provider has no " +
            'password: it sets one through reset-password first.',
          body: Type.Object({ email: Email, password: Type.String({ minLength: 1, maxLength: 256 }) }, { additionalProperties: false }),
          response: {
            200: Type.Object(
              { id: Type.String(), email: Type.String(), role: Type.String(), display_name: Type.String(), email_verified: Type.Boolean() },
              { title: 'AddressChanged' },
            ),
          },
        },
      },
      async (request) => auth.accounts.changeEmail(request.principal!, request.body.email, request.body.password, clientKey(request.ip)),
    );

    app.put(
      '/v1/users/me/password',
      {
        config: { rateLimit: { max: 10, timeWindow: 60_000, keyGenerator: (r) => clientKey(r.ip) } },
        schema: {
          tags: ['users'],
          summary: "Changes the caller's password (needs the current one); every other session of the account ends",
          description:
            'From a login session only (an API key or an app answers 403 PLATFORM_FORBIDDEN). A wrong current password answers 401 ' +
            "PLATFORM_INVALID_CREDENTIALS and counts toward the account's login throttle (429 while it is locked); the new password " +
            'follows the sign-up rule (else 400 PLATFORM_VALIDATION_FAILED). Outstanding password-reset links stop working, and every ' +
            'other session of the account ends (its refresh tokens too); the session that asked stays logged in. An account made by a ' +
            'sign-in provider has no password: it sets one through reset-password.',
          body: Type.Object({ current_password: Type.String({ minLength: 1, maxLength: 256 }), new_password: Password }, { additionalProperties: false }),
          response: { 204: Type.Null({ description: 'changed' }) },
        },
      },
      async (request, reply) => {
        await auth.accounts.changePassword(request.principal!, request.body.current_password, request.body.new_password, clientKey(request.ip));
        return reply.code(204).send(null);
      },
    );

    app.post(
      '/v1/users/me/identities',
      {
        config: { rateLimit: { max: 20, timeWindow: 60_000, keyGenerator: (r) => clientKey(r.ip) } },
        schema: {
          tags: ['users'],
          summary: "Links an identity of the OpenID Connect provider (OIDC_ISSUER) to the caller's account",
          description: [
            'The way to link the provider to an account whose address is not verified (POST /v1/auth/google answers 409 for it).',
            'The body is what POST /v1/auth/google takes: an authorization code obtained with PKCE, redeemed here and its ID token verified.',
            "From a login session only. Every other session of the account ends. When the provider verified the account's own address, the address counts as verified.",
            'An identity linked to another account: 409 PLATFORM_CONFLICT; linking it again to the same account changes nothing.',
          ].join(' '),
          body: AuthorizationCode,
          response: {
            200: Type.Object(
              { issuer: Type.String(), email_verified: Type.Boolean({ description: "whether the account's address is verified now" }) },
              { title: 'LinkedIdentity' },
            ),
          },
        },
      },
      async (request) => {
        const { code, redirect_uri, code_verifier, state, nonce, iss } = request.body;
        return auth.linkProvider(request.principal!, { code, redirectUri: redirect_uri, codeVerifier: code_verifier, state, nonce, iss });
      },
    );
  };
}
