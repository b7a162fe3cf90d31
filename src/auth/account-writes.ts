/**
 * Auth's write port for the columns of `users` that other groups change: auth owns `users` (its repository
 * writes the credentials, role, status and e-mail), the users group changes a display name beside its own
 * profile row, the subscriptions group sets the plan when a subscription starts or ends, and the artists group
 * locks the user's row while it creates the user's one artist. Each declares the part it uses on its side
 * (`DisplayNameWrite` in src/platform/users/users.repository.ts, `PlanWrites` in
 * src/platform/subscriptions/subscriptions.repository.ts, `AccountLock` in src/platform/artists/artists.repository.ts)
 * and touches no `users` row itself.
 *
 * Every method runs in the handle it is given (`tx`), which is required: the display name changes in the
 * transaction that writes the profile, and a plan changes in the transaction that activates or ends the
 * subscription, after the user's row was locked (`lock`) so that concurrent notices serialise.
 */
import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../infra/db/client.js';
import { idEq } from '../infra/db/ids.js';
import { users } from '../infra/db/schema/index.js';

export type UserPlan = (typeof users.$inferSelect)['plan'];

export class AccountWrites {
  /** Locks the user's row (FOR UPDATE) until `tx` ends. */
  async lock(userId: string, tx: DbOrTx): Promise<void> {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
  }

  async setPlan(userId: string, plan: UserPlan, tx: DbOrTx): Promise<void> {
    await tx
      .update(users)
      .set({ plan, updatedAt: sql`now()` })
      .where(eq(users.id, userId));
  }

  async setDisplayName(userId: string, displayName: string, tx: DbOrTx): Promise<void> {
    await tx
      .update(users)
      .set({ displayName, updatedAt: sql`now()` })
      .where(idEq(users.id, userId));
  }
}
