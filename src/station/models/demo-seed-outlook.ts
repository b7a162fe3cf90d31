/**
 * The DemoSeedOutlook port on the demo seed's one row (table demo_seed). The table is the demo seeder's
 * (src/demo/seed-state.ts writes it); this read belongs beside those writes and moves there when that folder
 * is next opened. Until then it is the only place outside src/demo that touches the table.
 */
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../../infra/db/client.js';
import { demoSeed } from '../../infra/db/schema/index.js';
import type { DemoSeedOutlook } from './model-availability.js';

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
