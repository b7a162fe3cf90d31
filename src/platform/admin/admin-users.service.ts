/**
 * GET /v1/admin/users and PATCH /v1/admin/users/{id}/status. A ban goes through AuthService.setUserStatus:
 * every login of the user is revoked, their developer keys (and the JWTs exchanged for them) stop, and
 * their WebSocket clients and streams are closed on every instance. A restore lets them log in again and
 * their keys work again (keys are not revoked by a ban, only refused while it lasts).
 */
import type { AuthService } from '../../auth/auth.service.js';
import type { Principal } from '../../auth/principal.js';
import { Errors } from '../../errors.js';
import type { Page } from '../../pagination.js';
import type { AdminUserRow, AdminUsersRepository, UserFilter } from './admin-users.repository.js';

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

export class AdminUsersService {
  constructor(
    private readonly repo: AdminUsersRepository,
    private readonly auth: AuthService,
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
    await this.auth.setUserStatus(target.id, status);
    return adminUser({ ...target, status });
  }
}
