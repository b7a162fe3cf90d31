/**
 * Data access of Pro subscriptions. The plan is a column of auth's `users`, set through auth's port
 * (`PlanWrites`, published as `AccountWrites` in src/auth/account-writes.ts) in the transaction that activates
 * or ends the subscription, and read with the subscriber's address through `SubscriberReads`.
 */
import { and, count, desc, eq } from 'drizzle-orm';
import type { UserPlan } from '../../auth/account-writes.js';
import type { Db, DbOrTx } from '../../infra/db/client.js';
import { isUuid } from '../../infra/db/ids.js';
import { subscriptions } from '../../infra/db/schema/index.js';

export type SubscriptionRow = typeof subscriptions.$inferSelect;

/** ended: this call ended it and the user is free; not_active: it was not active (never paid, or ended already). */
export type Ending = { outcome: 'ended' | 'not_active'; row: SubscriptionRow };

/** activated: this notice made the user Pro; already: an earlier one did; duplicate: the user was Pro through another subscription. */
export type Activation = { outcome: 'activated' | 'already' | 'duplicate'; row: SubscriptionRow };

/** Auth's port as this group uses it: the user's row locked, and the plan set, in the subscription's transaction. */
export interface PlanWrites {
  lock(userId: string, tx: DbOrTx): Promise<void>;
  setPlan(userId: string, plan: UserPlan, tx: DbOrTx): Promise<void>;
}

/** Auth's read port (`UserDirectory`, src/auth/user-directory.ts): a subscriber's address and plan. */
export interface SubscriberReads {
  subscriber(userId: string): Promise<{ id: string; email: string; plan: UserPlan } | null>;
}

export class SubscriptionsRepository {
  constructor(
    private readonly db: Db,
    private readonly plans: PlanWrites,
    private readonly subscribers: SubscriberReads,
  ) {}

  user(userId: string) {
    return this.subscribers.subscriber(userId);
  }

  async openOf(userId: string): Promise<SubscriptionRow | null> {
    const [row] = await this.db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.userId, userId), eq(subscriptions.status, 'open')))
      .limit(1);
    return row ?? null;
  }

  /** Null when the user already has an open one (the partial unique index decides between concurrent calls). */
  async insertOpen(values: typeof subscriptions.$inferInsert): Promise<SubscriptionRow | null> {
    const [row] = await this.db.insert(subscriptions).values(values).onConflictDoNothing().returning();
    return row ?? null;
  }

  async expire(id: string): Promise<void> {
    await this.db
      .update(subscriptions)
      .set({ status: 'expired' })
      .where(and(eq(subscriptions.id, id), eq(subscriptions.status, 'open')));
  }

  async setProcessorSession(id: string, processorSessionId: string, checkoutUrl: string): Promise<SubscriptionRow> {
    const [row] = await this.db.update(subscriptions).set({ processorSessionId, checkoutUrl }).where(eq(subscriptions.id, id)).returning();
    return row;
  }

  async byProcessorSession(processorSessionId: string): Promise<SubscriptionRow | null> {
    const [row] = await this.db.select().from(subscriptions).where(eq(subscriptions.processorSessionId, processorSessionId)).limit(1);
    return row ?? null;
  }

  async listOf(userId: string, limit: number, offset: number): Promise<{ rows: SubscriptionRow[]; total: number }> {
    const where = eq(subscriptions.userId, userId);
    const [rows, [{ total }]] = await Promise.all([
      this.db.select().from(subscriptions).where(where).orderBy(desc(subscriptions.createdAt), desc(subscriptions.id)).limit(limit).offset(offset),
      this.db.select({ total: count() }).from(subscriptions).where(where),
    ]);
    return { rows, total };
  }

  /**
   * Marks a paid subscription active and the user Pro, once, in one transaction. The user's row is locked
   * first, so concurrent notices (the sandbox page pressed twice, Stripe retrying) serialise here. `onActive`
   * runs in the same transaction with the active subscription (activated now or before), so that what it
   * records (user.subscribed in the webhooks' outbox) commits with the activation; its answer is handed back.
   */
  async activate<T>(
    subscription: SubscriptionRow,
    change: { reference: string; processorSubscriptionId: string | null; now: Date },
    onActive: (tx: DbOrTx, active: SubscriptionRow) => Promise<T>,
  ): Promise<Activation & { raised: T | null }> {
    return this.db.transaction(async (tx) => {
      await this.plans.lock(subscription.userId, tx);
      const [current] = await tx.select().from(subscriptions).where(eq(subscriptions.id, subscription.id));
      if (current.status === 'active') return { outcome: 'already', row: current, raised: await onActive(tx, current) };
      const [other] = await tx
        .select({ id: subscriptions.id })
        .from(subscriptions)
        .where(and(eq(subscriptions.userId, subscription.userId), eq(subscriptions.status, 'active')))
        .limit(1);
      if (other) return { outcome: 'duplicate', row: current, raised: null };
      const [row] = await tx
        .update(subscriptions)
        .set({ status: 'active', activatedAt: change.now, processorReference: change.reference, processorSubscriptionId: change.processorSubscriptionId })
        .where(eq(subscriptions.id, subscription.id))
        .returning();
      await this.plans.setPlan(subscription.userId, 'pro', tx);
      return { outcome: 'activated', row, raised: await onActive(tx, row) };
    });
  }

  async byId(id: string): Promise<SubscriptionRow | null> {
    if (!isUuid(id)) return null; // ids are opaque to callers: any other shape is simply unknown
    const [row] = await this.db.select().from(subscriptions).where(eq(subscriptions.id, id)).limit(1);
    return row ?? null;
  }

  async byProcessorSubscription(processorSubscriptionId: string): Promise<SubscriptionRow | null> {
    const [row] = await this.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.processorSubscriptionId, processorSubscriptionId))
      .orderBy(desc(subscriptions.createdAt))
      .limit(1);
    return row ?? null;
  }

  /** Records a cancellation asked for at the processor's period end; the subscription stays active until then. */
  async markCancelAtPeriodEnd(id: string): Promise<SubscriptionRow> {
    const [row] = await this.db.update(subscriptions).set({ cancelAtPeriodEnd: true }).where(eq(subscriptions.id, id)).returning();
    return row;
  }

  /**
   * Ends an active subscription and makes its user free, once, in one transaction. The user's row is locked
   * first, as in activate(), so an ending and a concurrent notice serialise.
   */
  async end(subscription: SubscriptionRow, now: Date): Promise<Ending> {
    return this.db.transaction(async (tx) => {
      await this.plans.lock(subscription.userId, tx);
      const [current] = await tx.select().from(subscriptions).where(eq(subscriptions.id, subscription.id));
      if (current.status !== 'active') return { outcome: 'not_active', row: current };
      const [row] = await tx.update(subscriptions).set({ status: 'cancelled', endedAt: now }).where(eq(subscriptions.id, subscription.id)).returning();
      await this.plans.setPlan(subscription.userId, 'free', tx);
      return { outcome: 'ended', row };
    });
  }
}
