/**
 * What the authentication layer announces on the event bus, so that every instance acts on it: session
 * caches drop entries, and WebSocket clients and stream listeners of the credential are closed.
 */
import type { Role } from './scopes.js';

/** `{ sessionId }`: a login was revoked (logout, refresh-token reuse, revoke). */
export const SESSION_REVOKED_CHANNEL = 'auth.session_revoked';
/** `{ userId }`: a user's role or status changed; what their sessions may do must be read again. */
export const USER_CHANGED_CHANNEL = 'auth.user_changed';

export interface SessionRevoked {
  sessionId: string;
}

export interface UserChanged {
  userId: string;
}

/** A login session as the database has it now, joined with its user. */
export interface SessionState {
  userId: string;
  role: Role;
  /** Not revoked, not expired, user active. */
  valid: boolean;
  /** The login passed TOTP (src/auth/scopes.ts: sessionScopes). */
  secondFactor: boolean;
  /** An OAuth session's app and approved scopes (its rights are these within the role's); null for a login. */
  oauthClientId: string | null;
  scopes: readonly string[] | null;
  /** The user opened a developer account (its scopes: DEVELOPER_ACCOUNT_SCOPES). */
  developerAccount: boolean;
}

export function sessionIdOf(message: unknown): string | null {
  const sessionId = (message as Partial<SessionRevoked> | null)?.sessionId;
  return typeof sessionId === 'string' ? sessionId : null;
}

export function userIdOf(message: unknown): string | null {
  const userId = (message as Partial<UserChanged> | null)?.userId;
  return typeof userId === 'string' ? userId : null;
}
