/**
 * The shared authentication layer of both APIs: logins (platform, with the 2FA step, and staff, and with an
 * identity provider), refresh-token rotation with reuse detection, revocation. An account's self-service
 * (sign-up, verification, address and password changes, reset) is AccountService's (account.service.ts); role
 * and status changes are UserAdministration's (user-admin.service.ts); operator-made API keys and the exchange
 * of a key for a JWT are ApiKeys' (api-keys.service.ts), a developer's own keys DeveloperKeys'
 * (developer-keys.ts). Turning a presented credential into a Principal is in access.ts. No HTTP here: routes
 * in platform/auth and station/auth call this, passing the client address the server resolved (TRUST_PROXY).
 *
 * Every failed login answers the same INVALID_CREDENTIALS, with no detail, after the same work: a password
 * hash is verified (a decoy one for an unknown e-mail) and a TOTP code is checked (against a decoy secret
 * when the account has none), so neither the answer nor its timing tells which part was wrong.
 */
import type { Database, DbOrTx } from '../infra/db/client.js';
import type { AfterCommit } from '../infra/pubsub/recorded-publish.js';
import type { Clock } from '../infra/clock/clock.js';
import type { CounterStore } from '../infra/counters/counter-store.js';
import type { EventBus } from '../infra/pubsub/event-bus.js';
import { Errors } from '../errors.js';
import { CredentialResolver } from './access.js';
import type { Mailer } from '../infra/mail/mailer.js';
import { PasswordReset } from './password-reset.js';
import { OidcSignIn, type AuthorizationResponse, type OidcSettings, type VerifiedIdentity } from './oidc.js';
import { EmailVerification, type EmailVerifiedCheck } from './email-verification.js';
import { ProviderAccounts, type LinkedIdentity } from './provider-accounts.js';
import { DomainError } from '../errors.js';
import { ApiQuota, type QuotaLimits } from './api-quota.js';
import { SESSION_REVOKED_CHANNEL, USER_CHANGED_CHANNEL } from './auth-events.js';
import { ApiKeysRepository } from './api-keys.repository.js';
import { ApiKeys, type NewApiKey } from './api-keys.service.js';
import { AuthRepository, type UserRow, type UserStatus } from './auth.repository.js';
import type { DeveloperAccountCheck, DeveloperAccountFlag } from './developer-account-reads.js';
import { DeveloperKeys } from './developer-keys.js';
import { UserAdministration } from './user-admin.service.js';
import type { Principal } from './principal.js';
import type { LoginThrottle } from './login-throttle.js';
import { argon2Passwords, decoyPasswordHash, type PasswordHasher } from './passwords.js';
import { STAFF_ROLES, roleNeedsSecondFactor, type Role } from './scopes.js';
import type { SessionCache } from './session-cache.js';
import { SessionsRepository } from './sessions.repository.js';
import { ACCESS_TOKEN_TTL_SEC, type CsrfTokens, MFA_TOKEN_TTL_SEC, REFRESH_TOKEN_TTL_SEC, type TokenService, newOpaqueToken, sha256Hex } from './tokens.js';
import { acceptTotp } from './totp.js';
import type { TotpSecrets } from './totp-secrets.js';
import { TotpEnrolment } from './totp-enrolment.js';
import { AccountProvisioning, type BootstrapAdmin, type NewUser } from './account-provisioning.js';
import { publicUser, type IssuedLogin, type PublicUser } from './public-user.js';
import { AccountService } from './account.service.js';

export type { PublicUser };
export type { IssuedLogin };

export interface AuthServiceDeps {
  database: Database;
  /** Whether a user opened a developer account: the developer group's read ports, on its own and as a subquery. */
  developerAccounts: DeveloperAccountCheck & DeveloperAccountFlag;
  tokens: TokenService;
  csrf: CsrfTokens;
  clock: Clock;
  bus: EventBus;
  sessions: SessionCache;
  /** Shared state of the 2FA step (attempts per temp_token). */
  counters: CounterStore;
  throttle: LoginThrottle;
  totpSecrets: TotpSecrets;
  passwords?: PasswordHasher;
  /** Developer-key quotas; platform-api.md's limits by default (tests lower them). */
  quotas?: Partial<QuotaLimits>;
  /** STATION_MAX_KEYS_PER_ACCOUNT: unrevoked developer keys one account may hold (default 10). */
  maxKeysPerAccount?: number;
  /** The OpenID Connect provider of POST /v1/auth/google (OIDC_*); none when not configured. */
  oidc?: OidcSettings | null;
  /** Platform events (user.signup), recorded in the transaction that creates the account; none in unit setups. */
  events?: SignupEvents;
  /** Password-reset and verification mail: the mailer, the links' base (PUBLIC_BASE_URL) and where background failures are reported. */
  mail: { mailer: Mailer; publicBaseUrl: string; onError: (error: unknown) => void };
}

/** The platform's events as auth raises them: user.signup in the webhooks' outbox, in the account's transaction. */
export interface SignupEvents {
  recordIn(tx: DbOrTx, event: { event: 'user.signup'; data: Record<string, unknown> }): Promise<AfterCommit>;
}

/** Codes a temp_token may be tried with; the next try finds it dead. */
export const MFA_MAX_ATTEMPTS = 5;
/** Counted past the budget when a temp_token completes, so it cannot open a second session. */
const MFA_SPENT = String(MFA_MAX_ATTEMPTS + 1);
const MFA_STATE_TTL_MS = (MFA_TOKEN_TTL_SEC + 60) * 1000;

export class AuthService implements EmailVerifiedCheck {
  private readonly repo: AuthRepository;
  private readonly logins: SessionsRepository;
  private readonly keys: ApiKeysRepository;
  private readonly passwords: PasswordHasher;
  readonly csrf: CsrfTokens;
  /** Credential -> principal, for the HTTP hooks, stream tickets and connection watchers. */
  readonly credentials: CredentialResolver;
  /** Monthly quota and burst of developer keys, across instances. */
  readonly quota: ApiQuota;
  /** POST/GET/DELETE /v1/developer/keys. */
  readonly developerKeys: DeveloperKeys;
  /** The service key, keys made for seeding, and POST /v1/auth/token (api-keys.service.ts). */
  readonly apiKeys: ApiKeys;
  private readonly reset: PasswordReset;
  private readonly verification: EmailVerification;
  private readonly providerAccounts: ProviderAccounts;
  private readonly oidc: OidcSignIn | null;
  private readonly provisioning: AccountProvisioning;
  /** POST /v1/users/me/totp(/confirm) and the super_admin's reset (totp-enrolment.ts). */
  readonly totp: TotpEnrolment;
  /** Role and status changes (user-admin.service.ts), for the admin API and artist onboarding. */
  readonly users: UserAdministration;
  /** Sign-up, e-mail verification, address and password changes, password reset (account.service.ts). */
  readonly accounts: AccountService;

  constructor(private readonly deps: AuthServiceDeps) {
    this.quota = new ApiQuota(deps.counters, deps.clock, deps.quotas);
    this.repo = new AuthRepository(deps.database.db);
    this.logins = new SessionsRepository(deps.database.db, deps.developerAccounts);
    this.keys = new ApiKeysRepository(deps.database.db, deps.developerAccounts);
    this.developerKeys = new DeveloperKeys(this.keys, deps.developerAccounts, deps.bus, deps.maxKeysPerAccount);
    this.users = new UserAdministration({ repo: this.repo, sessions: this.logins, rights: this });
    this.passwords = deps.passwords ?? argon2Passwords;
    this.provisioning = new AccountProvisioning(this.repo, this.passwords, deps.totpSecrets);
    this.oidc = deps.oidc ? new OidcSignIn(deps.oidc) : null;
    this.reset = new PasswordReset({
      repo: this.repo,
      mailer: deps.mail.mailer,
      clock: deps.clock,
      counters: deps.counters,
      passwords: this.passwords,
      publicBaseUrl: deps.mail.publicBaseUrl,
      endSessions: (userId) => this.endAllSessions(userId, 'password reset'),
      onError: deps.mail.onError,
    });
    this.verification = new EmailVerification({
      repo: this.repo,
      mailer: deps.mail.mailer,
      clock: deps.clock,
      counters: deps.counters,
      publicBaseUrl: deps.mail.publicBaseUrl,
      onError: deps.mail.onError,
    });
    this.providerAccounts = new ProviderAccounts({
      repo: this.repo,
      clock: deps.clock,
      verification: this.verification,
      endSessions: (userId, reason, keepSessionId) => this.endAllSessions(userId, reason, keepSessionId),
      recordSignup: (tx, user) => this.recordSignup(tx, user),
    });
    this.totp = new TotpEnrolment({
      repo: this.repo,
      secrets: deps.totpSecrets,
      clock: deps.clock,
      counters: deps.counters,
      endSessions: (userId, reason, keepSessionId) => this.endAllSessions(userId, reason, keepSessionId),
      revokeSecondFactorKeys: (userId) => this.developerKeys.revokeSecondFactorKeys(userId),
    });
    this.accounts = new AccountService({
      repo: this.repo,
      passwords: this.passwords,
      throttle: deps.throttle,
      clock: deps.clock,
      verification: this.verification,
      reset: this.reset,
      startSession: (user) => this.startSession(user, 'platform', false),
      recordSignup: (tx, user) => this.recordSignup(tx, user),
      endSessions: (userId, reason, keepSessionId) => this.endAllSessions(userId, reason, keepSessionId),
    });
    this.csrf = deps.csrf;
    this.credentials = new CredentialResolver(this.keys, this.logins, deps.tokens, deps.sessions, deps.clock);
    this.apiKeys = new ApiKeys({ keys: this.keys, credentials: this.credentials, tokens: deps.tokens, csrf: deps.csrf });
  }

  authenticateBearer(token: string, apiKey?: string): Promise<Principal> {
    return this.credentials.authenticateBearer(token, apiKey);
  }

  authenticateApiKey(key: string): Promise<Principal> {
    return this.credentials.authenticateApiKey(key);
  }

  /** The check of actions marked "verified address": throws Errors.emailUnverified() (403) unless the user's address is verified. */
  assertEmailVerified(userId: string): Promise<void> {
    return this.verification.assertEmailVerified(userId);
  }

  /**
   * Event user.signup (platform-api.md): every account starts on the free plan. Recorded in `tx`, the account's
   * insert, and delivered by the webhook engine; answers the after-commit wake-up.
   */
  private async recordSignup(tx: DbOrTx, user: UserRow): Promise<AfterCommit> {
    const events = this.deps.events;
    if (!events) return async () => undefined;
    const raised = await events.recordIn(tx, { event: 'user.signup', data: { user_id: user.id, role: user.role, email: user.email, plan: 'free' } });
    // The account exists either way: a failure after the commit is logged, not turned into a failed sign-up.
    return () => raised().catch((error: unknown) => this.deps.mail.onError(error));
  }

  /**
   * POST /v1/auth/google: sign-in with an identity the OpenID Connect provider verified. A linked identity
   * signs its user in; otherwise an account with the same e-mail is linked only when both the provider and
   * the account verified the address (else 409), ending its other sessions; otherwise a listener account is
   * created (event user.signup) with no usable password (a password can be set later through
   * reset-password): provider-accounts.ts. A banned account is refused, and a
   * role whose scopes need TOTP gets the 2FA answer, as on /v1/auth/login.
   */
  async signInWithProvider(response: AuthorizationResponse) {
    return this.signInWithIdentity(await this.requireOidc().redeem(response));
  }

  private requireOidc(): OidcSignIn {
    if (!this.oidc) {
      throw new DomainError(
        'unavailable',
        'IDENTITY_PROVIDER_NOT_CONFIGURED',
        'Sign-in with an identity provider is not configured',
        'the operator sets OIDC_ISSUER and OIDC_CLIENT_ID',
      );
    }
    return this.oidc;
  }

  async signInWithIdentity(identity: VerifiedIdentity): Promise<(IssuedLogin & { created: boolean }) | { mfaToken: string }> {
    const { user, created, raised } = await this.providerAccounts.accountOf(identity);
    await raised?.();
    if (user.status !== 'active') throw Errors.invalidCredentials();
    if (roleNeedsSecondFactor(user.role) && this.deps.totpSecrets.open(user.id, user.totpSecret) !== null) {
      return { mfaToken: await this.deps.tokens.issue({ userId: user.id, role: user.role, sessionId: 'mfa' }, 'mfa') };
    }
    const login = await this.startSession(user, 'platform', false);
    return { ...login, created };
  }

  /** POST /v1/users/me/identities: links the provider identity of an authorization code to the caller's account (provider-accounts.ts). */
  async linkProvider(caller: Principal, response: AuthorizationResponse): Promise<LinkedIdentity> {
    if (caller.kind !== 'user') throw Errors.forbidden('a sign-in provider is linked from a login session');
    return this.providerAccounts.linkFromSession(caller, await this.requireOidc().redeem(response));
  }

  /**
   * Platform login. A role whose scopes need TOTP, with a TOTP secret, gets a 5-minute temp_token for the
   * 2FA step instead of a session. Without a secret (no enrolment yet) it gets a session without the
   * TOTP-only scopes (sessionScopes), never one with them.
   */
  async platformLogin(email: string, password: string, clientAddress: string): Promise<IssuedLogin | { mfaToken: string }> {
    await this.deps.throttle.refuseWhileLocked(email, clientAddress);
    const user = await this.repo.findUserByEmail(email);
    const passwordOk = await this.verifyPassword(user, password);
    if (!user || !passwordOk || user.status !== 'active') return this.failLogin(email, clientAddress);
    if (roleNeedsSecondFactor(user.role) && this.deps.totpSecrets.open(user.id, user.totpSecret) !== null) {
      return { mfaToken: await this.deps.tokens.issue({ userId: user.id, role: user.role, sessionId: 'mfa' }, 'mfa') };
    }
    await this.deps.throttle.recordSuccess(email, clientAddress);
    return this.startSession(user, 'platform', false);
  }

  /** The 2FA step: at most MFA_MAX_ATTEMPTS codes per temp_token, counted across instances, and one success. */
  async verifySecondFactor(mfaToken: string, code: string, clientAddress: string): Promise<IssuedLogin> {
    const claims = await this.deps.tokens.verify(mfaToken, 'mfa').catch(() => null);
    const user = claims ? await this.repo.findUserById(claims.userId) : null;
    if (user) await this.deps.throttle.refuseWhileLocked(user.email, clientAddress);
    const attemptsKey = claims ? `mfa:attempts:${claims.tokenId}` : null;
    const attempts = attemptsKey ? await this.deps.counters.increment(attemptsKey, MFA_STATE_TTL_MS) : Infinity;
    const step = this.totpStep(user, code);
    const ok = user !== null && attempts <= MFA_MAX_ATTEMPTS && user.status === 'active' && step !== null && (await this.repo.claimTotpStep(user.id, step));
    if (!ok || !attemptsKey) return this.failLogin(user?.email ?? null, clientAddress);
    await this.deps.counters.set(attemptsKey, MFA_SPENT, MFA_STATE_TTL_MS);
    await this.deps.throttle.recordSuccess(user.email, clientAddress);
    return this.startSession(user, 'platform', true);
  }

  /** Staff login: e-mail, password and TOTP code, for the roles whose scopes need TOTP. */
  async staffLogin(input: { email: string; password: string; totpCode: string }, clientAddress: string): Promise<IssuedLogin> {
    await this.deps.throttle.refuseWhileLocked(input.email, clientAddress);
    const user = await this.repo.findUserByEmail(input.email);
    const passwordOk = await this.verifyPassword(user, input.password);
    const step = this.totpStep(user, input.totpCode);
    const ok =
      user !== null &&
      passwordOk &&
      user.status === 'active' &&
      STAFF_ROLES.includes(user.role) &&
      step !== null &&
      (await this.repo.claimTotpStep(user.id, step));
    if (!ok) return this.failLogin(input.email, clientAddress);
    await this.deps.throttle.recordSuccess(input.email, clientAddress);
    return this.startSession(user, 'staff', true);
  }

  /**
   * Rotates a refresh token: the presented one is spent and a new one issued. Presenting a token that
   * was already rotated means it leaked (or a client raced itself): the whole login is revoked.
   */
  async refresh(refreshToken: string, kind: 'staff' | 'platform'): Promise<IssuedLogin> {
    const token = await this.logins.findRefreshToken(sha256Hex(refreshToken));
    if (!token || token.sessionKind !== kind) throw Errors.authRequired('refresh token not recognised');
    if (token.sessionRevokedAt) throw Errors.authRequired('this login was revoked');
    if (token.rotatedAt || !(await this.logins.markRotated(token.id))) {
      await this.revokeSession(token.sessionId, 'refresh token reuse detected');
      throw Errors.authRequired('refresh token was already used; the login has been revoked');
    }
    if (token.expiresAt.getTime() <= this.deps.clock.now()) throw Errors.authRequired('refresh token expired');
    const user = await this.repo.findUserById(token.userId);
    if (!user || user.status !== 'active') throw Errors.authRequired('account disabled');
    return this.issueTokens(user, token.sessionId);
  }

  async revokeSession(sessionId: string, reason: string): Promise<void> {
    await this.logins.revokeSession(sessionId, reason);
    this.deps.sessions.drop(sessionId);
    await this.deps.bus.publish(SESSION_REVOKED_CHANNEL, { sessionId });
  }

  /** Waits for reset and verification mails still being written (shutdown). */
  async drain(): Promise<void> {
    await Promise.all([this.reset.drain(), this.verification.drain()]);
  }

  /** Revokes every login of the user but `keepSessionId` (refresh families included) and closes their connections on every instance. */
  async endAllSessions(userId: string, reason: string, keepSessionId?: string): Promise<void> {
    await this.logins.revokeUserSessions(userId, reason, keepSessionId);
    await this.userChanged(userId);
  }

  /** Kept for callers holding the station's AuthService (seeding, tests): the work is UserAdministration's. */
  setUserRole(userId: string, role: Role): Promise<PublicUser> {
    return this.users.setUserRole(userId, role);
  }

  /** Kept for callers holding the station's AuthService (seeding, tests): the work is UserAdministration's. */
  setUserStatus(userId: string, status: UserStatus): Promise<PublicUser> {
    return this.users.setUserStatus(userId, status);
  }

  /** Kept for callers holding the station's AuthService (seeding, tests): the work is ApiKeys'. */
  createApiKey(input: NewApiKey): Promise<{ id: string; key: string }> {
    return this.apiKeys.create(input);
  }

  /**
   * Start-up: clear TOTP secrets sealed and the STATION_ADMIN_* super_admin created (account-provisioning.ts),
   * then the service key registered (api-keys.service.ts). Returns warnings to log.
   */
  async bootstrap(admin: BootstrapAdmin | null, serviceKey: string | null): Promise<string[]> {
    const warnings = await this.provisioning.bootstrap(admin);
    await this.apiKeys.ensureServiceKey(serviceKey);
    return warnings;
  }

  /** Creates a user of any role; for seeding and for the admin API. The TOTP secret is sealed. */
  createUser(input: NewUser): Promise<PublicUser> {
    return this.provisioning.createUser(input);
  }

  private async failLogin(email: string | null, clientAddress: string): Promise<never> {
    if (email !== null) await this.deps.throttle.recordFailure(email, clientAddress);
    throw Errors.invalidCredentials();
  }

  private async verifyPassword(user: UserRow | null, password: string): Promise<boolean> {
    return this.passwords.verify(user?.passwordHash ?? (await decoyPasswordHash()), password);
  }

  /**
   * The time step of a right, unused TOTP code, or null. The same work whatever the account: its sealed
   * secret is opened, or a decoy one when there is no account or no secret.
   */
  private totpStep(user: UserRow | null, code: string): number | null {
    const secret = user ? this.deps.totpSecrets.open(user.id, user.totpSecret) : null;
    const step = acceptTotp(secret ?? this.deps.totpSecrets.openDecoy(), code, this.deps.clock.now(), user?.totpLastStep ?? null);
    return secret === null ? null : step;
  }

  private async startSession(user: UserRow, kind: 'staff' | 'platform', secondFactor: boolean): Promise<IssuedLogin> {
    const expiresAt = new Date(this.deps.clock.now() + REFRESH_TOKEN_TTL_SEC * 1000);
    const sessionId = await this.logins.insertSession(user.id, kind, expiresAt, secondFactor);
    return this.issueTokens(user, sessionId);
  }

  private async issueTokens(user: UserRow, sessionId: string): Promise<IssuedLogin> {
    const refreshToken = newOpaqueToken('rt');
    await this.logins.insertRefreshToken(sessionId, sha256Hex(refreshToken), new Date(this.deps.clock.now() + REFRESH_TOKEN_TTL_SEC * 1000));
    const accessToken = await this.deps.tokens.issue({ userId: user.id, role: user.role, sessionId });
    return {
      accessToken,
      refreshToken,
      csrfToken: this.csrf.forCredential(sessionId),
      expiresIn: ACCESS_TOKEN_TTL_SEC,
      user: publicUser(user),
    };
  }

  /** A user's rights changed: this instance forgets its sessions' state now, every other one on USER_CHANGED. */
  async userChanged(userId: string): Promise<void> {
    this.deps.sessions.dropUser(userId);
    await this.deps.bus.publish(USER_CHANGED_CHANNEL, { userId });
  }
}
