/**
 * Users with their profiles (user_profiles; a missing row means the defaults). The account a profile shows
 * (address, role, status, plan, display name) is auth's `users`, read through auth's port (`ProfileAccounts`,
 * published by `UserDirectory` in src/auth/user-directory.ts) in the statement that reads the profile; the
 * display name is written through auth's port too (`DisplayNameWrite`, published as `AccountWrites` in
 * src/auth/account-writes.ts) in the transaction that writes the profile.
 */
import { eq, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { UserPlan } from '../../auth/account-writes.js';
import type { UserStatus } from '../../auth/auth.repository.js';
import type { Role } from '../../auth/scopes.js';
import type { UserDirectory } from '../../auth/user-directory.js';
import type { Db, DbOrTx } from '../../infra/db/client.js';
import { idEq } from '../../infra/db/ids.js';
import { userProfiles } from '../../infra/db/schema/index.js';

export interface ProfileRow {
  id: string;
  email: string;
  role: Role;
  status: UserStatus;
  plan: UserPlan;
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

/** Auth's port as this group uses it: a display name set in the profile's transaction. */
export interface DisplayNameWrite {
  setDisplayName(userId: string, displayName: string, tx: DbOrTx): Promise<void>;
}

/** Auth's read port as this group uses it: the account columns a profile shows, as a derived table to join. */
export type ProfileAccounts = Pick<UserDirectory, 'profileAccounts'>;

export class UsersRepository {
  /** Built once: the derived table is only SQL, joined by every profile read. */
  private readonly account: ReturnType<ProfileAccounts['profileAccounts']>;

  constructor(
    private readonly db: DbOrTx,
    private readonly names: DisplayNameWrite,
    accounts: ProfileAccounts,
  ) {
    this.account = accounts.profileAccounts();
  }

  async find(userId: string): Promise<ProfileRow | null> {
    const account = this.account;
    const [row] = await this.db
      .select({
        id: account.id,
        email: account.email,
        role: account.role,
        status: account.status,
        plan: account.plan,
        displayName: account.displayName,
        emailVerifiedAt: account.emailVerifiedAt,
        createdAt: account.createdAt,
        avatarUrl: userProfiles.avatarUrl,
        country: userProfiles.country,
        birthYear: userProfiles.birthYear,
        historyPublic: userProfiles.historyPublic,
        playlistsPublic: userProfiles.playlistsPublic,
      })
      .from(account)
      .leftJoin(userProfiles, eq(userProfiles.userId, account.id))
      .where(idEq(account.id, userId))
      .limit(1);
    return row ?? null;
  }

  /**
   * Whether the owner's playlists are public, as a scalar subquery on `ownerUserId` (null without a profile row:
   * the default applies), so that the playlists group reads it in the statement that reads the playlist.
   */
  playlistsPublicOf(ownerUserId: SQLWrapper): SQL<boolean | null> {
    return sql<boolean | null>`(select ${userProfiles.playlistsPublic} from ${userProfiles} where ${userProfiles.userId} = ${ownerUserId})`.mapWith(
      userProfiles.playlistsPublic,
    );
  }

  /**
   * The country of the user's profile as it is now, as a scalar subquery (null without one), so that the
   * catalog keeps it on a play in the statement that records the play.
   */
  countryOf(userId: string): SQL<string | null> {
    return sql<string | null>`(select ${userProfiles.country} from ${userProfiles} where ${userProfiles.userId} = ${userId})`;
  }

  /** Applies the change in one transaction: the display name on users, the rest on the profile row (created if missing). */
  async update(userId: string, change: ProfileChange): Promise<void> {
    const { displayName, ...profile } = change;
    await (this.db as Db).transaction(async (tx) => {
      if (displayName !== undefined) await this.names.setDisplayName(userId, displayName, tx);
      if (Object.keys(profile).length > 0) {
        await tx
          .insert(userProfiles)
          .values({ userId, ...profile })
          .onConflictDoUpdate({ target: userProfiles.userId, set: { ...profile, updatedAt: sql`now()` } });
      }
    });
  }
}
