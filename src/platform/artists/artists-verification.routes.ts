/** POST and DELETE /v1/admin/artists/{id}/verify (scope platform:admin). */
import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { IdParams, Nullable } from '../../http/schemas.js';
import type { ArtistVerificationService } from './artists-verification.service.js';

const ArtistVerification = Type.Object(
  {
    id: Type.String(),
    slug: Type.String(),
    name: Type.String(),
    verified: Type.Boolean(),
    verified_at: Nullable(Type.String({ format: 'date-time' })),
    verified_by: Nullable(Type.String({ description: 'the admin who verified the artist' })),
  },
  { title: 'ArtistVerification' },
);

const PATH = "The path takes the artist's id or slug (unknown: 404 PLATFORM_NOT_FOUND).";

export function artistVerificationRoutes(verification: ArtistVerificationService) {
  return async function register(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.post(
      '/v1/admin/artists/:id/verify',
      {
        config: { scope: 'platform:admin' },
        schema: {
          tags: ['admin', 'artists'],
          summary: 'Verifies an artist',
          description:
            'Sets `verified` and records who verified the artist and when, then sends the platform event `artist.verified` ' +
            `{artist_id, verified_by}. Idempotent: verifying a verified artist changes nothing and sends no event. ${PATH}`,
          params: IdParams('id'),
          response: { 200: ArtistVerification },
        },
      },
      async (request) => verification.setVerified(request.principal!, request.params.id, true),
    );

    app.delete(
      '/v1/admin/artists/:id/verify',
      {
        config: { scope: 'platform:admin' },
        schema: {
          tags: ['admin', 'artists'],
          summary: "Withdraws an artist's verification",
          description: `Clears \`verified\`, \`verified_at\` and \`verified_by\`; no event (the spec has none). Idempotent. ${PATH}`,
          params: IdParams('id'),
          response: { 200: ArtistVerification },
        },
      },
      async (request) => verification.setVerified(request.principal!, request.params.id, false),
    );
  };
}
