/**
 * Two-factor enrolment for any account (contract.md, "Staff"): POST /v1/users/me/totp makes a new secret and
 * shows it once (with its otpauth:// URL, the QR code of the admin panel); POST /v1/users/me/totp/confirm
 * with a code from it makes it the account's second factor. Until then the secret is only pending
 * (users.totp_pending_secret, sealed like the confirmed one) and counts for no login, so a staff role gets
 * its TOTP-only scopes (src/auth/scopes.ts) only once its holder proved they hold the secret.
 *
 * Re-enrolling replaces an unconfirmed secret freely. A confirmed secret is replaced only with a current
 * code from it (`current_code`), so a stolen access token alone cannot move the second factor to another
 * device; a holder who lost the device asks a super_admin for a reset (DELETE /v1/admin/users/{id}/totp),
 * which removes it. Confirming a replacement ends the account's other sessions. Wrong codes (for
 * `current_code` and for the confirmation) count: TOTP_FAILURES_PER_WINDOW per account per window, then 429.
 */
import { authenticator } from 'otplib';
import type { Clock } from '../infra/clock/clock.js';
import type { CounterStore } from '../infra/counters/counter-store.js';
import { Errors } from '../errors.js';
import type { AuthRepository, UserRow } from './auth.repository.js';
import type { Principal } from './principal.js';
import { acceptTotp, newTotpSecret } from './totp.js';
import type { TotpSecrets } from './totp-secrets.js';

/** The issuer an authenticator app shows next to the account's e-mail. */
export const TOTP_ISSUER = 'Station';
export const TOTP_FAILURES_PER_WINDOW = 5;
const FAILURE_WINDOW_MS = 15 * 60_000;

export interface TotpEnrolmentDeps {
  repo: AuthRepository;
  secrets: TotpSecrets;
  clock: Clock;
  counters: CounterStore;
  /** Ends the user's sessions but `keepSessionId` (AuthService.endAllSessions). */
  endSessions: (userId: string, reason: string, keepSessionId?: string) => Promise<void>;
  /** Revokes the user's API keys holding scopes only a second factor grants (DeveloperKeys.revokeSecondFactorKeys). */
  revokeSecondFactorKeys: (userId: string) => Promise<void>;
}

export interface Enrolment {
  secret: string;
  otpauth_url: string;
}

export class TotpEnrolment {
  constructor(private readonly deps: TotpEnrolmentDeps) {}

  /** A new pending secret for the caller, shown this once; a confirmed one is replaced only with `currentCode` from it. */
  async enrol(caller: Principal, currentCode?: string): Promise<Enrolment> {
    const user = await this.sessionUser(caller);
    const confirmed = this.deps.secrets.open(user.id, user.totpSecret);
    if (confirmed !== null) {
      if (currentCode === undefined) {
        throw Errors.forbidden('a confirmed second factor is replaced with a current code from it (current_code), or reset by a super_admin');
      }
      await this.refuseWhileLocked(user.id);
      const step = acceptTotp(confirmed, currentCode, this.deps.clock.now(), user.totpLastStep);
      if (step === null || !(await this.deps.repo.claimTotpStep(user.id, step)))
        return this.fail(user.id, 'current_code is not a current code of the confirmed second factor');
    }
    const secret = newTotpSecret();
    await this.deps.repo.setPendingTotpSecret(user.id, this.deps.secrets.seal(user.id, secret));
    return { secret, otpauth_url: authenticator.keyuri(user.email, TOTP_ISSUER, secret) };
  }

  /** Makes the pending secret the account's second factor when `code` is a current code from it. */
  async confirm(caller: Principal, code: string): Promise<{ totp_enabled: true }> {
    const user = await this.sessionUser(caller);
    const pending = this.deps.secrets.open(user.id, user.totpPendingSecret);
    if (pending === null || user.totpPendingSecret === null) throw Errors.conflict('There is no enrolment to confirm', 'POST /v1/users/me/totp first');
    await this.refuseWhileLocked(user.id);
    // A new secret: no step of it was used yet, whatever steps the previous one used.
    const step = acceptTotp(pending, code, this.deps.clock.now(), null);
    if (step === null) return this.fail(user.id, 'the code is not a current code of the pending secret');
    if (!(await this.deps.repo.confirmPendingTotpSecret(user.id, user.totpPendingSecret, step))) {
      throw Errors.conflict('The enrolment changed meanwhile', 'a newer POST /v1/users/me/totp replaced this secret; confirm the newer one');
    }
    if (user.totpSecret !== null) await this.deps.endSessions(user.id, 'second factor replaced', caller.sessionId ?? undefined);
    return { totp_enabled: true };
  }

  /** A super_admin's reset: both secrets go and every session of the user ends; the user enrols again. */
  async reset(userId: string): Promise<void> {
    if (!(await this.deps.repo.clearTotpSecrets(userId))) throw Errors.notFound('User', userId);
    await this.deps.endSessions(userId, 'second factor reset');
    // Keys made from a login that passed the old factor carry its scopes no longer than the factor itself.
    await this.deps.revokeSecondFactorKeys(userId);
  }

  private async sessionUser(caller: Principal): Promise<UserRow> {
    // An API key or an app must not move the second factor: only the person, from a login session.
    if (caller.kind !== 'user' || !caller.userId) throw Errors.forbidden('two-factor enrolment is done from a login session');
    const user = await this.deps.repo.findUserById(caller.userId);
    if (!user) throw Errors.notFound('User', caller.userId);
    return user;
  }

  private failuresKey(userId: string): string {
    return `totp:enrol-failures:${userId}`;
  }

  private async refuseWhileLocked(userId: string): Promise<void> {
    const failures = Number((await this.deps.counters.get(this.failuresKey(userId))) ?? 0);
    if (failures >= TOTP_FAILURES_PER_WINDOW) throw Errors.rateLimited(FAILURE_WINDOW_MS / 1000, 'Too many wrong codes; try again later');
  }

  private async fail(userId: string, detail: string): Promise<never> {
    await this.deps.counters.increment(this.failuresKey(userId), FAILURE_WINDOW_MS);
    throw Errors.validation(detail, 'The code is not valid');
  }
}
