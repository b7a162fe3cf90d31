/**
 * An account's self-service: sign-up, e-mail verification, a new address or password, and the password reset
 * by mail. Logins and sessions stay AuthService's (auth.service.ts), which builds this and gives it the two
 * session operations it needs: starting the new account's first session and ending the others after a change.
 * No HTTP here: platform/auth's routes call it as `auth.accounts`, passing the client address the server resolved.
 */
import type { Clock } from '../infra/clock/clock.js';
import type { DbOrTx } from '../infra/db/client.js';
import type { AfterCommit } from '../infra/pubsub/recorded-publish.js';
import { Errors } from '../errors.js';
import type { AuthRepository, UserRow } from './auth.repository.js';
import type { EmailVerification } from './email-verification.js';
import type { LoginThrottle } from './login-throttle.js';
import type { PasswordHasher } from './passwords.js';
import type { PasswordReset } from './password-reset.js';
import type { Principal } from './principal.js';
import { publicUser, type IssuedLogin, type PublicUser } from './public-user.js';

export interface AccountServiceDeps {
  repo: AuthRepository;
  passwords: PasswordHasher;
  throttle: LoginThrottle;
  clock: Clock;
  verification: EmailVerification;
  reset: PasswordReset;
  /** The new account's first platform session (AuthService's). */
  startSession: (user: UserRow) => Promise<IssuedLogin>;
  /** Event user.signup in the account's transaction (AuthService's: provider sign-in creates accounts too); answers its after-commit step. */
  recordSignup: (tx: DbOrTx, user: UserRow) => Promise<AfterCommit>;
  /** Revokes every login of the user but `keepSessionId` (AuthService's). */
  endSessions: (userId: string, reason: string, keepSessionId?: string) => Promise<void>;
}

export class AccountService {
  constructor(private readonly deps: AccountServiceDeps) {}

  async signup(input: { email: string; password: string; displayName: string }): Promise<IssuedLogin> {
    const { repo } = this.deps;
    // The cheap refusal first: argon2 (46 MiB, tens of ms) runs only for an address that is free.
    if (await repo.findUserByEmail(input.email)) throw Errors.conflict('An account with this e-mail already exists');
    const passwordHash = await this.deps.passwords.hash(input.password);
    const created = await repo.transaction(async (repo, tx) => {
      const user = await repo.insertUser({ email: input.email, passwordHash, role: 'listener', displayName: input.displayName });
      return user && { user, raised: await this.deps.recordSignup(tx, user) };
    });
    if (!created) throw Errors.conflict('An account with this e-mail already exists');
    const { user } = created;
    await created.raised();
    const login = await this.deps.startSession(user);
    this.deps.verification.sendLink(user.id, user.email);
    return login;
  }

  /** POST /v1/auth/verify-email: the link's token marks the address it was mailed to verified (email-verification.ts). */
  verifyEmail(token: string): Promise<void> {
    return this.deps.verification.verify(token);
  }

  /** POST /v1/auth/verify-email/resend: a new link, for a logged-in account whose address is not verified. */
  resendVerification(caller: Principal): Promise<void> {
    if (caller.kind !== 'user' || !caller.userId) throw Errors.forbidden('a new link is asked for from a login session');
    return this.deps.verification.resend(caller.userId);
  }

  /**
   * A new address for the caller's account, from a login session and with the account's password (a stolen
   * access token alone cannot move the account away). The new address is not verified: a link goes to it,
   * a notice to the old one, and outstanding reset links (mailed to the old address) die. Wrong passwords
   * count toward the login throttle of the account.
   */
  async changeEmail(caller: Principal, email: string, password: string, clientAddress: string): Promise<PublicUser & { email_verified: boolean }> {
    if (caller.kind !== 'user' || !caller.userId) throw Errors.forbidden('the address is changed from a login session, not with an API key');
    const user = await this.provePassword(caller.userId, password, clientAddress);
    if (email.toLowerCase() === user.email) return { ...publicUser(user), email_verified: user.emailVerifiedAt !== null };
    const changed = await this.deps.repo.changeEmail(user.id, email);
    if (!changed) throw Errors.conflict('An account with this e-mail already exists');
    await this.deps.repo.spendUserResetTokens(user.id, this.deps.clock.date());
    await this.deps.verification.addressChanged(changed, user.email);
    return { ...publicUser(changed), email_verified: false };
  }

  /**
   * PUT /v1/users/me/password: a new password for the caller, who proves the current one (a wrong one counts
   * toward the login throttle, as for changeEmail). Outstanding reset links die and every other session of
   * the account ends (a thief's included); the session that asked goes on.
   */
  async changePassword(caller: Principal, currentPassword: string, newPassword: string, clientAddress: string): Promise<void> {
    if (caller.kind !== 'user' || !caller.userId || !caller.sessionId)
      throw Errors.forbidden('the password is changed from a login session, not with an API key');
    const user = await this.provePassword(caller.userId, currentPassword, clientAddress);
    await this.deps.repo.setPasswordHash(user.id, await this.deps.passwords.hash(newPassword));
    await this.deps.repo.spendUserResetTokens(user.id, this.deps.clock.date());
    await this.deps.endSessions(user.id, 'password changed', caller.sessionId);
  }

  /** POST /v1/auth/reset-password: the same for any address; a mail with a 1-hour single-use link follows for an active account. */
  async requestPasswordReset(email: string): Promise<void> {
    await this.deps.reset.request(email);
  }

  /** Sets the new password from a reset link and ends every session of the user. */
  async confirmPasswordReset(token: string, password: string): Promise<void> {
    await this.deps.reset.confirm(token, password);
  }

  /** The caller's account, once its password is proved; a wrong one counts toward the login throttle. */
  private async provePassword(userId: string, password: string, clientAddress: string): Promise<UserRow> {
    const user = await this.deps.repo.findUserById(userId);
    if (!user) throw Errors.notFound('User', userId);
    await this.deps.throttle.refuseWhileLocked(user.email, clientAddress);
    if (!(await this.deps.passwords.verify(user.passwordHash, password))) {
      await this.deps.throttle.recordFailure(user.email, clientAddress);
      throw Errors.invalidCredentials();
    }
    return user;
  }
}
