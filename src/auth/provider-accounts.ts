/**
 * Which account an OpenID Connect identity (oidc.ts) belongs to. A linked identity is its account's. A new one
 * is linked to the account with the same e-mail only when both sides proved that address: the provider's
 * `email_verified` claim and the account's own verification (email-verification.ts). Otherwise the answer is
 * 409, because whoever opened a password account with an address they do not own must not be able to keep a
 * foothold in the owner's account (security issue #16, item 3); the owner logs in and links the provider from
 * that session instead. Linking ends every other session of the account. With no account for the address, a
 * listener account is created, its address verified when the provider says so.
 */
import type { Clock } from '../infra/clock/clock.js';
import type { DbOrTx } from '../infra/db/client.js';
import type { AfterCommit } from '../infra/pubsub/recorded-publish.js';
import { Errors } from '../errors.js';
import type { AuthRepository, UserRow } from './auth.repository.js';
import type { EmailVerification } from './email-verification.js';
import { identityRefused, type VerifiedIdentity } from './oidc.js';
import type { Principal } from './principal.js';

/** The password hash of an account created through an identity provider: no password verifies against it. */
const NO_PASSWORD = '!no-password';
const LINKED_REASON = 'a sign-in provider was linked';

export interface ProviderAccountsDeps {
  repo: AuthRepository;
  clock: Clock;
  verification: EmailVerification;
  /** Revokes the user's sessions but `keepSessionId`, and closes their connections (AuthService.endAllSessions). */
  endSessions: (userId: string, reason: string, keepSessionId?: string) => Promise<void>;
  /** Event user.signup in the transaction that creates the account (AuthService's); answers its after-commit step. */
  recordSignup: (tx: DbOrTx, user: UserRow) => Promise<AfterCommit>;
}

export interface LinkedIdentity {
  issuer: string;
  email_verified: boolean;
}

export class ProviderAccounts {
  constructor(private readonly deps: ProviderAccountsDeps) {}

  /**
   * The account `identity` signs in to, linked or created as the rules above say. A created account's
   * user.signup is recorded with its insert; `raised` is that event's after-commit step (null: none raised).
   */
  async accountOf(identity: VerifiedIdentity): Promise<{ user: UserRow; created: boolean; raised: AfterCommit | null }> {
    const { repo } = this.deps;
    const known = await repo.findUserByIdentity(identity.issuer, identity.subject);
    if (known) return { user: known, created: false, raised: null };
    if (!identity.email) throw identityRefused('the provider shared no e-mail address');
    const existing = await repo.findUserByEmail(identity.email);
    if (existing) return { user: await this.linkToExisting(existing, identity), created: false, raised: null };
    const email = identity.email;
    const inserted = await repo.transaction(async (repo, tx) => {
      const user = await repo.insertUser({
        email,
        passwordHash: NO_PASSWORD,
        role: 'listener',
        displayName: identity.name ?? email.split('@')[0].slice(0, 80),
        emailVerifiedAt: identity.emailVerified ? this.deps.clock.date() : null,
      });
      return user && { user, raised: await this.deps.recordSignup(tx, user) };
    });
    if (!inserted) {
      // A concurrent sign-up took the address: the same rules as for any existing account.
      const taken = await repo.findUserByEmail(email);
      if (!taken) throw Errors.conflict('An account with this e-mail already exists');
      return { user: await this.linkToExisting(taken, identity), created: false, raised: null };
    }
    const { user, raised } = inserted;
    if (!(await repo.linkIdentity(identity.issuer, identity.subject, user.id))) {
      const linked = await repo.findUserByIdentity(identity.issuer, identity.subject); // a concurrent first sign-in linked it
      if (!linked) throw identityRefused('the identity could not be linked');
      return { user: linked, created: false, raised };
    }
    if (!identity.emailVerified) this.deps.verification.sendLink(user.id, user.email);
    return { user, created: true, raised };
  }

  /**
   * POST /v1/users/me/identities: the caller, in a login session, links a provider identity to their account
   * (the way in for an account whose address the provider verified but the account did not). Every other
   * session of the account ends. A provider-verified claim of the account's own address verifies it.
   */
  async linkFromSession(caller: Principal, identity: VerifiedIdentity): Promise<LinkedIdentity> {
    if (caller.kind !== 'user' || !caller.userId || !caller.sessionId) throw Errors.forbidden('a sign-in provider is linked from a login session');
    const { repo } = this.deps;
    const owner = await repo.findUserByIdentity(identity.issuer, identity.subject);
    if (owner && owner.id !== caller.userId) throw Errors.conflict('This identity is linked to another account');
    if (!owner) {
      if (!(await repo.linkIdentity(identity.issuer, identity.subject, caller.userId))) throw Errors.conflict('This identity is linked to another account');
      await this.deps.endSessions(caller.userId, LINKED_REASON, caller.sessionId);
    }
    const user = await repo.findUserById(caller.userId);
    if (!user) throw Errors.notFound('User', caller.userId);
    let verified = user.emailVerifiedAt !== null;
    if (!verified && identity.emailVerified && identity.email === user.email) {
      verified = await repo.markEmailVerified(user.id, user.email, this.deps.clock.date());
      if (verified) await repo.spendUserVerificationTokens(user.id, this.deps.clock.date());
    }
    return { issuer: identity.issuer, email_verified: verified };
  }

  private async linkToExisting(user: UserRow, identity: VerifiedIdentity): Promise<UserRow> {
    if (!identity.emailVerified) throw Errors.conflict('An account with this e-mail exists; the provider has not verified the address');
    if (!user.emailVerifiedAt) {
      throw Errors.conflict(
        'An account with this e-mail exists and its address is not verified',
        'log in to that account (or reset its password) and link the provider from its session: POST /v1/users/me/identities',
      );
    }
    if (user.status !== 'active') throw Errors.invalidCredentials();
    if (!(await this.deps.repo.linkIdentity(identity.issuer, identity.subject, user.id))) {
      const linked = await this.deps.repo.findUserByIdentity(identity.issuer, identity.subject); // a concurrent sign-in linked it
      if (!linked) throw identityRefused('the identity could not be linked');
      return linked;
    }
    await this.deps.endSessions(user.id, LINKED_REASON);
    return user;
  }
}
