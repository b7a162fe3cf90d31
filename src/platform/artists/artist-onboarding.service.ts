/**
 * Artist profiles made by their artists (contract.md, "Accounts and onboarding"): any user with a verified address
 * creates one (POST /v1/artists), unverified, owned by them; a listener becomes an `artist` (staff keep their role
 * and gain the profile). One profile per account. The owner or an admin edits it (PATCH /v1/artists/{slug}); an
 * admin verifies it (src/platform/admin/artists-verification.service.ts). Until then its tracks are public but
 * never on the radio nor in the training dataset (src/station/scheduler/slots.repository.ts).
 */
import { randomBytes } from 'node:crypto';
import { loginSessionUser } from '../../auth/developer-keys.js';
import type { EmailVerifiedCheck } from '../../auth/email-verification.js';
import type { Principal } from '../../auth/principal.js';
import type { Role } from '../../auth/scopes.js';
import { Errors } from '../../errors.js';
import { hasScope, isAdmin } from '../../auth/principal.js';
import { isCountryCode } from '../users/users.service.js';
import type { ArtistRow, ArtistsRepository } from './artists.repository.js';
import type { ArtistsService } from './artists.service.js';

export interface ArtistInput {
  name: string;
  genre: string;
  bio?: string;
  country?: string | null;
}

/** What onboarding needs of the accounts: the verified-address check and the role change (AuthService). */
export interface ArtistAccounts extends EmailVerifiedCheck {
  setUserRole(userId: string, role: Role): Promise<unknown>;
}

function slugOfName(name: string): string {
  const words = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return words || 'artist';
}

function text(value: string, field: string): string {
  const trimmed = value.trim();
  if (trimmed === '') throw Errors.validation(`${field} must not be blank`);
  return trimmed;
}

function country(value: string | null | undefined): string | null | undefined {
  if (value !== undefined && value !== null && !isCountryCode(value)) throw Errors.validation('country must be an ISO 3166-1 alpha-2 code such as "FR"');
  return value;
}

export class ArtistOnboardingService {
  constructor(
    private readonly repo: ArtistsRepository,
    private readonly artists: ArtistsService,
    private readonly accounts: ArtistAccounts,
  ) {}

  private async answer(caller: Principal, row: ArtistRow) {
    return { ...(await this.artists.profile(caller, row.id)), owner_user_id: row.ownerUserId };
  }

  /** Creates the caller's artist profile (201); 409 when the account owns one already. */
  async create(caller: Principal, input: ArtistInput) {
    const userId = loginSessionUser(caller, 'Artist profiles');
    if (caller.environment !== 'live') throw Errors.forbidden('artist profiles are created on the live platform, not through the sandbox');
    await this.accounts.assertEmailVerified(userId);
    const name = text(input.name, 'name');
    const slug = slugOfName(name);
    const row = await this.repo.createOwned(userId, {
      name,
      genre: text(input.genre, 'genre'),
      bio: input.bio?.trim() ?? '',
      country: country(input.country) ?? null,
      slug,
      fallbackSlug: `${slug.slice(0, 53)}-${randomBytes(3).toString('hex')}`,
    });
    if (row === 'exists')
      throw Errors.conflict('This account already has an artist profile', 'one artist profile per account: edit it with PATCH /v1/artists/{slug}');
    if (caller.role === 'listener') await this.accounts.setUserRole(userId, 'artist');
    return this.answer(caller, row);
  }

  /** The caller's own artist profile (GET /v1/users/me/artist): 404 when the account has none. */
  async mine(caller: Principal) {
    if (!caller.userId) throw Errors.notFound('Artist', 'me');
    const row = await this.repo.findOwned(caller.userId, caller.environment);
    if (!row) throw Errors.notFound('Artist', 'me');
    return this.answer(caller, row);
  }

  /**
   * Edits an artist: its owner or an admin (anyone else 403; unknown 404). The owner edits from a login session,
   * or with a key or app token holding the `artist` scope: one granted only tracks:read or users:read reads, never writes.
   */
  async update(caller: Principal, slugOrId: string, input: Partial<ArtistInput>) {
    const row = await this.repo.find(slugOrId, caller.environment);
    if (!row) throw Errors.notFound('Artist', slugOrId);
    if (!isAdmin(caller) && (caller.userId === null || caller.userId !== row.ownerUserId))
      throw Errors.forbidden('an artist is edited by its owner or an admin');
    if (!isAdmin(caller) && caller.kind !== 'user' && !hasScope(caller, 'artist')) {
      throw Errors.forbidden("an artist is edited from its owner's login session, or with a key or app token holding the artist scope");
    }
    const change: Partial<Pick<ArtistRow, 'name' | 'genre' | 'bio' | 'country'>> = {};
    if (input.name !== undefined) change.name = text(input.name, 'name');
    if (input.genre !== undefined) change.genre = text(input.genre, 'genre');
    if (input.bio !== undefined) change.bio = input.bio.trim();
    if (input.country !== undefined) change.country = country(input.country);
    return this.answer(caller, await this.repo.update(row.id, change));
  }
}
