/**
 * Developer keys (POST/GET/DELETE /v1/developer/keys): created, listed and revoked from a login session of a
 * developer or admin account. A key is never wider than its owner's session when it is made, is shown once
 * (only its SHA-256 is kept), and is revoked at once on every instance. Extracted from auth.service.ts.
 */
import type { EventBus } from '../infra/pubsub/event-bus.js';
import { Errors } from '../errors.js';
import { API_KEY_CREDENTIAL } from './access.js';
import { SESSION_REVOKED_CHANNEL } from './auth-events.js';
import type { ApiKeyRow, ApiKeysRepository } from './api-keys.repository.js';
import type { DeveloperAccountCheck } from './developer-account-reads.js';
import { isAdmin, type Principal } from './principal.js';
import { actsOutsideSandbox, needsSecondFactor, PLATFORM_SCOPES, STATION_SCOPES, type Role, type Scope } from './scopes.js';
import { newOpaqueToken, sha256Hex } from './tokens.js';
import type { Environment } from '../kernel/environment.js';

/** A developer key as its owner sees it: never the secret, which only the creation answer shows. */
export interface PublicApiKey {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  environment: Environment;
  created_at: string;
  /** Accurate to about a minute (src/auth/key-usage.ts); null until first used. */
  last_used_at: string | null;
}

/**
 * Staff roles that create developer keys and register OAuth apps without a developer account: developers, and
 * admins (whose roles hold every scope a key can carry). Any other account opens a developer account first
 * (POST /v1/developer/account); its keys and apps still hold only scopes its role holds.
 */
export const KEY_CREATOR_ROLES: readonly Role[] = ['developer', 'admin', 'super_admin'];

/** Throws 403 unless the login session's user may create keys and apps: a KEY_CREATOR_ROLES role or a developer account. */
export async function assertMayCreateCredentials(caller: Principal, userId: string, accounts: DeveloperAccountCheck, what: string): Promise<void> {
  if (caller.role && KEY_CREATOR_ROLES.includes(caller.role)) return;
  if (await accounts.hasDeveloperAccount(userId)) return;
  throw Errors.forbidden(`${what} need a developer account: open one with POST /v1/developer/account`);
}

/** Unrevoked keys one account may hold, live and test together (STATION_MAX_KEYS_PER_ACCOUNT). */
export const DEFAULT_MAX_KEYS_PER_ACCOUNT = 10;

function publicApiKey(row: ApiKeyRow): PublicApiKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.keyPrefix,
    scopes: row.scopes,
    environment: row.environment,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
  };
}

/** The caller's user id when the caller is a login session (not a key, not an app acting for a user). */
export function loginSessionUser(caller: Principal, what: string): string {
  if (caller.kind !== 'user' || !caller.userId) throw Errors.forbidden(`${what} are managed from a login session, not with an API key or an app's token`);
  return caller.userId;
}

export class DeveloperKeys {
  constructor(
    private readonly repo: ApiKeysRepository,
    private readonly accounts: DeveloperAccountCheck,
    private readonly bus: EventBus,
    /** Quotas are counted per account (src/auth/api-quota.ts); the cap keeps one account's keys few enough to manage and audit. */
    private readonly maxKeysPerAccount = DEFAULT_MAX_KEYS_PER_ACCOUNT,
  ) {}

  /**
   * A developer key for the calling user. Only a login session of a KEY_CREATOR_ROLES user or of a developer
   * account creates keys (a key never mints keys), and the scopes asked for must all be held by that session now: a key is never
   * wider than its owner's own rights (400 otherwise). An account holds at most `maxKeysPerAccount` unrevoked
   * keys (409 beyond: revoke one first). The key is returned once; only its SHA-256 is kept.
   */
  async create(caller: Principal, input: { name: string; scopes: readonly string[]; environment: Environment }): Promise<PublicApiKey & { key: string }> {
    const userId = loginSessionUser(caller, 'API keys');
    await assertMayCreateCredentials(caller, userId, this.accounts, 'API keys');
    const scopes = [...new Set(input.scopes)];
    const wider = scopes.filter((scope) => !caller.scopes.has(scope as Scope));
    if (wider.length > 0) throw Errors.validation(`scopes not held by the caller: ${wider.join(', ')}`, 'A key cannot hold scopes its owner does not hold');
    const outside = input.environment === 'test' ? scopes.filter((scope) => actsOutsideSandbox(scope as Scope)) : [];
    if (outside.length > 0) {
      throw Errors.validation(`scopes that act outside the sandbox: ${outside.join(', ')}; use a live key`, 'A test key acts in the sandbox only');
    }
    const key = newOpaqueToken(input.environment === 'live' ? 'stn_live' : 'stn_test');
    const row = await this.repo.insertApiKeyWithinLimit(
      { name: input.name, keyHash: sha256Hex(key), keyPrefix: key.slice(0, 16), scopes, environment: input.environment, ownerUserId: userId },
      this.maxKeysPerAccount,
    );
    if (row === 'limit') {
      throw Errors.conflict(
        `An account holds at most ${this.maxKeysPerAccount} API keys`,
        'revoke one (DELETE /v1/developer/keys/{id}) before creating another; live and test keys count together',
      );
    }
    if (!row) throw Errors.conflict('This API key is already registered');
    return { ...publicApiKey(row), key };
  }

  async list(caller: Principal, page: { page: number; limit: number; offset: number }) {
    const userId = loginSessionUser(caller, 'API keys');
    const { rows, total } = await this.repo.listApiKeys(userId, page);
    return { data: rows.map(publicApiKey), total, page: page.page, limit: page.limit };
  }

  /**
   * Revokes the user's keys that hold a scope only a second factor grants (needsSecondFactor): when the second
   * factor is reset, the role carries those scopes again only after a new enrolment, through keys too.
   */
  async revokeSecondFactorKeys(userId: string): Promise<void> {
    const revoked = await this.repo.revokeKeysHoldingAny(userId, [...STATION_SCOPES, ...PLATFORM_SCOPES].filter(needsSecondFactor));
    for (const keyId of revoked) await this.bus.publish(SESSION_REVOKED_CHANNEL, { sessionId: `${API_KEY_CREDENTIAL}${keyId}` });
  }

  /** Revokes a key at once (every instance reads keys from the database on use). Another user's key is 404; admins revoke any. */
  async revoke(caller: Principal, keyId: string): Promise<void> {
    const userId = loginSessionUser(caller, 'API keys');
    if (!(await this.repo.revokeApiKey(keyId, isAdmin(caller) ? null : userId))) throw Errors.notFound('API key', keyId);
    await this.bus.publish(SESSION_REVOKED_CHANNEL, { sessionId: `${API_KEY_CREDENTIAL}${keyId}` });
  }
}
