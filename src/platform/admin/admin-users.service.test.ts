/**
 * User administration's rules (who may ban whom, who may give which role, nobody acting on themselves, the
 * super_admin's TOTP reset), tested beside the service with the users in memory and auth's two writes
 * recorded: no database, milliseconds. What the writes do (sessions revoked, keys refused, the last
 * super_admin kept) is covered through HTTP by test/platform/accounts-admin.test.ts and staff-roles.test.ts.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { domainFailure as failure } from '../../../test/helpers/domain-failure.js';
import type { Principal } from '../../auth/principal.js';
import type { Role } from '../../auth/scopes.js';
import type { AdminUserReads, AdminUserRow } from './admin-users.service.js';
import { AdminUsersService } from './admin-users.service.js';

/** The repository's two reads over a map of users. */
class InMemoryUsers implements AdminUserReads {
  readonly rows = new Map<string, AdminUserRow>();

  add(id: string, role: Role, status: 'active' | 'banned' = 'active'): AdminUserRow {
    const row: AdminUserRow = { id, email: `${id}@example.com`, role, status, displayName: id, createdAt: new Date('2026-01-01T00:00:00Z') };
    this.rows.set(id, row);
    return row;
  }

  async find(id: string) {
    return this.rows.get(id) ?? null;
  }

  async list() {
    const rows = [...this.rows.values()];
    return { rows, total: rows.length };
  }
}

/** Auth's writes, recorded in the order they were asked for. */
class RecordedWrites {
  readonly calls: string[] = [];
  async setUserRole(userId: string, role: Role) {
    this.calls.push(`role ${userId} ${role}`);
  }
  async setUserStatus(userId: string, status: 'active' | 'banned') {
    this.calls.push(`status ${userId} ${status}`);
  }
  async reset(userId: string) {
    this.calls.push(`totp ${userId}`);
  }
}

function caller(userId: string, role: Role): Principal {
  return {
    kind: 'user',
    userId,
    role,
    scopes: new Set(['platform:admin']),
    credentialId: `cred-${userId}`,
    sessionId: `session-${userId}`,
    apiKeyId: null,
    environment: 'live',
    metered: false,
  };
}

describe('AdminUsersService (in-memory users)', () => {
  let users: InMemoryUsers;
  let writes: RecordedWrites;
  let service: AdminUsersService;
  const admin = caller('admin-1', 'admin');
  const superAdmin = caller('super-1', 'super_admin');

  beforeEach(() => {
    users = new InMemoryUsers();
    writes = new RecordedWrites();
    service = new AdminUsersService(users, writes, writes);
    users.add('admin-1', 'admin');
    users.add('admin-2', 'admin');
    users.add('super-1', 'super_admin');
    users.add('listener-1', 'listener');
  });

  describe('ban and restore', () => {
    it('lets an admin ban and restore a listener, through auth, and answers the new status', async () => {
      expect(await service.setStatus(admin, 'listener-1', 'banned')).toMatchObject({ id: 'listener-1', status: 'banned', role: 'listener' });
      expect(await service.setStatus(admin, 'listener-1', 'active')).toMatchObject({ status: 'active' });
      expect(writes.calls).toEqual(['status listener-1 banned', 'status listener-1 active']);
    });

    it('answers 404 for an unknown user and 409 for oneself, writing nothing', async () => {
      expect(await failure(service.setStatus(admin, 'nobody', 'banned'))).toEqual({ kind: 'not_found', code: 'NOT_FOUND' });
      expect(await failure(service.setStatus(admin, 'admin-1', 'banned'))).toEqual({ kind: 'conflict', code: 'CONFLICT' });
      expect(await failure(service.setStatus(superAdmin, 'super-1', 'banned'))).toEqual({ kind: 'conflict', code: 'CONFLICT' });
      expect(writes.calls).toEqual([]);
    });

    it('keeps staff accounts to a super_admin: an admin banning an admin or a super_admin is refused', async () => {
      expect(await failure(service.setStatus(admin, 'admin-2', 'banned'))).toEqual({ kind: 'forbidden', code: 'FORBIDDEN' });
      expect(await failure(service.setStatus(admin, 'super-1', 'banned'))).toEqual({ kind: 'forbidden', code: 'FORBIDDEN' });
      expect(writes.calls).toEqual([]);
      expect(await service.setStatus(superAdmin, 'admin-2', 'banned')).toMatchObject({ status: 'banned' });
      expect(writes.calls).toEqual(['status admin-2 banned']);
    });
  });

  describe('roles', () => {
    it('lets an admin switch listener and artist', async () => {
      expect(await service.setRole(admin, 'listener-1', 'artist')).toMatchObject({ role: 'artist' });
      users.rows.set('listener-1', { ...users.rows.get('listener-1')!, role: 'artist' });
      expect(await service.setRole(admin, 'listener-1', 'listener')).toMatchObject({ role: 'listener' });
      expect(writes.calls).toEqual(['role listener-1 artist', 'role listener-1 listener']);
    });

    it('keeps admin, super_admin and developer, given or taken, to a super_admin', async () => {
      for (const role of ['admin', 'super_admin', 'developer'] as const) {
        expect(await failure(service.setRole(admin, 'listener-1', role))).toEqual({ kind: 'forbidden', code: 'FORBIDDEN' });
      }
      users.add('dev-1', 'developer');
      expect(await failure(service.setRole(admin, 'dev-1', 'listener'))).toEqual({ kind: 'forbidden', code: 'FORBIDDEN' });
      expect(await failure(service.setRole(admin, 'admin-2', 'listener'))).toEqual({ kind: 'forbidden', code: 'FORBIDDEN' });
      expect(writes.calls).toEqual([]);
      expect(await service.setRole(superAdmin, 'listener-1', 'developer')).toMatchObject({ role: 'developer' });
      expect(await service.setRole(superAdmin, 'admin-2', 'listener')).toMatchObject({ role: 'listener' });
      expect(writes.calls).toEqual(['role listener-1 developer', 'role admin-2 listener']);
    });

    it('refuses one’s own role (409) and an unknown user (404); the same role again writes nothing', async () => {
      expect(await failure(service.setRole(superAdmin, 'super-1', 'admin'))).toEqual({ kind: 'conflict', code: 'CONFLICT' });
      expect(await failure(service.setRole(superAdmin, 'nobody', 'artist'))).toEqual({ kind: 'not_found', code: 'NOT_FOUND' });
      expect(await service.setRole(admin, 'listener-1', 'listener')).toMatchObject({ role: 'listener' });
      expect(writes.calls).toEqual([]);
    });
  });

  it('resets a second factor for a super_admin only', async () => {
    expect(await failure(service.resetTotp(admin, 'listener-1'))).toEqual({ kind: 'forbidden', code: 'FORBIDDEN' });
    await service.resetTotp(superAdmin, 'listener-1');
    expect(writes.calls).toEqual(['totp listener-1']);
  });

  it('lists users in the API shape', async () => {
    const page = await service.list({}, { page: 1, limit: 10, offset: 0 });
    expect(page).toMatchObject({ total: 4, page: 1, limit: 10 });
    expect(page.data.find((u) => u.id === 'listener-1')).toEqual({
      id: 'listener-1',
      email: 'listener-1@example.com',
      role: 'listener',
      status: 'active',
      display_name: 'listener-1',
      created_at: '2026-01-01T00:00:00.000Z',
    });
  });
});
