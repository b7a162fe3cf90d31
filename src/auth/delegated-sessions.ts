/**
 * The tokens of a third-party app acting for a user (OAuth 2.0, src/platform/oauth). Each redeemed
 * authorization code opens a login session of kind 'oauth' that carries the app and the approved scopes;
 * its access tokens are the same 15-minute JWTs as any login's (so revocation, bans, the session cache and
 * connection closing apply unchanged: src/auth/access.ts makes them 'delegated' principals limited to those
 * scopes), and its refresh tokens live in refresh_tokens with the same rotation and reuse detection.
 */
import type { Clock } from '../infra/clock/clock.js';
import type { Role } from './scopes.js';
import { ACCESS_TOKEN_TTL_SEC, type CsrfTokens, type TokenService, newOpaqueToken, sha256Hex } from './tokens.js';

/** An app's login lasts 30 days from the authorization; then the app asks the user again. */
export const OAUTH_SESSION_TTL_SEC = 30 * 24 * 3600;

export interface DelegatedAccess {
  accessToken: string;
  expiresIn: number;
  /** X-CSRF-Token for the app's state-changing calls (bound to the session like a login's). */
  csrfToken: string;
}

export class DelegatedSessions {
  constructor(
    private readonly tokens: TokenService,
    private readonly csrf: CsrfTokens,
    private readonly clock: Clock,
  ) {}

  /** A new refresh token and the hash that is stored (the token itself never is). */
  newRefreshToken(): { token: string; hash: string } {
    const token = newOpaqueToken('ort');
    return { token, hash: sha256Hex(token) };
  }

  sessionExpiry(): Date {
    return new Date(this.clock.now() + OAUTH_SESSION_TTL_SEC * 1000);
  }

  async access(user: { id: string; role: Role }, sessionId: string): Promise<DelegatedAccess> {
    const accessToken = await this.tokens.issue({ userId: user.id, role: user.role, sessionId });
    return { accessToken, expiresIn: ACCESS_TOKEN_TTL_SEC, csrfToken: this.csrf.forCredential(sessionId) };
  }
}
