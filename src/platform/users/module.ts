/** The users group for the composition root: a user's own profile (GET/PATCH /v1/users/me) and two-step sign-in enrolment. */
import type { SQLWrapper } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { DeveloperAccountCheck } from '../../auth/developer-account-reads.js';
import type { TotpEnrolment } from '../../auth/totp-enrolment.js';
import type { Clock } from '../../infra/clock/clock.js';
import type { Db } from '../../infra/db/client.js';
import { usersRoutes } from './routes.js';
import { totpRoutes } from './totp.routes.js';
import { UsersRepository, type DisplayNameWrite, type ProfileAccounts } from './users.repository.js';
import { UsersService } from './users.service.js';

export interface UsersModuleDeps {
  db: Db;
  clock: Clock;
  /** developer_account of GET /v1/users/me, read through the developer module's port. */
  developerAccounts: DeveloperAccountCheck;
  /** Auth's TOTP enrolment, behind POST /v1/users/me/totp(/confirm). */
  totp: TotpEnrolment;
  /** Auth's write of the display name on the user's row (auth owns `users`). */
  names: DisplayNameWrite;
  /** Auth's read of the account a profile shows (UserDirectory), joined in the profile's statement. */
  accounts: ProfileAccounts;
}

export function buildUsersModule({ db, clock, developerAccounts, totp, names, accounts }: UsersModuleDeps) {
  const repo = new UsersRepository(db, names, accounts);
  const service = new UsersService(repo, clock, developerAccounts);
  return {
    service,
    /** Read port: the listeners' public profiles, the playlists' owner privacy and the country the catalog keeps on a play. */
    profiles: {
      find: (userId: string) => repo.find(userId),
      playlistsPublicOf: (ownerUserId: SQLWrapper) => repo.playlistsPublicOf(ownerUserId),
      countryOf: (userId: string) => repo.countryOf(userId),
    },
    routes: async (app: FastifyInstance) => {
      await app.register(usersRoutes(service));
      await app.register(totpRoutes(totp));
    },
  };
}
