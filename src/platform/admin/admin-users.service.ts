/**
 * GET /v1/admin/users and PATCH /v1/admin/users/{id}/status. A ban goes through UserAdministration.setUserStatus:
 * every login of the user is revoked, their developer keys (and the JWTs exchanged for them) stop, and
 * their WebSocket clients and streams are closed on every instance. A restore lets them log in again and
 * their keys work again (keys are not revoked by a ban, only refused while it lasts).
 */
import type { TotpEnrolment } from '../../auth/totp-enrolment.js';
import type { UserAdministration } from '../../auth/user-admin.service.js';
import type { Principal } from '../../auth/principal.js';
import type { Role } from '../../auth/scopes.js';
import { Errors } from '../../errors.js';
import type { Page } from '../../pagination.js';
import type { AdminUserRow, UserFilter } from '../../auth/user-directory.js';

export type { AdminUserRow, UserFilter };

/** Auth's read port of its users (`UserDirectory`, src/auth/user-directory.ts), as the admin's list and checks read them. */
export interface AdminUserReads {
  list(filter: UserFilter, page: { limit: number; offset: number }): Promise<{ rows: AdminUserRow[]; total: number }>;
  find(id: string): Promise<AdminUserRow | null>;
}

export interface AdminUser {
  id: string;
  email: string;
  role: string;
  status: 'active' | 'banned';
  display_name: string;
  created_at: string;
}

function adminUser(row: AdminUserRow): AdminUser {
  return { id: row.id, email: row.email, role: row.role, status: row.status, display_name: row.displayName, created_at: row.createdAt.toISOString() };
}

const STAFF = new Set(['admin', 'super_admin']);
/** Roles only a super_admin gives or takes (contract.md, "Staff"); admins switch the others (listener, artist). */
const SUPER_ADMIN_ONLY: ReadonlySet<string> = new Set<Role>(['admin', 'super_admin', 'developer']);

/** Auth's two writes on a user (UserAdministration); their answer is not used: the service answers from its own read. */
export interface UserWrites {
  setUserRole(...args: Parameters<UserAdministration['setUserRole']>): Promise<unknown>;
  setUserStatus(...args: Parameters<UserAdministration['setUserStatus']>): Promise<unknown>;
}

export class AdminUsersService {
  constructor(
    private readonly repo: AdminUserReads,
    private readonly users: UserWrites,
    private readonly totp: Pick<TotpEnrolment, 'reset'>,
  ) {}

  async list(filter: UserFilter, page: Page) {
    const { rows, total } = await this.repo.list(filter, page);
    return { data: rows.map(adminUser), total, page: page.page, limit: page.limit };
  }

  /** Bans or restores. Nobody changes their own status, and only a super_admin bans or restores an admin. */
  async setStatus(caller: Principal, userId: string, status: 'active' | 'banned'): Promise<AdminUser> {
    const target = await this.repo.find(userId);
    if (!target) throw Errors.notFound('User', userId);
    if (target.id === caller.userId) throw Errors.conflict('You cannot change your own status');
    if (STAFF.has(target.role) && caller.role !== 'super_admin') throw Errors.forbidden('only a super_admin bans or restores an admin account');
    await this.users.setUserStatus(target.id, status);
    return adminUser({ ...target, status });
  }

  /**
   * PATCH /v1/admin/users/{id}/role. Only a super_admin gives or takes admin, super_admin or developer;
   * admins switch listener and artist. Nobody changes their own role (409), and the last active super_admin
   * is never demoted (409, UserAdministration.setUserRole). The new role applies at once to the user's sessions;
   * its station scopes come only with a session that passed TOTP (src/auth/totp-enrolment.ts).
   */
  async setRole(caller: Principal, userId: string, role: Role): Promise<AdminUser> {
    const target = await this.repo.find(userId);
    if (!target) throw Errors.notFound('User', userId);
    if (target.id === caller.userId) throw Errors.conflict('You cannot change your own role');
    if ((SUPER_ADMIN_ONLY.has(target.role) || SUPER_ADMIN_ONLY.has(role)) && caller.role !== 'super_admin') {
      throw Errors.forbidden('only a super_admin gives or takes the admin, super_admin and developer roles');
    }
    if (target.role === role) return adminUser(target);
    await this.users.setUserRole(target.id, role);
    return adminUser({ ...target, role });
  }

  /** DELETE /v1/admin/users/{id}/totp: a super_admin removes a user's second factor (a lost device); the user enrols again. */
  async resetTotp(caller: Principal, userId: string): Promise<void> {
    if (caller.role !== 'super_admin') throw Errors.forbidden('only a super_admin resets a second factor');
    await this.totp.reset(userId);
  }
}
