/**
 * GET/PATCH /v1/users/me: the caller's account and profile. Profile fields: display name, avatar URL,
 * country (ISO 3166-1 alpha-2), birth year, and the privacy of the play history and playlists (private
 * ones are visible to their owner and admins only: later modules read `historyPublic` / `playlistsPublic`).
 */
import type { Clock } from '../../infra/clock/clock.js';
import type { DeveloperAccountCheck } from '../../auth/developer-account-reads.js';
import type { Principal } from '../../auth/principal.js';
import { Errors } from '../../errors.js';
import { type UsersRepository, type ProfileChange, type ProfileRow } from './users.repository.js';
import type { Environment } from '../../kernel/environment.js';

export const PROFILE_DEFAULTS = { historyPublic: false, playlistsPublic: true } as const;

/** Region codes Intl knows that are not countries (ISO 3166-1 exceptionally reserved or user-assigned). */
const NOT_COUNTRIES = new Set(['EU', 'EZ', 'UN', 'QO', 'XA', 'XB', 'ZZ']);
const regions = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

/** An assigned ISO 3166-1 alpha-2 code (upper case), as the runtime's ICU data has them. */
export function isCountryCode(code: string): boolean {
  if (!/^[A-Z]{2}$/.test(code) || NOT_COUNTRIES.has(code)) return false;
  try {
    return regions.of(code) !== undefined;
  } catch {
    return false;
  }
}

export interface PublicProfile {
  id: string;
  email: string;
  email_verified: boolean;
  role: string;
  status: string;
  plan: string;
  display_name: string;
  avatar_url: string | null;
  country: string | null;
  birth_year: number | null;
  history_public: boolean;
  playlists_public: boolean;
  created_at: string;
}

export function publicProfile(row: ProfileRow): PublicProfile {
  return {
    id: row.id,
    email: row.email,
    email_verified: row.emailVerifiedAt !== null,
    role: row.role,
    status: row.status,
    plan: row.plan,
    display_name: row.displayName,
    avatar_url: row.avatarUrl,
    country: row.country,
    birth_year: row.birthYear,
    history_public: row.historyPublic ?? PROFILE_DEFAULTS.historyPublic,
    playlists_public: row.playlistsPublic ?? PROFILE_DEFAULTS.playlistsPublic,
    created_at: row.createdAt.toISOString(),
  };
}

export interface ProfilePatch {
  display_name?: string;
  avatar_url?: string | null;
  country?: string | null;
  birth_year?: number | null;
  history_public?: boolean;
  playlists_public?: boolean;
}

export class UsersService {
  constructor(
    private readonly repo: UsersRepository,
    private readonly clock: Clock,
    /** developer_account of GET /v1/users/me, read through the developer module's port. */
    private readonly developerAccounts: DeveloperAccountCheck,
  ) {}

  async me(
    caller: Principal,
  ): Promise<
    PublicProfile & { developer_account: boolean; credential: { type: 'session' | 'api_key' | 'oauth'; environment: Environment; scopes: string[] } }
  > {
    const userId = ownUserId(caller);
    const [row, developerAccount] = await Promise.all([this.repo.find(userId), this.developerAccounts.hasDeveloperAccount(userId)]);
    if (!row) throw Errors.notFound('User', userId);
    return {
      ...publicProfile(row),
      developer_account: developerAccount,
      credential: {
        type: caller.apiKeyId ? 'api_key' : caller.kind === 'delegated' ? 'oauth' : 'session',
        environment: caller.environment,
        scopes: [...caller.scopes].sort(),
      },
    };
  }

  /** Only a login session changes its own profile (no key scope grants it). */
  async update(caller: Principal, patch: ProfilePatch) {
    if (caller.kind !== 'user') throw Errors.forbidden('the profile is changed from a login session, not with an API key');
    const userId = ownUserId(caller);
    const change: ProfileChange = {};
    if (patch.display_name !== undefined) {
      const name = patch.display_name.trim();
      if (name === '') throw Errors.validation('display_name must not be blank');
      change.displayName = name;
    }
    if (patch.avatar_url !== undefined) change.avatarUrl = patch.avatar_url;
    if (patch.country !== undefined) {
      if (patch.country !== null && !isCountryCode(patch.country)) throw Errors.validation('country must be an ISO 3166-1 alpha-2 code such as "FR"');
      change.country = patch.country;
    }
    if (patch.birth_year !== undefined) {
      const thisYear = new Date(this.clock.now()).getUTCFullYear();
      if (patch.birth_year !== null && patch.birth_year > thisYear) throw Errors.validation(`birth_year must not be after ${thisYear}`);
      change.birthYear = patch.birth_year;
    }
    if (patch.history_public !== undefined) change.historyPublic = patch.history_public;
    if (patch.playlists_public !== undefined) change.playlistsPublic = patch.playlists_public;
    if (Object.keys(change).length > 0) await this.repo.update(userId, change);
    return this.me(caller);
  }
}

function ownUserId(caller: Principal): string {
  if (!caller.userId) throw Errors.forbidden('this credential belongs to no user');
  return caller.userId;
}
