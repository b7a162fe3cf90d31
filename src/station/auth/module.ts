/** The station's staff sign-in for the composition root: login, refresh and logout of the admin panel. */
import type { FastifyInstance } from 'fastify';
import type { AuthService } from '../../auth/auth.service.js';
import { staffAuthRoutes } from './routes.js';

export interface StaffAuthModuleDeps {
  auth: AuthService;
  /** Cookies carry Secure when the public address is https. */
  secureCookies: boolean;
}

export function buildStaffAuthModule({ auth, secureCookies }: StaffAuthModuleDeps) {
  return {
    routes: async (app: FastifyInstance) => {
      await app.register(staffAuthRoutes(auth, secureCookies));
    },
  };
}
