/**
 * Password reset by e-mail. `request` answers the same whatever the address (the route always says 202):
 * it only looks the address up, and everything an existing account adds (the token, the mail) runs after
 * the answer, so neither the answer nor its timing tells whether the address has an account. The link
 * carries a 256-bit token valid 1 hour and usable once; only its SHA-256 is stored. `confirm` sets the
 * new password and ends every session of the user (their refresh families are revoked, and the
 * auth.user_changed message closes their sockets and streams on every instance).
 */
import type { Clock } from '../infra/clock/clock.js';
import type { CounterStore } from '../infra/counters/counter-store.js';
import type { Mailer } from '../infra/mail/mailer.js';
import { DomainError } from '../errors.js';
import type { AuthRepository } from './auth.repository.js';
import type { PasswordHasher } from './passwords.js';
import { newOpaqueToken, sha256Hex } from './tokens.js';

export const RESET_TOKEN_TTL_MS = 3600_000;
/** Links mailed to one address per hour; beyond, requests still answer 202 and send nothing. */
export const RESET_MAILS_PER_HOUR = 3;

export const resetTokenInvalid = () =>
  new DomainError('invalid', 'RESET_TOKEN_INVALID', 'The reset link is not valid', 'it is unknown, was already used, or is older than 1 hour');

export interface PasswordResetDeps {
  repo: AuthRepository;
  mailer: Mailer;
  clock: Clock;
  counters: CounterStore;
  passwords: PasswordHasher;
  /** Base of the link in the mail (PUBLIC_BASE_URL). */
  publicBaseUrl: string;
  /** Ends every session of the user (AuthService: revoke + user changed). */
  endSessions: (userId: string) => Promise<void>;
  onError: (error: unknown) => void;
}

export class PasswordReset {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly deps: PasswordResetDeps) {}

  /** Looks the address up and returns; the mail (if any) follows in the background. */
  async request(email: string): Promise<void> {
    const user = await this.deps.repo.findUserByEmail(email);
    if (!user || user.status !== 'active') return;
    const task = this.mailLink(user.id, user.email)
      .catch(this.deps.onError)
      .finally(() => this.pending.delete(task));
    this.pending.add(task);
  }

  async confirm(token: string, password: string): Promise<void> {
    const now = this.deps.clock.date();
    // Hash the new password first: an invalid token costs the same as a valid one.
    const passwordHash = await this.deps.passwords.hash(password);
    const userId = await this.deps.repo.spendResetToken(sha256Hex(token), now);
    if (!userId) throw resetTokenInvalid();
    const user = await this.deps.repo.findUserById(userId);
    if (!user || user.status !== 'active') throw resetTokenInvalid();
    await this.deps.repo.setPasswordHash(userId, passwordHash);
    await this.deps.repo.spendUserResetTokens(userId, now);
    await this.deps.endSessions(userId);
  }

  /** Waits for mails still being written (shutdown, tests). */
  async drain(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  private async mailLink(userId: string, email: string): Promise<void> {
    const sent = await this.deps.counters.increment(`reset:mails:${email}`, RESET_TOKEN_TTL_MS);
    if (sent > RESET_MAILS_PER_HOUR) return;
    const token = newOpaqueToken('rst');
    const now = this.deps.clock.now();
    await this.deps.repo.insertResetToken(userId, sha256Hex(token), new Date(now), new Date(now + RESET_TOKEN_TTL_MS));
    const link = `${this.deps.publicBaseUrl.replace(/\/$/, '')}/reset-password?token=${encodeURIComponent(token)}`;
    await this.deps.mailer.send({
      to: email,
      subject: 'Reset your password',
      text: [
        'Someone asked to reset the password of your account.',
        '',
        `To choose a new password, open this link within 1 hour (it works once):`,
        link,
        '',
        'The page sends the token to POST /v1/auth/reset-password/confirm with your new password.',
        'If you did not ask for this, ignore this message: your password stays as it is.',
      ].join('\n'),
    });
  }
}
