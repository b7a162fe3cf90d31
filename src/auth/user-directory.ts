/**
 * Auth's read port of its `users` for the platform's groups: for the administration, users filtered, searched
 * and paged, and one user as the admin's checks see it; for the subscriptions, a subscriber's address and plan;
 * for the webhooks, an owner's role and status as subqueries (`OwnerStanding`, src/platform/webhooks/repository.ts);
 * for the users group, the account a profile shows as a derived table (`ProfileAccounts`,
 * src/platform/users/users.repository.ts). Each group declares the part it uses on its side (`AdminUserReads`,
 * src/platform/admin/admin-users.service.ts; `SubscriberReads`, src/platform/subscriptions/subscriptions.repository.ts)
 * and reads no `users` row itself.
 */
import { and, count, desc, eq, ilike, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { DbOrTx } from '../infra/db/client.js';
import { idEq } from '../infra/db/ids.js';
import { users } from '../infra/db/schema/index.js';
import type { UserStatus } from './auth.repository.js';
import type { Role } from './scopes.js';

export type AdminUserRow = Pick<typeof users.$inferSelect, 'id' | 'email' | 'role' | 'status' | 'displayName' | 'createdAt'>;

export interface UserFilter {
  role?: Role;
  status?: 'active' | 'banned';
  search?: string;
}

const columns = {
  id: users.id,
  email: users.email,
  role: users.role,
  status: users.status,
  displayName: users.displayName,
  createdAt: users.createdAt,
};

/** `%text%` for ILIKE with the pattern characters of the text itself escaped. */
function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export class UserDirectory {
  constructor(private readonly db: DbOrTx) {}

  async list(filter: UserFilter, page: { limit: number; offset: number }): Promise<{ rows: AdminUserRow[]; total: number }> {
    const conditions: SQL[] = [];
    if (filter.role) conditions.push(eq(users.role, filter.role));
    if (filter.status) conditions.push(eq(users.status, filter.status));
    if (filter.search) conditions.push(or(ilike(users.email, containing(filter.search)), ilike(users.displayName, containing(filter.search)))!);
    const where = conditions.length > 0 ? and(...conditions) : undefined;
    const [rows, [{ total }]] = await Promise.all([
      this.db.select(columns).from(users).where(where).orderBy(desc(users.createdAt), desc(users.id)).limit(page.limit).offset(page.offset),
      this.db.select({ total: count() }).from(users).where(where),
    ]);
    return { rows, total };
  }

  /**
   * A user's role and status now, as scalar subqueries on `userId`, so that the webhooks read their owner's
   * standing in the statement that picks the hooks (a demoted or banned admin stops hearing admin events at once).
   */
  roleOf(userId: SQLWrapper): SQL<Role> {
    return sql<Role>`(select ${users.role} from ${users} where ${users.id} = ${userId})`.mapWith(users.role);
  }

  statusOf(userId: SQLWrapper): SQL<UserStatus> {
    return sql<UserStatus>`(select ${users.status} from ${users} where ${users.id} = ${userId})`.mapWith(users.status);
  }

  /** A subscriber's address and plan; null when there is no such user. */
  async subscriber(userId: string): Promise<{ id: string; email: string; plan: (typeof users.$inferSelect)['plan'] } | null> {
    const [row] = await this.db.select({ id: users.id, email: users.email, plan: users.plan }).from(users).where(eq(users.id, userId)).limit(1);
    return row ?? null;
  }

  /**
   * The columns of `users` a user's profile shows, as a derived table that the users group joins its
   * `user_profiles` to, so that a profile stays one statement (PostgreSQL flattens the derived table: a lookup by
   * `id` stays on the primary key). Its rows are every user's; the caller filters on `id`.
   */
  profileAccounts() {
    return this.db
      .select({
        id: users.id,
        email: users.email,
        role: users.role,
        status: users.status,
        plan: users.plan,
        displayName: users.displayName,
        emailVerifiedAt: users.emailVerifiedAt,
        createdAt: users.createdAt,
      })
      .from(users)
      .as('account');
  }

  async find(id: string): Promise<AdminUserRow | null> {
    const [row] = await this.db.select(columns).from(users).where(idEq(users.id, id)).limit(1);
    return row ?? null;
  }
}
