/** A user as the APIs show it (login answers, admin changes): never a hash or a secret. */
import type { UserRow } from './auth.repository.js';
import type { Role } from './scopes.js';

export interface PublicUser {
  id: string;
  email: string;
  role: Role;
  display_name: string;
}

/** The answer of a sign-up or login: the session's tokens and the user. */
export interface IssuedLogin {
  accessToken: string;
  refreshToken: string;
  csrfToken: string;
  expiresIn: number;
  user: PublicUser;
}

export function publicUser(row: UserRow): PublicUser {
  return { id: row.id, email: row.email, role: row.role, display_name: row.displayName };
}
