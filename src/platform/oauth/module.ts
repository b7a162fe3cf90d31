/** OAuth 2.0 (authorization code with PKCE) assembled for the composition root. */
import type { FastifyInstance } from 'fastify';
import type { AuthService } from '../../auth/auth.service.js';
import { DelegatedSessions } from '../../auth/delegated-sessions.js';
import type { DeveloperAccountCheck } from '../../auth/developer-account-reads.js';
import type { CsrfTokens, TokenService } from '../../auth/tokens.js';
import type { Clock } from '../../infra/clock/clock.js';
import type { Db } from '../../infra/db/client.js';
import type { AppSessions } from './app-sessions.js';
import { OAuthAppsService } from './apps.service.js';
import { AuthorizeService } from './authorize.service.js';
import { OAuthRepository } from './oauth.repository.js';
import { oauthRoutes } from './routes.js';
import { oauthTokenRoutes } from './token-routes.js';
import { OAuthTokenService } from './token.service.js';

export interface OAuthDeps {
  db: Db;
  auth: AuthService;
  /** Auth's store of the apps' sessions and refresh tokens (auth owns those tables). */
  appSessions: AppSessions;
  /** Who opened a developer account: the developer group's port (it owns developer_accounts), given by app.ts. */
  developerAccounts: DeveloperAccountCheck;
  tokens: TokenService;
  csrf: CsrfTokens;
  clock: Clock;
  /** PUBLIC_BASE_URL: the issuer of the metadata and of the `iss` of authorization responses. */
  issuer: string;
}

export function buildOAuthModule(deps: OAuthDeps) {
  const repo = new OAuthRepository(deps.db, deps.appSessions);
  const revokeSession = (sessionId: string, reason: string) => deps.auth.revokeSession(sessionId, reason);
  const apps = new OAuthAppsService(repo, revokeSession, deps.clock, deps.developerAccounts);
  const authorize = new AuthorizeService(repo, deps.clock, deps.issuer);
  const tokens = new OAuthTokenService(repo, new DelegatedSessions(deps.tokens, deps.csrf, deps.clock), deps.appSessions, revokeSession, deps.clock);
  return {
    apps,
    async routes(app: FastifyInstance) {
      await app.register(oauthRoutes({ apps, authorize, issuer: deps.issuer }));
      await app.register(oauthTokenRoutes(tokens));
    },
  };
}
