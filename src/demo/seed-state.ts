/**
 * The demo seed's shared state (table demo_seed, one row): a lease so that only one of several instances
 * on one database seeds at a time (another takes over when the holder stops renewing it), the model types
 * the seed will still deploy with their expected deploy times (a generation request made meanwhile waits
 * for them: src/station/models/model-availability.ts), and whether it finished.
 */
import { and, eq, gt, isNull, lt, or } from 'drizzle-orm';
import type { Clock } from '../infra/clock/clock.js';
import type { Db } from '../infra/db/client.js';
import { demoSeed } from '../infra/db/schema/index.js';
import type { DemoSeedOutlook } from '../station/models/model-availability.js';

export const SEED_LEASE_MS = 30_000;

/**
 * The read port the models' availability declares (DemoSeedOutlook): what the seed still means to deploy,
 * while a holder's lease is alive and the seed is not finished. Read beside the seed's writes, on its table.
 */
export function demoSeedOutlook(db: Db): DemoSeedOutlook {
  return {
    async expected(leaseAliveAfter) {
      const [seed] = await db
        .select({ expected: demoSeed.expected })
        .from(demoSeed)
        .where(and(eq(demoSeed.id, 1), isNull(demoSeed.completedAt), gt(demoSeed.leaseExpiresAt, leaseAliveAfter)))
        .limit(1);
      return seed?.expected ?? null;
    },
  };
}

export class DemoSeedState {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    readonly holder: string,
  ) {}

  /**
   * Takes (or renews) the lease unless another holder's is still alive or the seed is finished.
   * One statement, so two instances asking at once cannot both win.
   */
  async acquire(): Promise<boolean> {
    const now = this.clock.date();
    const until = new Date(now.getTime() + SEED_LEASE_MS);
    await this.db.insert(demoSeed).values({ id: 1 }).onConflictDoNothing();
    const [row] = await this.db
      .update(demoSeed)
      .set({ holder: this.holder, leaseExpiresAt: until, updatedAt: now })
      .where(
        and(
          eq(demoSeed.id, 1),
          isNull(demoSeed.completedAt),
          or(isNull(demoSeed.holder), eq(demoSeed.holder, this.holder), isNull(demoSeed.leaseExpiresAt), lt(demoSeed.leaseExpiresAt, now)),
        ),
      )
      .returning({ id: demoSeed.id });
    return !!row;
  }

  /** Renews the lease; false when it was lost (expired and taken over). */
  async renew(): Promise<boolean> {
    const now = this.clock.date();
    const [row] = await this.db
      .update(demoSeed)
      .set({ leaseExpiresAt: new Date(now.getTime() + SEED_LEASE_MS), updatedAt: now })
      .where(and(eq(demoSeed.id, 1), eq(demoSeed.holder, this.holder), isNull(demoSeed.completedAt)))
      .returning({ id: demoSeed.id });
    return !!row;
  }

  async completed(): Promise<boolean> {
    const [row] = await this.db.select({ completedAt: demoSeed.completedAt }).from(demoSeed).where(eq(demoSeed.id, 1)).limit(1);
    return !!row?.completedAt;
  }

  /** The step now running and the model types still to come, each with its expected deploy time (null: unknown). */
  async progress(step: string, expected: Record<string, Date | null>): Promise<void> {
    const json = Object.fromEntries(Object.entries(expected).map(([type, at]) => [type, at ? at.toISOString() : null]));
    await this.db
      .update(demoSeed)
      .set({ step, expected: json, updatedAt: this.clock.date() })
      .where(and(eq(demoSeed.id, 1), eq(demoSeed.holder, this.holder)));
  }

  async complete(): Promise<void> {
    const now = this.clock.date();
    await this.db
      .update(demoSeed)
      .set({ step: 'done', expected: {}, completedAt: now, leaseExpiresAt: null, updatedAt: now })
      .where(and(eq(demoSeed.id, 1), eq(demoSeed.holder, this.holder)));
  }
}
