/**
 * The shared authentication layer of both APIs: sign-up, logins (platform and staff with TOTP),
 * refresh-token rotation with reuse detection, revocation, API keys, and turning a presented credential
 * into a Principal. No HTTP here: routes in platform/auth and station/auth call this.
 */
import type { Database } from '../infra/db/client.js';
import type { Clock } from '../infra/clock/clock.js';
import type { EventBus } from '../infra/pubsub/event-bus.js';
import { AppError, Errors } from '../http/errors.js';
import { AuthRepository, type UserRow } from './auth.repository.js';
import { decoyPasswordHash, hashPassword, verifyPassword } from './passwords.js';
import type { Principal } from './principal.js';
import { ADMIN_ROLES, SERVICE_KEY_SCOPES, STAFF_ROLES, isScope, scopesOfRole, type Role, type Scope } from './scopes.js';
import { SESSION_REVOKED_CHANNEL, SessionCache } from './session-cache.js';
import {
  ACCESS_TOKEN_TTL_SEC,
  CsrfTokens,
  REFRESH_TOKEN_TTL_SEC,
  TokenError,
  TokenService,
  newOpaqueToken,
  sha256Hex,
} from './tokens.js';
import { acceptTotp } from './totp.js';

export interface IssuedLogin {
  accessToken: string;
  refreshToken: string;
  csrfToken: string;
  expiresIn: number;
  user: PublicUser;
}

export interface PublicUser {
  id: string;
  email: string;
  role: Role;
  display_name: string;
}

function publicUser(row: UserRow): PublicUser {
  return { id: row.id, email: row.email, role: row.role, display_name: row.displayName };
}

export class AuthService {
  private readonly repo: AuthRepository;

  constructor(
    database: Database,
    private readonly tokens: TokenService,
    readonly csrf: CsrfTokens,
    private readonly clock: Clock,
    private readonly bus: EventBus,
    private readonly sessions: SessionCache,
  ) {
    this.repo = new AuthRepository(database.db);
  }

  async signup(input: { email: string; password: string; displayName: string }): Promise<IssuedLogin> {
    const user = await this.repo.insertUser({
      email: input.email,
      passwordHash: await hashPassword(input.password),
      role: 'listener',
      displayName: input.displayName,
    });
    if (!user) throw Errors.conflict('An account with this e-mail already exists');
    return this.startSession(user, 'platform');
  }

  /** Platform login. Admin roles must also pass TOTP: they get a short-lived MFA token instead. */
  async platformLogin(email: string, password: string): Promise<IssuedLogin | { mfaToken: string }> {
    const user = await this.checkPassword(email, password);
    if ((ADMIN_ROLES as readonly Role[]).includes(user.role)) {
      const mfaToken = await this.tokens.issue({ userId: user.id, role: user.role, sessionId: 'mfa' }, 'mfa');
      return { mfaToken };
    }
    return this.startSession(user, 'platform');
  }

  async verifySecondFactor(mfaToken: string, code: string): Promise<IssuedLogin> {
    let claims;
    try {
      claims = await this.tokens.verify(mfaToken, 'mfa');
    } catch {
      throw Errors.invalidCredentials();
    }
    const user = await this.repo.findUserById(claims.userId);
    if (!user || user.status !== 'active') throw Errors.invalidCredentials();
    await this.checkTotp(user, code);
    return this.startSession(user, 'platform');
  }

  /** Staff login: e-mail, password and a TOTP code, for developer, admin and super_admin only. */
  async staffLogin(email: string, password: string, totpCode: string): Promise<IssuedLogin> {
    const user = await this.checkPassword(email, password);
    if (!STAFF_ROLES.includes(user.role)) throw Errors.invalidCredentials();
    await this.checkTotp(user, totpCode);
    return this.startSession(user, 'staff');
  }

  /**
   * Rotates a refresh token: the presented one is spent and a new one issued. Presenting a token that
   * was already rotated means it leaked (or a client raced itself): the whole login is revoked.
   */
  async refresh(refreshToken: string, kind: 'staff' | 'platform'): Promise<IssuedLogin> {
    const token = await this.repo.findRefreshToken(sha256Hex(refreshToken));
    if (!token || token.sessionKind !== kind) throw Errors.authRequired('refresh token not recognised');
    if (token.sessionRevokedAt) throw Errors.authRequired('this login was revoked');
    if (token.rotatedAt || !(await this.repo.markRotated(token.id))) {
      await this.revokeSession(token.sessionId, 'refresh token reuse detected');
      throw Errors.authRequired('refresh token was already used; the login has been revoked');
    }
    if (token.expiresAt.getTime() <= this.clock.now()) throw Errors.authRequired('refresh token expired');
    const user = await this.repo.findUserById(token.userId);
    if (!user || user.status !== 'active') throw Errors.authRequired('account disabled');
    return this.issueTokens(user, token.sessionId);
  }

  async revokeSession(sessionId: string, reason: string): Promise<void> {
    await this.repo.revokeSession(sessionId, reason);
    this.sessions.drop(sessionId);
    await this.bus.publish(SESSION_REVOKED_CHANNEL, { sessionId });
  }

  /** Turns a bearer JWT into a principal, or throws AUTH_REQUIRED. */
  async authenticateBearer(token: string): Promise<Principal> {
    let claims;
    try {
      claims = await this.tokens.verify(token, 'access');
    } catch (error) {
      const reason = error instanceof TokenError && error.reason === 'expired' ? 'token expired' : 'token invalid';
      throw Errors.authRequired(reason);
    }
    if (!(await this.isSessionValid(claims.sessionId))) throw Errors.authRequired('this login was revoked');
    return {
      kind: 'user',
      userId: claims.userId,
      role: claims.role,
      scopes: new Set(scopesOfRole(claims.role)),
      credentialId: claims.sessionId,
      sessionId: claims.sessionId,
      apiKeyId: null,
    };
  }

  async authenticateApiKey(key: string): Promise<Principal> {
    const row = await this.repo.findApiKeyByHash(sha256Hex(key));
    if (!row || row.revokedAt) throw Errors.authRequired('API key not recognised');
    return {
      kind: 'service',
      userId: row.ownerUserId,
      role: null,
      scopes: new Set(row.scopes.filter(isScope)),
      credentialId: `key:${row.id}`,
      sessionId: null,
      apiKeyId: row.id,
    };
  }

  /** Registers an API key and returns it in clear text: the only time it is ever shown. */
  async createApiKey(input: {
    name: string;
    scopes: readonly Scope[];
    environment: 'live' | 'test';
    ownerUserId: string | null;
    key?: string;
  }): Promise<{ id: string; key: string }> {
    const key = input.key ?? newOpaqueToken(input.environment === 'live' ? 'stn_live' : 'stn_test');
    const row = await this.repo.insertApiKey({
      name: input.name,
      keyHash: sha256Hex(key),
      keyPrefix: key.slice(0, 12),
      scopes: [...input.scopes],
      environment: input.environment,
      ownerUserId: input.ownerUserId,
    });
    if (!row) throw Errors.conflict('This API key is already registered');
    return { id: row.id, key };
  }

  /** Start-up: the super_admin of STATION_ADMIN_* and the service key of STATION_SERVICE_API_KEY, if missing. */
  async bootstrap(admin: { email: string; password: string; totpSecret: string } | null, serviceKey: string | null) {
    if (admin && !(await this.repo.findUserByEmail(admin.email))) {
      await this.repo.insertUser({
        email: admin.email,
        passwordHash: await hashPassword(admin.password),
        role: 'super_admin',
        displayName: 'Station administrator',
        totpSecret: admin.totpSecret,
      });
    }
    if (serviceKey && !(await this.repo.findApiKeyByHash(sha256Hex(serviceKey)))) {
      await this.repo.insertApiKey({
        name: 'bootstrap service key (STATION_SERVICE_API_KEY)',
        keyHash: sha256Hex(serviceKey),
        keyPrefix: serviceKey.slice(0, 4),
        scopes: [...SERVICE_KEY_SCOPES],
        environment: 'live',
        ownerUserId: null,
      });
    }
  }

  /** Creates a user of any role; for seeding and for the admin API of later issues. */
  async createUser(input: { email: string; password: string; role: Role; displayName: string; totpSecret?: string }) {
    const user = await this.repo.insertUser({
      email: input.email,
      passwordHash: await hashPassword(input.password),
      role: input.role,
      displayName: input.displayName,
      totpSecret: input.totpSecret ?? null,
    });
    if (!user) throw Errors.conflict('An account with this e-mail already exists');
    return publicUser(user);
  }

  private async checkPassword(email: string, password: string): Promise<UserRow> {
    const user = await this.repo.findUserByEmail(email);
    const ok = await verifyPassword(user?.passwordHash ?? (await decoyPasswordHash()), password);
    if (!user || !ok || user.status !== 'active') throw Errors.invalidCredentials();
    return user;
  }

  private async checkTotp(user: UserRow, code: string): Promise<void> {
    if (!user.totpSecret) throw Errors.invalidCredentials();
    const step = acceptTotp(user.totpSecret, code, this.clock.now(), user.totpLastStep);
    if (step === null || !(await this.repo.claimTotpStep(user.id, step))) {
      throw new AppError(401, 'INVALID_CREDENTIALS', 'The credentials are not valid', 'TOTP code wrong, expired or already used');
    }
  }

  private async startSession(user: UserRow, kind: 'staff' | 'platform'): Promise<IssuedLogin> {
    const sessionId = await this.repo.insertSession(user.id, kind, new Date(this.clock.now() + REFRESH_TOKEN_TTL_SEC * 1000));
    return this.issueTokens(user, sessionId);
  }

  private async issueTokens(user: UserRow, sessionId: string): Promise<IssuedLogin> {
    const refreshToken = newOpaqueToken('rt');
    await this.repo.insertRefreshToken(sessionId, sha256Hex(refreshToken), new Date(this.clock.now() + REFRESH_TOKEN_TTL_SEC * 1000));
    const accessToken = await this.tokens.issue({ userId: user.id, role: user.role, sessionId });
    return {
      accessToken,
      refreshToken,
      csrfToken: this.csrf.forCredential(sessionId),
      expiresIn: ACCESS_TOKEN_TTL_SEC,
      user: publicUser(user),
    };
  }

  private async isSessionValid(sessionId: string): Promise<boolean> {
    const cached = this.sessions.get(sessionId);
    if (cached !== undefined) return cached;
    const state = await this.repo.sessionState(sessionId);
    const valid = !!state && !state.revokedAt && state.userStatus === 'active' && state.expiresAt.getTime() > this.clock.now();
    this.sessions.set(sessionId, valid);
    return valid;
  }
}
