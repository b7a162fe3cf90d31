/** POST /v1/users/me/totp and POST /v1/users/me/totp/confirm: two-factor enrolment for any account (src/auth/totp-enrolment.ts). */
import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { TotpEnrolment } from '../../auth/totp-enrolment.js';

const Code = (description: string) => Type.String({ pattern: '^[0-9]{6}$', description });

export function totpRoutes(totp: TotpEnrolment) {
  return async function register(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.post(
      '/v1/users/me/totp',
      {
        // The body is optional (only a replacement carries one): a request without one validates as {}.
        preValidation: async (request) => {
          request.body ??= {};
        },
        schema: {
          tags: ['users'],
          summary: 'Starts two-factor enrolment: a new TOTP secret, shown this once',
          description:
            'From a login session (an API key or an app answers 403 PLATFORM_FORBIDDEN). Answers the secret (base32) and its ' +
            '`otpauth://totp/...` URL for an authenticator app (the admin panel shows it as a QR code). The secret counts for nothing ' +
            'until POST /v1/users/me/totp/confirm. Enrolling again replaces an unconfirmed secret. A confirmed second factor is ' +
            'replaced only with `current_code`, a current code from it (else 403 PLATFORM_FORBIDDEN, or 400 PLATFORM_VALIDATION_FAILED ' +
            'for a wrong code); without the device, a super_admin resets it (DELETE /v1/admin/users/{id}/totp). Five wrong codes ' +
            'within 15 minutes answer 429.',
          body: Type.Object(
            { current_code: Type.Optional(Code('A current code of the confirmed second factor, to replace it')) },
            { additionalProperties: false },
          ),
          response: {
            201: Type.Object(
              {
                secret: Type.String({ description: 'Base32 TOTP secret (SHA-1, 6 digits, 30 s); shown only in this answer' }),
                otpauth_url: Type.String({ description: 'otpauth://totp/Station:<e-mail>?secret=...&issuer=Station' }),
              },
              { title: 'TotpEnrolment' },
            ),
          },
        },
      },
      async (request, reply) => reply.code(201).send(await totp.enrol(request.principal!, request.body.current_code)),
    );

    app.post(
      '/v1/users/me/totp/confirm',
      {
        schema: {
          tags: ['users'],
          summary: 'Confirms two-factor enrolment with a code from the new secret',
          description:
            "Makes the pending secret the account's second factor. From then on a staff role logs in with a TOTP code (at " +
            '/api/auth/admin/login, or the 2FA step of /v1/auth/login) and only such a login holds its station scopes. A wrong code ' +
            'answers 400 PLATFORM_VALIDATION_FAILED (five within 15 minutes: 429); nothing pending answers 409 PLATFORM_CONFLICT. ' +
            "Replacing a confirmed second factor ends the account's other sessions.",
          body: Type.Object({ code: Code('RFC 6238 code (SHA-1, 6 digits, 30 s) from the new secret') }, { additionalProperties: false }),
          response: { 200: Type.Object({ totp_enabled: Type.Literal(true) }, { title: 'TotpConfirmed' }) },
        },
      },
      async (request) => totp.confirm(request.principal!, request.body.code),
    );
  };
}
