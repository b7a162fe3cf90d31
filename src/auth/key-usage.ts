/**
 * api_keys.last_used_at, kept without a write per request: each instance writes a key's time at most once
 * per interval (a minute by default), and the UPDATE itself only lands when the stored time is older than
 * the interval, so several instances add at most one write per key per interval between them. The value
 * is therefore accurate to about a minute, which is what "last used" is for (spotting dead keys).
 */
import { and, isNull, lt, or } from 'drizzle-orm';
import type { Clock } from '../infra/clock/clock.js';
import type { DbOrTx } from '../infra/db/client.js';
import { idEq } from '../infra/db/ids.js';
import { apiKeys } from '../infra/db/schema/index.js';

export const KEY_USAGE_INTERVAL_MS = 60_000;
/** Keys remembered per instance; beyond this the memory starts over (it only saves writes). */
const MAX_REMEMBERED = 20_000;

export class KeyUsage {
  private readonly writtenAt = new Map<string, number>();

  constructor(
    private readonly db: DbOrTx,
    private readonly clock: Clock,
    private readonly intervalMs = KEY_USAGE_INTERVAL_MS,
  ) {}

  /** Records a use of the key now, unless this instance recorded one less than an interval ago. */
  async touch(keyId: string): Promise<void> {
    const now = this.clock.now();
    const last = this.writtenAt.get(keyId);
    if (last !== undefined && now - last < this.intervalMs) return;
    if (this.writtenAt.size >= MAX_REMEMBERED) this.writtenAt.clear();
    this.writtenAt.set(keyId, now);
    const at = new Date(now);
    const staleBefore = new Date(now - this.intervalMs);
    try {
      await this.db
        .update(apiKeys)
        .set({ lastUsedAt: at })
        .where(and(idEq(apiKeys.id, keyId), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, staleBefore))));
    } catch {
      // Advisory data: a failed write must not fail the request it rides on; the next interval tries again.
      this.writtenAt.delete(keyId);
    }
  }
}
