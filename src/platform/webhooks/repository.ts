/** Webhook registrations and delivery attempts (Drizzle). */
import { and, arrayContains, asc, count, desc, eq, isNull, lte, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { UserStatus } from '../../auth/auth.repository.js';
import { ROLES, scopesOfRole, type Role } from '../../auth/scopes.js';
import type { Db, DbOrTx } from '../../infra/db/client.js';
import { webhookDeliveries, webhooks } from '../../infra/db/schema/index.js';
import { idEq } from '../../infra/db/ids.js';
import type { Environment } from '../../kernel/environment.js';

export type WebhookRow = typeof webhooks.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
/** A subscribed webhook with what the audience policy asks of its owner now (event-audience.ts). */
export type SubscribedWebhook = WebhookRow & { ownerIsAdmin: boolean; ownerRole: Role | null };

/** The roles that make an account an admin: those holding platform:admin (src/auth/scopes.ts). */
const ADMIN_ROLES: readonly string[] = ROLES.filter((role) => scopesOfRole(role).includes('platform:admin'));
export type NewDelivery = Pick<
  typeof webhookDeliveries.$inferInsert,
  'webhookId' | 'eventId' | 'event' | 'payload' | 'webhookMessageId' | 'attempt' | 'nextAttemptAt'
>;

/** A pending attempt claimed by this worker, with what sending it needs. */
export interface ClaimedDelivery {
  delivery: DeliveryRow;
  url: string;
  /** The webhook is active and its owner's account too (a banned owner's attempts are dropped). */
  active: boolean;
  secretCiphertext: string;
}

export interface AttemptResult {
  status: 'succeeded' | 'retrying' | 'failed';
  responseStatus: number | null;
  error: string | null;
  durationMs: number;
  attemptedAt: Date;
}

/**
 * Auth's read port (`UserDirectory`, src/auth/user-directory.ts): an owner's role and status as subqueries, read
 * in the statement that picks the hooks. `users` is auth's table.
 */
export interface OwnerStanding {
  roleOf(userId: SQLWrapper): SQL<Role>;
  statusOf(userId: SQLWrapper): SQL<UserStatus>;
}

export class WebhookRepository {
  constructor(
    private readonly db: Db,
    private readonly owners: OwnerStanding,
  ) {}

  /**
   * This repository on another module's transaction: the outbox's rows of an event raised by a change are
   * written in the change's transaction (dispatcher.ts, recordIn).
   */
  in(tx: DbOrTx): WebhookRepository {
    // A transaction handle has the database's query API (client.ts); recordAttempt's nested transaction() on it is a savepoint.
    return new WebhookRepository(tx as Db, this.owners);
  }

  async insertWebhook(row: typeof webhooks.$inferInsert): Promise<WebhookRow> {
    const [inserted] = await this.db.insert(webhooks).values(row).returning();
    return inserted;
  }

  /** The webhooks of one environment: one owner's, or (`ownerUserId` null) everyone's (admins). */
  async listWebhooks(ownerUserId: string | null, environment: Environment, limit: number, offset: number): Promise<{ rows: WebhookRow[]; total: number }> {
    const where = and(eq(webhooks.environment, environment), ownerUserId === null ? undefined : eq(webhooks.ownerUserId, ownerUserId));
    const [rows, [{ total }]] = await Promise.all([
      this.db.select().from(webhooks).where(where).orderBy(desc(webhooks.createdAt), asc(webhooks.id)).limit(limit).offset(offset),
      this.db.select({ total: count() }).from(webhooks).where(where),
    ]);
    return { rows, total };
  }

  async findWebhook(id: string): Promise<WebhookRow | null> {
    const [row] = await this.db.select().from(webhooks).where(idEq(webhooks.id, id)).limit(1);
    return row ?? null;
  }

  /** Removes the registration and, by cascade, its delivery history and pending attempts. */
  async deleteWebhook(id: string): Promise<boolean> {
    const deleted = await this.db.delete(webhooks).where(idEq(webhooks.id, id)).returning({ id: webhooks.id });
    return deleted.length > 0;
  }

  /**
   * The active webhooks of an environment subscribed to `event` whose owner's account is active now, each with
   * whether that owner is an admin (read in the same statement: a banned owner stops hearing every event at
   * once, as their keys and logins stop, and a demoted admin stops hearing admin events).
   */
  async activeWebhooksFor(event: string, environment: Environment): Promise<SubscribedWebhook[]> {
    const rows = await this.db
      .select({ webhook: webhooks, ownerRole: this.owners.roleOf(webhooks.ownerUserId), ownerStatus: this.owners.statusOf(webhooks.ownerUserId) })
      .from(webhooks)
      .where(and(eq(webhooks.active, true), eq(webhooks.environment, environment), arrayContains(webhooks.events, [event])));
    return rows
      .filter(({ ownerStatus }) => ownerStatus === 'active')
      .map(({ webhook, ownerRole }) => ({ ...webhook, ownerIsAdmin: ADMIN_ROLES.includes(ownerRole), ownerRole: ownerRole ?? null }));
  }

  async listDeliveries(webhookId: string, limit: number, offset: number): Promise<{ rows: DeliveryRow[]; total: number }> {
    const where = eq(webhookDeliveries.webhookId, webhookId);
    const [rows, [{ total }]] = await Promise.all([
      this.db
        .select()
        .from(webhookDeliveries)
        .where(where)
        .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.attempt), asc(webhookDeliveries.id))
        .limit(limit)
        .offset(offset),
      this.db.select({ total: count() }).from(webhookDeliveries).where(where),
    ]);
    return { rows, total };
  }

  /** Inserts attempts; those another instance inserted first are skipped and not returned. */
  async insertDeliveries(rows: NewDelivery[]): Promise<{ id: string; nextAttemptAt: Date }[]> {
    if (rows.length === 0) return [];
    return this.db
      .insert(webhookDeliveries)
      .values(rows)
      .onConflictDoNothing({ target: [webhookDeliveries.webhookId, webhookDeliveries.eventId, webhookDeliveries.attempt] })
      .returning({ id: webhookDeliveries.id, nextAttemptAt: webhookDeliveries.nextAttemptAt });
  }

  /**
   * Pending attempts whose claim is free, oldest first: all of them at start-up, and in the periodic sweep
   * those that should have run before `dueBefore` (a job lost with a crashed in-process queue).
   */
  async pendingDeliveries(options: {
    dueBefore?: Date;
    now: Date;
    limit: number;
    after?: { nextAttemptAt: Date; id: string };
  }): Promise<{ id: string; nextAttemptAt: Date; lockedUntil: Date | null }[]> {
    const conditions = [eq(webhookDeliveries.status, 'pending')];
    if (options.dueBefore) {
      conditions.push(lte(webhookDeliveries.nextAttemptAt, options.dueBefore));
      conditions.push(or(isNull(webhookDeliveries.lockedUntil), lte(webhookDeliveries.lockedUntil, options.now))!);
    }
    if (options.after) {
      conditions.push(
        sql`(${webhookDeliveries.nextAttemptAt}, ${webhookDeliveries.id}) > (${options.after.nextAttemptAt.toISOString()}::timestamptz, ${options.after.id}::uuid)`,
      );
    }
    return this.db
      .select({ id: webhookDeliveries.id, nextAttemptAt: webhookDeliveries.nextAttemptAt, lockedUntil: webhookDeliveries.lockedUntil })
      .from(webhookDeliveries)
      .where(and(...conditions))
      .orderBy(asc(webhookDeliveries.nextAttemptAt), asc(webhookDeliveries.id))
      .limit(options.limit);
  }

  /** Takes a pending attempt for this worker until `lockUntil`; null when it is done or another worker holds it. */
  async claim(id: string, now: Date, lockUntil: Date): Promise<ClaimedDelivery | null> {
    const [delivery] = await this.db
      .update(webhookDeliveries)
      .set({ lockedUntil: lockUntil })
      .where(
        and(
          eq(webhookDeliveries.id, id),
          eq(webhookDeliveries.status, 'pending'),
          or(isNull(webhookDeliveries.lockedUntil), lte(webhookDeliveries.lockedUntil, now)),
        ),
      )
      .returning();
    if (!delivery) return null;
    const [hook] = await this.db
      .select({
        url: webhooks.url,
        active: webhooks.active,
        secretCiphertext: webhooks.secretCiphertext,
        ownerStatus: this.owners.statusOf(webhooks.ownerUserId),
      })
      .from(webhooks)
      .where(eq(webhooks.id, delivery.webhookId))
      .limit(1);
    if (!hook) return null;
    // A retry made before its owner was banned is not sent after: the owner hears nothing while banned.
    const { ownerStatus, ...rest } = hook;
    return { delivery, ...rest, active: rest.active && ownerStatus === 'active' };
  }

  async release(id: string): Promise<void> {
    await this.db.update(webhookDeliveries).set({ lockedUntil: null }).where(eq(webhookDeliveries.id, id));
  }

  /**
   * Records an attempt's outcome and, when it is retried, inserts the next attempt, in one transaction:
   * an attempt is never left retrying without a successor. Answers the successor (null if none).
   */
  async recordAttempt(delivery: DeliveryRow, result: AttemptResult, nextAttemptAt: Date | null): Promise<{ id: string; nextAttemptAt: Date } | null> {
    return this.db.transaction(async (tx) => {
      const updated = await tx
        .update(webhookDeliveries)
        .set({
          status: result.status,
          responseStatus: result.responseStatus,
          error: result.error,
          durationMs: result.durationMs,
          attemptedAt: result.attemptedAt,
          deliveredAt: result.status === 'succeeded' ? result.attemptedAt : null,
          lockedUntil: null,
        })
        .where(and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.status, 'pending')))
        .returning({ id: webhookDeliveries.id });
      if (updated.length === 0 || result.status !== 'retrying' || nextAttemptAt === null) return null;
      const [next] = await tx
        .insert(webhookDeliveries)
        .values({
          webhookId: delivery.webhookId,
          eventId: delivery.eventId,
          event: delivery.event,
          payload: delivery.payload,
          webhookMessageId: delivery.webhookMessageId,
          attempt: delivery.attempt + 1,
          nextAttemptAt,
        })
        .onConflictDoNothing({ target: [webhookDeliveries.webhookId, webhookDeliveries.eventId, webhookDeliveries.attempt] })
        .returning({ id: webhookDeliveries.id, nextAttemptAt: webhookDeliveries.nextAttemptAt });
      return next ?? null;
    });
  }
}
