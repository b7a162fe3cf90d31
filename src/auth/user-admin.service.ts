/**
 * User administration: role and status changes (PATCH /v1/admin/users/{id}/role and /status, artist
 * onboarding's listener -> artist). Split from auth.service.ts, which keeps logins and sessions: a change here
 * reaches the user's sessions only through `rights.userChanged` (their scopes follow the role at once) and, for
 * a ban, by revoking them. Who may change whom is decided by the callers (src/platform/admin).
 */
import { Errors } from '../errors.js';
import type { AuthRepository, UserStatus } from './auth.repository.js';
import { publicUser, type PublicUser } from './public-user.js';
import type { SessionsRepository } from './sessions.repository.js';
import type { Role } from './scopes.js';

export interface UserAdministrationDeps {
  repo: AuthRepository;
  /** A ban revokes the user's sessions. */
  sessions: SessionsRepository;
  /** The user's rights changed: every instance forgets its cached state of the user's sessions (AuthService.userChanged). */
  rights: { userChanged(userId: string): Promise<void> };
}

export class UserAdministration {
  constructor(private readonly deps: UserAdministrationDeps) {}

  /**
   * A new role applies to the user's sessions at once, on every instance (their scopes follow the role; a
   * session that did not pass TOTP never holds the TOTP-only ones). The last active super_admin keeps the role (409).
   */
  async setUserRole(userId: string, role: Role): Promise<PublicUser> {
    const user = await this.deps.repo.changeRole(userId, role);
    if (user === 'last_super_admin') throw Errors.conflict('The last super_admin cannot be demoted', 'give another account super_admin first');
    if (!user) throw Errors.notFound('User', userId);
    await this.deps.rights.userChanged(user.id);
    return publicUser(user);
  }

  /** A ban revokes every session of the user and closes their connections; a restore lets them log in again. */
  async setUserStatus(userId: string, status: UserStatus): Promise<PublicUser> {
    const user = await this.deps.repo.updateUser(userId, { status });
    if (!user) throw Errors.notFound('User', userId);
    if (status === 'banned') await this.deps.sessions.revokeUserSessions(user.id, 'user banned');
    await this.deps.rights.userChanged(user.id);
    return publicUser(user);
  }
}
