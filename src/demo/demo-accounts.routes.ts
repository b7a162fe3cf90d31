/**
 * GET /v1/demo/accounts: the demo's listener, artist and integrator credentials, for the sign-in page's
 * "try the demo as ..." (src/demo/seed-accounts.ts). Registered only when STATION_DEMO is on: a station that is
 * not a demo answers 404, as for any unknown path.
 */
import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { DemoAccounts } from './seed-accounts.js';

const DemoAccount = Type.Object(
  {
    role: Type.String({ enum: ['listener', 'artist', 'integrator'] }),
    email: Type.String(),
    password: Type.String(),
  },
  { title: 'DemoAccount' },
);

export function demoAccountsRoutes(accounts: DemoAccounts) {
  return async function register(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    app.get(
      '/v1/demo/accounts',
      {
        config: { public: true },
        schema: {
          tags: ['platform-auth'],
          summary: 'Demo only (STATION_DEMO): the demo accounts to sign in with',
          description:
            'Public, and present only on a demo station (otherwise 404). The integrator is a listener with a developer account ' +
            '(and a test key, printed once in the log when seeded); the artist owns an unverified demo artist.',
          response: { 200: Type.Array(DemoAccount) },
        },
      },
      async () => accounts.list(),
    );
  };
}
