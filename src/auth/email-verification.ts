/**
 * E-mail verification (contract.md, "Accounts and onboarding"), built like password-reset.ts: sign-up and an
 * address change mail a link with a 256-bit token, valid 24 hours and usable once; only its SHA-256 is stored,
 * with the address it was mailed to, so a link proves that address only and dies when the account's address
 * changes. `verify` marks the address verified; `resend` (logged in) mails a new link, at most
 * VERIFY_RESENDS_PER_HOUR an hour per account.
 *
 * The one check other modules use for actions marked "verified address": `assertEmailVerified(userId)`
 * (the EmailVerifiedCheck port), which throws Errors.emailUnverified() (403 PLATFORM_EMAIL_UNVERIFIED).
 * Addresses of accounts made by the operator (STATION_ADMIN_*, the demo, seeding) and of accounts created from
 * a provider's verified e-mail claim count as verified from the start (account-provisioning.ts, oidc sign-in).
 */
import type { Clock } from '../infra/clock/clock.js';
import type { CounterStore } from '../infra/counters/counter-store.js';
import type { Mailer } from '../infra/mail/mailer.js';
import { DomainError, Errors } from '../errors.js';
import type { AuthRepository, UserRow } from './auth.repository.js';
import { newOpaqueToken, sha256Hex } from './tokens.js';

export const VERIFY_TOKEN_TTL_MS = 24 * 3600_000;
/** New links an account may ask for per clock hour (POST /v1/auth/verify-email/resend); beyond, 429. */
export const VERIFY_RESENDS_PER_HOUR = 3;
const HOUR_MS = 3600_000;

export const verificationTokenInvalid = () =>
  new DomainError(
    'invalid',
    'VERIFICATION_TOKEN_INVALID',
    'The verification link is not valid',
    'it is unknown, was already used, is older than 24 hours, or was mailed to an address the account no longer has',
  );

/** What a module needs to refuse an action to an account without a verified address. */
export interface EmailVerifiedCheck {
  /** Resolves when the user's current address is verified; throws Errors.emailUnverified() otherwise. */
  assertEmailVerified(userId: string): Promise<void>;
}

export interface EmailVerificationDeps {
  repo: AuthRepository;
  mailer: Mailer;
  clock: Clock;
  counters: CounterStore;
  /** Base of the link in the mail (PUBLIC_BASE_URL). */
  publicBaseUrl: string;
  onError: (error: unknown) => void;
}

export class EmailVerification implements EmailVerifiedCheck {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly deps: EmailVerificationDeps) {}

  async assertEmailVerified(userId: string): Promise<void> {
    const user = await this.deps.repo.findUserById(userId);
    if (!user?.emailVerifiedAt) throw Errors.emailUnverified();
  }

  /** After sign-up or an address change: the link to `email` is written and mailed in the background. */
  sendLink(userId: string, email: string): void {
    this.inBackground(() => this.mailLink(userId, email));
  }

  /** A new link for a logged-in account whose address is not verified yet (409 when it is; 429 past the hourly budget). */
  async resend(userId: string): Promise<void> {
    const user = await this.deps.repo.findUserById(userId);
    if (!user || user.status !== 'active') throw Errors.notFound('User', userId);
    if (user.emailVerifiedAt) throw Errors.conflict('The e-mail address is already verified');
    // Fixed one-hour windows, so Retry-After can say when the next link may be asked for.
    const now = this.deps.clock.now();
    const window = Math.floor(now / HOUR_MS);
    const asked = await this.deps.counters.increment(`verify:resends:${user.id}:${window}`, HOUR_MS);
    if (asked > VERIFY_RESENDS_PER_HOUR) {
      throw Errors.rateLimited(Math.max(1, Math.ceil(((window + 1) * HOUR_MS - now) / 1000)), 'Too many verification links asked for; try again later');
    }
    this.sendLink(user.id, user.email);
  }

  /** Spends the link's token and marks the address it was mailed to verified, if the account still has it. */
  async verify(token: string): Promise<void> {
    const now = this.deps.clock.date();
    const spent = await this.deps.repo.spendVerificationToken(sha256Hex(token), now);
    if (!spent || !(await this.deps.repo.markEmailVerified(spent.userId, spent.email, now))) throw verificationTokenInvalid();
    await this.deps.repo.spendUserVerificationTokens(spent.userId, now);
  }

  /**
   * The account's address changed (the repository already cleared its verification): older links die, the new
   * address gets a link, and the old one a notice, so its owner learns of a change they did not make.
   */
  async addressChanged(user: UserRow, previousEmail: string): Promise<void> {
    await this.deps.repo.spendUserVerificationTokens(user.id, this.deps.clock.date());
    this.sendLink(user.id, user.email);
    this.inBackground(() =>
      this.deps.mailer.send({
        to: previousEmail,
        subject: 'Your e-mail address was changed',
        text: [
          `The e-mail address of your account was changed from ${previousEmail} to ${user.email}.`,
          '',
          'If you did not do this, reset your password from the new address or contact the station.',
        ].join('\n'),
      }),
    );
  }

  /** Waits for mails still being written (shutdown, tests). */
  async drain(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  private inBackground(work: () => Promise<void>): void {
    const task = work()
      .catch(this.deps.onError)
      .finally(() => this.pending.delete(task));
    this.pending.add(task);
  }

  private async mailLink(userId: string, email: string): Promise<void> {
    const token = newOpaqueToken('evt');
    const now = this.deps.clock.now();
    await this.deps.repo.insertVerificationToken({
      userId,
      email,
      tokenHash: sha256Hex(token),
      createdAt: new Date(now),
      expiresAt: new Date(now + VERIFY_TOKEN_TTL_MS),
    });
    const link = `${this.deps.publicBaseUrl.replace(/\/$/, '')}/verify-email?token=${encodeURIComponent(token)}`;
    await this.deps.mailer.send({
      to: email,
      subject: 'Confirm your e-mail address',
      text: [
        'Please confirm that this address belongs to your account.',
        '',
        'Open this link within 24 hours (it works once):',
        link,
        '',
        'The page sends the token to POST /v1/auth/verify-email.',
        'If you did not open an account, ignore this message.',
      ].join('\n'),
    });
  }
}
