/**
 * API keys made by the operator rather than from a login session: the bootstrap service key of
 * STATION_SERVICE_API_KEY (created at start-up if missing) and the keys seeding makes; and the exchange of a
 * usable key for a short JWT (POST /v1/auth/token). A developer creating, listing and revoking their own keys
 * is DeveloperKeys' (developer-keys.ts); turning a presented key into a Principal is CredentialResolver's
 * (access.ts). Split from auth.service.ts, which keeps logins and sessions.
 */
import { Errors } from '../errors.js';
import type { Environment } from '../kernel/environment.js';
import { API_KEY_CREDENTIAL, type CredentialResolver } from './access.js';
import type { ApiKeysRepository } from './api-keys.repository.js';
import { SERVICE_KEY_SCOPES, type Scope } from './scopes.js';
import { ACCESS_TOKEN_TTL_SEC, type CsrfTokens, type TokenService, newOpaqueToken, sha256Hex } from './tokens.js';

export interface ApiKeysDeps {
  keys: ApiKeysRepository;
  /** Whether a presented key is usable now (not revoked, owner active). */
  credentials: CredentialResolver;
  tokens: TokenService;
  csrf: CsrfTokens;
}

export interface NewApiKey {
  name: string;
  scopes: readonly Scope[];
  environment: Environment;
  /** Null for a key that belongs to no user (a service key). */
  ownerUserId: string | null;
  /** The key itself when the caller chose it (seeding); a new random one otherwise. */
  key?: string;
}

export class ApiKeys {
  constructor(private readonly deps: ApiKeysDeps) {}

  /** Registers an API key and returns it in clear text: the only time it is ever shown. */
  async create(input: NewApiKey): Promise<{ id: string; key: string }> {
    const key = input.key ?? newOpaqueToken(input.environment === 'live' ? 'stn_live' : 'stn_test');
    const row = await this.deps.keys.insertApiKey({
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

  /**
   * POST /v1/auth/token: a 15-minute JWT for a developer key, carrying the owner as subject and role claim
   * and the key as its session; it holds the key's scopes and environment and dies with the key.
   */
  async exchange(apiKey: string): Promise<{ token: string; expiresIn: number; csrfToken: string }> {
    const row = await this.deps.credentials.usableApiKey(apiKey);
    // The bootstrap service key has no owner to name in the token; it authenticates with X-API-Key directly.
    if (!row || !row.ownerUserId || !row.ownerRole) throw Errors.invalidCredentials();
    const credentialId = `${API_KEY_CREDENTIAL}${row.id}`;
    const token = await this.deps.tokens.issue({ userId: row.ownerUserId, role: row.ownerRole, sessionId: credentialId });
    return { token, expiresIn: ACCESS_TOKEN_TTL_SEC, csrfToken: this.deps.csrf.forCredential(credentialId) };
  }

  /** Start-up: the service key of STATION_SERVICE_API_KEY is registered unless it already is (no owner, SERVICE_KEY_SCOPES). */
  async ensureServiceKey(serviceKey: string | null): Promise<void> {
    if (!serviceKey || (await this.deps.keys.findApiKeyByHash(sha256Hex(serviceKey)))) return;
    await this.deps.keys.insertApiKey({
      name: 'bootstrap service key (STATION_SERVICE_API_KEY)',
      keyHash: sha256Hex(serviceKey),
      keyPrefix: serviceKey.slice(0, 4),
      scopes: [...SERVICE_KEY_SCOPES],
      environment: 'live',
      ownerUserId: null,
    });
  }
}
