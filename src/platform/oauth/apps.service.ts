/**
 * OAuth apps: registered by developers (POST/GET/DELETE /v1/developer/apps), and the apps a user authorized
 * (GET/DELETE /v1/users/me/apps). Deleting an app, or a user revoking it, ends its tokens at once on every
 * instance (the sessions are revoked or deleted, then announced like any revoked login).
 */
import { timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../infra/clock/clock.js';
import { isAdmin, type Principal } from '../../auth/principal.js';
import type { DeveloperAccountCheck } from '../../auth/developer-account-reads.js';
import { assertMayCreateCredentials, loginSessionUser } from '../../auth/developer-keys.js';
import { newOpaqueToken, sha256Hex } from '../../auth/tokens.js';
import { Errors } from '../../errors.js';
import type { Page } from '../../pagination.js';
import type { ClientRow, OAuthRepository } from './oauth.repository.js';
import { isGrantable } from './scopes.js';

export interface AppInput {
  name: string;
  redirect_uris: string[];
  scopes: string[];
  type?: 'confidential' | 'public';
}

/** Revokes a login session everywhere (AuthService.revokeSession): the session cache and connections follow. */
export type RevokeSession = (sessionId: string, reason: string) => Promise<void>;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Why a redirect URI cannot be registered, or null when it can: absolute, no fragment or credentials, https or loopback http. */
export function redirectUriProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not an absolute URL';
  }
  if (value.includes('#')) return 'must not have a fragment';
  if (url.username || url.password) return 'must not carry credentials';
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return null;
  return 'must be https (http only on a loopback host: localhost, 127.0.0.1, [::1])';
}

export function appJson(row: ClientRow) {
  return {
    id: row.id,
    client_id: row.id,
    name: row.name,
    type: row.type,
    redirect_uris: row.redirectUris,
    scopes: row.scopes,
    created_at: row.createdAt.toISOString(),
  };
}

/** Whether `secret` is the client's: SHA-256 compared in constant time. */
export function secretMatches(client: ClientRow, secret: string): boolean {
  if (!client.secretHash) return false;
  const expected = Buffer.from(client.secretHash, 'hex');
  const given = Buffer.from(sha256Hex(secret), 'hex');
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export class OAuthAppsService {
  constructor(
    private readonly repo: OAuthRepository,
    private readonly revokeSession: RevokeSession,
    private readonly clock: Clock,
    /** Who opened a developer account (src/platform/developer): they register apps, as staff developers and admins do. */
    private readonly developerAccounts: DeveloperAccountCheck,
  ) {}

  /** Registers an app; a confidential one gets its client_secret in this answer only (only its SHA-256 is kept). */
  async register(caller: Principal, input: AppInput) {
    const ownerUserId = loginSessionUser(caller, 'OAuth apps');
    await assertMayCreateCredentials(caller, ownerUserId, this.developerAccounts, 'OAuth apps');
    const redirectUris = [...new Set(input.redirect_uris)];
    for (const uri of redirectUris) {
      const problem = redirectUriProblem(uri);
      if (problem) throw Errors.validation(`redirect_uri ${JSON.stringify(uri.slice(0, 200))} ${problem}`, 'Invalid redirect_uris');
    }
    const scopes = [...new Set(input.scopes)].sort();
    const refused = scopes.filter((scope) => !isGrantable(scope));
    if (refused.length > 0) throw Errors.validation(`scopes an app cannot be granted: ${refused.join(', ')}`, 'Invalid scopes');
    const type = input.type ?? 'confidential';
    const secret = type === 'confidential' ? newOpaqueToken('stn_cs') : null;
    const row = await this.repo.insertClient({
      ownerUserId,
      name: input.name.trim(),
      redirectUris,
      scopes,
      type,
      secretHash: secret === null ? null : sha256Hex(secret),
      createdAt: this.clock.date(),
    });
    return { ...appJson(row), client_secret: secret };
  }

  async list(caller: Principal, page: Page) {
    const ownerUserId = loginSessionUser(caller, 'OAuth apps');
    const { rows, total } = await this.repo.clientsOf(ownerUserId, page.limit, page.offset);
    return { data: rows.map(appJson), total, page: page.page, limit: page.limit };
  }

  /** An app of the caller's (any app for platform:admin); anyone else's is 404. */
  async get(caller: Principal, id: string) {
    const ownerUserId = loginSessionUser(caller, 'OAuth apps');
    const row = await this.repo.client(id);
    if (!row || (row.ownerUserId !== ownerUserId && !isAdmin(caller))) throw Errors.notFound('OAuth app', id);
    return appJson(row);
  }

  /** Deletes an app with its grants, codes and tokens; another user's app is 404 (platform:admin deletes any). */
  async delete(caller: Principal, id: string): Promise<void> {
    const ownerUserId = loginSessionUser(caller, 'OAuth apps');
    const sessions = await this.repo.deleteClient(id, isAdmin(caller) ? null : ownerUserId);
    if (sessions === null) throw Errors.notFound('OAuth app', id);
    for (const sessionId of sessions) await this.revokeSession(sessionId, 'OAuth app deleted');
  }

  /** The apps the caller authorized, with the scopes granted to each. */
  async userApps(caller: Principal, page: Page) {
    const userId = loginSessionUser(caller, 'Authorized apps');
    const { rows, total } = await this.repo.grantsOf(userId, page.limit, page.offset);
    return {
      data: rows.map(({ grant, client }) => ({
        id: client.id,
        client_id: client.id,
        name: client.name,
        type: client.type,
        scopes: grant.scopes,
        authorized_at: grant.createdAt.toISOString(),
        updated_at: grant.updatedAt.toISOString(),
      })),
      total,
      page: page.page,
      limit: page.limit,
    };
  }

  /** Revokes the caller's grant to an app: its tokens stop at once. An app the caller never authorized is 404. */
  async revokeUserApp(caller: Principal, clientId: string): Promise<void> {
    const userId = loginSessionUser(caller, 'Authorized apps');
    const sessions = await this.repo.revokeGrant(userId, clientId);
    if (sessions === null) throw Errors.notFound('Authorized app', clientId);
    for (const sessionId of sessions) await this.revokeSession(sessionId, 'app access revoked by the user');
  }
}
