/** The developer accounts group for the composition root: opening a developer account, and the API keys it holds. */
import type { FastifyInstance } from 'fastify';
import type { AuthService } from '../../auth/auth.service.js';
import { DeveloperAccountsService, type DeveloperAccountsRepository } from './developer-accounts.js';
import { developerRoutes } from './routes.js';

export interface DeveloperModuleDeps {
  /** Key issuance and revocation, the e-mail verification check, and the session refresh when scopes grow. */
  auth: AuthService;
  /** Shared with auth (which reads it when scoping keys): made once by the composition root. */
  accounts: DeveloperAccountsRepository;
  publicBaseUrl: string;
}

export function buildDeveloperModule({ auth, accounts, publicBaseUrl }: DeveloperModuleDeps) {
  const service = new DeveloperAccountsService(accounts, auth, publicBaseUrl, auth);
  return {
    service,
    routes: async (app: FastifyInstance) => {
      await app.register(developerRoutes(auth, service));
    },
  };
}
