/** The platform's sign-in group for the composition root: listener and artist login, refresh, sign-up and account mail links. */
import type { FastifyInstance } from 'fastify';
import type { AuthService } from '../../auth/auth.service.js';
import { platformAuthRoutes } from './routes.js';

export interface PlatformAuthModuleDeps {
  auth: AuthService;
  /** Cookies carry Secure when the public address is https. */
  secureCookies: boolean;
}

export function buildPlatformAuthModule({ auth, secureCookies }: PlatformAuthModuleDeps) {
  return {
    routes: async (app: FastifyInstance) => {
      await app.register(platformAuthRoutes(auth, secureCookies));
    },
  };
}
