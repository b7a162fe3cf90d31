/**
 * An artist account's sandbox twins. A user who owns live artists and calls with a test key acts for the
 * sandbox copies of those artists (same slug, environment 'test'): what they upload, sell or hide in capsules
 * there stays in the sandbox. The copy is made the first time it is needed; a copy the demo seed made without an
 * owner (src/demo/seed-sandbox.ts) is given its live original's owner. A copy is never platform-owned (the
 * CHECK artists_platform_owned_live), so nothing a test key uploads can reach the station's training dataset.
 *
 * `SandboxTwins` is the port the groups that act in the sandbox (capsules, store, uploads) are given, each declaring
 * it on its side: `artists` is the catalog aggregate's table (src/README.md), written here and nowhere in theirs.
 * The composition root makes it, since the store is built before the artists module.
 */
import { sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../infra/db/client.js';

export async function ensureSandboxTwins(db: DbOrTx, userId: string): Promise<void> {
  await db.execute(sql`
    insert into artists (environment, slug, name, bio, genre, verified, platform_owned, formed_year, owner_user_id)
    select 'test', a.slug, a.name, a.bio, a.genre, a.verified, false, a.formed_year, a.owner_user_id
    from artists a
    where a.environment = 'live' and a.owner_user_id = ${userId}
    on conflict (environment, slug) do update set owner_user_id = excluded.owner_user_id
      where artists.owner_user_id is null`);
}

export class SandboxTwins {
  constructor(private readonly db: Db) {}

  /** Makes (or gives an owner to) the sandbox copies of the live artists this user owns. */
  ensure(userId: string): Promise<void> {
    return ensureSandboxTwins(this.db, userId);
  }
}
