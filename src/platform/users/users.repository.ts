/** Users with their profiles (user_profiles; a missing row means the defaults). */
import { eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../infra/db/client.js';
import { idEq } from '../../infra/db/ids.js';
import { userProfiles, users } from '../../infra/db/schema/index.js';

export interface ProfileRow {
  id: string;
  email: string;
  role: (typeof users.$inferSelect)['role'];
  status: (typeof users.$inferSelect)['status'];
  plan: (typeof users.$inferSelect)['plan'];
  displayName: string;
  emailVerifiedAt: Date | null;
  createdAt: Date;
  avatarUrl: string | null;
  country: string | null;
  birthYear: number | null;
  historyPublic: boolean | null;
  playlistsPublic: boolean | null;
}

export interface ProfileChange {
  displayName?: string;
  avatarUrl?: string | null;
  country?: string | null;
  birthYear?: number | null;
  historyPublic?: boolean;
  playlistsPublic?: boolean;
}

export const profileColumns = {
  id: users.id,
  email: users.email,
  role: users.role,
  status: users.status,
  plan: users.plan,
  displayName: users.displayName,
  emailVerifiedAt: users.emailVerifiedAt,
  createdAt: users.createdAt,
  avatarUrl: userProfiles.avatarUrl,
  country: userProfiles.country,
  birthYear: userProfiles.birthYear,
  historyPublic: userProfiles.historyPublic,
  playlistsPublic: userProfiles.playlistsPublic,
};

export class UsersRepository {
  constructor(private readonly db: DbOrTx) {}

  async find(userId: string): Promise<ProfileRow | null> {
    const [row] = await this.db
      .select(profileColumns)
      .from(users)
      .leftJoin(userProfiles, eq(userProfiles.userId, users.id))
      .where(idEq(users.id, userId))
      .limit(1);
    return row ?? null;
  }

  /** Applies the change in one transaction: the display name on users, the rest on the profile row (created if missing). */
  async update(userId: string, change: ProfileChange): Promise<void> {
    const { displayName, ...profile } = change;
    await (this.db as Db).transaction(async (tx) => {
      if (displayName !== undefined) {
        await tx
          .update(users)
          .set({ displayName, updatedAt: sql`now()` })
          .where(idEq(users.id, userId));
      }
      if (Object.keys(profile).length > 0) {
        await tx
          .insert(userProfiles)
          .values({ userId, ...profile })
          .onConflictDoUpdate({ target: userProfiles.userId, set: { ...profile, updatedAt: sql`now()` } });
      }
    });
  }
}
