/**
 * Platform administration of users (scope platform:admin): GET /v1/admin/users, PATCH /v1/admin/users/{id}/status,
 * PATCH /v1/admin/users/{id}/role and DELETE /v1/admin/users/{id}/totp.
 */
import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ROLES } from '../../auth/scopes.js';
import { IdParams, PageQuery, Paginated, StringEnum } from '../../http/schemas.js';
import { pageOf } from '../../pagination.js';
import type { AdminUsersService } from './admin-users.service.js';

const Status = StringEnum(['active', 'banned'] as const);

const AdminUser = Type.Object(
  {
    id: Type.String(),
    email: Type.String(),
    role: Type.String({ enum: [...ROLES] }),
    status: Type.String({ enum: ['active', 'banned'] }),
    display_name: Type.String(),
    created_at: Type.String({ format: 'date-time' }),
  },
  { title: 'AdminUser' },
);

export function adminRoutes(users: AdminUsersService) {
  return async function register(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.get(
      '/v1/admin/users',
      {
        config: { scope: 'platform:admin' },
        schema: {
          tags: ['admin'],
          summary: 'Lists users, newest first, by role, status and a search in e-mail and display name',
          querystring: Type.Composite(
            [
              PageQuery,
              Type.Object({
                role: Type.Optional(StringEnum(ROLES)),
                status: Type.Optional(Status),
                search: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'part of the e-mail or display name, case-insensitive' })),
              }),
            ],
            { additionalProperties: false },
          ),
          response: { 200: Paginated(AdminUser, 'AdminUserList') },
        },
      },
      async (request) => {
        const { role, status, search } = request.query;
        return users.list({ role, status, search }, pageOf(request.query));
      },
    );

    app.patch(
      '/v1/admin/users/:id/status',
      {
        config: { scope: 'platform:admin' },
        schema: {
          tags: ['admin'],
          summary: 'Bans or restores a user',
          description:
            "A ban takes effect at once on every instance: the user's logins and refresh tokens are revoked, their API keys and the JWTs " +
            'exchanged for them answer 401, and their WebSocket clients and audio streams are closed. A restore lets them log in again ' +
            'and their keys work again. Nobody changes their own status (409 PLATFORM_CONFLICT); only a super_admin bans or restores an ' +
            'admin (403 PLATFORM_FORBIDDEN). An unknown id answers 404 PLATFORM_NOT_FOUND.',
          params: IdParams('id'),
          body: Type.Object({ status: Status }, { additionalProperties: false }),
          response: { 200: AdminUser },
        },
      },
      async (request) => users.setStatus(request.principal!, request.params.id, request.body.status),
    );

    app.patch(
      '/v1/admin/users/:id/role',
      {
        config: { scope: 'platform:admin' },
        schema: {
          tags: ['admin'],
          summary: "Changes a user's role",
          description:
            'Only a super_admin gives or takes admin, super_admin or developer; admins may switch listener and artist (else 403 ' +
            'PLATFORM_FORBIDDEN). Nobody changes their own role, and the last active super_admin is not demoted (409 PLATFORM_CONFLICT). ' +
            "The new role applies at once to the user's sessions and keys. A staff role's station scopes (and platform:admin) come only " +
            'with a login that passed TOTP: the user enrols with POST /v1/users/me/totp, confirms, then logs in again (at ' +
            '/api/auth/admin/login or through the 2FA step of /v1/auth/login). An unknown id answers 404 PLATFORM_NOT_FOUND.',
          params: IdParams('id'),
          body: Type.Object({ role: StringEnum(ROLES) }, { additionalProperties: false }),
          response: { 200: AdminUser },
        },
      },
      async (request) => users.setRole(request.principal!, request.params.id, request.body.role),
    );

    app.delete(
      '/v1/admin/users/:id/totp',
      {
        config: { scope: 'platform:admin' },
        schema: {
          tags: ['admin'],
          summary: "Resets a user's second factor (super_admin)",
          description:
            'For a holder who lost their authenticator: the confirmed and any pending TOTP secret are removed and every session of the ' +
            'user ends, and so do their API keys holding a scope only a second factor grants (station scopes but station:read, ' +
            'platform:admin); the user enrols again with POST /v1/users/me/totp. Only a super_admin (else 403 PLATFORM_FORBIDDEN).',
          params: IdParams('id'),
          response: { 204: Type.Null() },
        },
      },
      async (request, reply) => {
        await users.resetTotp(request.principal!, request.params.id);
        return reply.code(204).send(null);
      },
    );
  };
}
