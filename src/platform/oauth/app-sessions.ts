/**
 * Auth's port for the sessions of apps as the OAuth group uses it (published by auth as `AppSessionStore`,
 * src/auth/app-session-store.ts): auth owns `auth_sessions` and `refresh_tokens`, and this group writes
 * neither. The writes that must be atomic with this group's rows (an app's deletion, a grant's revocation, a
 * code's redemption) take the transaction they join (`tx`), which `OAuthRepository` passes as its own.
 */
import type { AppRefreshToken, AppSessionOpening } from '../../auth/app-session-store.js';
import type { UserStatus } from '../../auth/auth.repository.js';
import type { Role } from '../../auth/scopes.js';
import type { DbOrTx } from '../../infra/db/client.js';

export type { AppRefreshToken, AppSessionOpening };

export interface AppSessions {
  sessionIdsOfApp(clientId: string, tx: DbOrTx): Promise<string[]>;
  revokeAppSessions(userId: string, clientId: string, reason: string, tx: DbOrTx): Promise<string[]>;
  open(opening: AppSessionOpening, tx: DbOrTx): Promise<string>;
  account(userId: string): Promise<{ id: string; role: Role; status: UserStatus } | null>;
  refreshToken(tokenHash: string): Promise<AppRefreshToken | null>;
  rotate(tokenId: string, sessionId: string, next: { hash: string; expiresAt: Date }, narrowedScopes: string[] | null): Promise<boolean>;
}
