/** The platform's administration group for the composition root: user administration and the songwriters register. */
import type { FastifyInstance } from 'fastify';
import type { TotpEnrolment } from '../../auth/totp-enrolment.js';
import { AdminUsersService, type AdminUserReads, type UserWrites } from './admin-users.service.js';
import { adminRoutes } from './routes.js';
import { songwritersRoutes } from './songwriters.routes.js';
import { SongwritersService, type SongwriterReads } from './songwriters.service.js';

export interface PlatformAdminModuleDeps {
  /** Role and status changes, made by auth (which owns the users and their sessions). */
  users: UserWrites;
  /** Auth's read port of the users (the list and the admin's checks). */
  directory: AdminUserReads;
  /** The super_admin's reset of a user's two-step sign-in. */
  totp: Pick<TotpEnrolment, 'reset'>;
  /** The catalog's read port: the songwriters register (songwriters, their credits and the tracks credited). */
  songwriters: SongwriterReads;
}

export function buildPlatformAdminModule({ users, directory, totp, songwriters: songwriterReads }: PlatformAdminModuleDeps) {
  const adminUsers = new AdminUsersService(directory, users, totp);
  const songwriters = new SongwritersService(songwriterReads);
  return {
    routes: async (app: FastifyInstance) => {
      await app.register(adminRoutes(adminUsers));
      await app.register(songwritersRoutes(songwriters));
    },
  };
}
