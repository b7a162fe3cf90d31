/** Roles and the scopes they hold, exactly as ../shared/spec/contract.md fixes them. */
export const ROLES = ['listener', 'artist', 'developer', 'admin', 'super_admin'] as const;
export type Role = (typeof ROLES)[number];

export const STATION_SCOPES = ['station:admin', 'station:train', 'station:generate', 'station:read'] as const;
export const PLATFORM_SCOPES = [
  'streams:read',
  'tracks:read',
  'tracks:write',
  'users:read',
  'analytics:read',
  'webhooks:read',
  'webhooks:write',
  // The caller's own store purchases: checkout, GET /v1/store/orders, downloads (platform-api.md names no scope).
  'store:orders',
  'artist',
  'platform:admin',
] as const;
export type Scope = (typeof STATION_SCOPES)[number] | (typeof PLATFORM_SCOPES)[number];

const LISTENER: Scope[] = ['station:read', 'streams:read', 'tracks:read', 'users:read', 'store:orders'];

const ROLE_SCOPES: Record<Role, readonly Scope[]> = {
  listener: LISTENER,
  artist: [...LISTENER, 'tracks:write', 'artist'],
  developer: [
    'station:train',
    'station:read',
    'streams:read',
    'tracks:read',
    'users:read',
    'store:orders',
    'analytics:read',
    'webhooks:read',
    'webhooks:write',
  ],
  admin: [...STATION_SCOPES, ...PLATFORM_SCOPES],
  super_admin: [...STATION_SCOPES, ...PLATFORM_SCOPES],
};

/**
 * What a developer account (POST /v1/developer/account) adds to any role: the integrator's webhooks. Platform
 * scopes only (contract.md: it "grants no station scope"); keys and sessions of such an account hold these too.
 */
export const DEVELOPER_ACCOUNT_SCOPES: readonly Scope[] = ['webhooks:read', 'webhooks:write'];

/** The scopes of a role, with a developer account's when the user opened one. */
export function scopesOfAccount(role: Role, developerAccount: boolean): readonly Scope[] {
  const scopes = ROLE_SCOPES[role];
  return developerAccount ? [...new Set([...scopes, ...DEVELOPER_ACCOUNT_SCOPES])] : scopes;
}

/** The bootstrap service key of STATION_SERVICE_API_KEY. */
export const SERVICE_KEY_SCOPES: readonly Scope[] = ['station:generate', 'station:read'];

export function scopesOfRole(role: Role): readonly Scope[] {
  return ROLE_SCOPES[role];
}

/**
 * Scopes a password alone never grants: every station scope but station:read ("every role that holds a
 * station scope other than station:read must pass TOTP"), and platform:admin (platform-api.md: admin
 * accounts get the 2FA answer). A login session that did not pass TOTP holds its role's scopes less these,
 * whatever its role is or becomes.
 */
export function needsSecondFactor(scope: Scope): boolean {
  return (scope.startsWith('station:') && scope !== 'station:read') || scope === 'platform:admin';
}

export function roleNeedsSecondFactor(role: Role): boolean {
  return scopesOfRole(role).some(needsSecondFactor);
}

/** What a login session holds: the role's scopes, less the TOTP-only ones if the session did not pass TOTP. */
export function sessionScopes(role: Role, passedSecondFactor: boolean, developerAccount = false): readonly Scope[] {
  const scopes = scopesOfAccount(role, developerAccount);
  return passedSecondFactor ? scopes : scopes.filter((scope) => !needsSecondFactor(scope));
}

/**
 * Scopes that act on the live platform whatever the caller's environment: the station's (but station:read,
 * the radio's public data) and platform:admin (live users). A sandbox credential (a test key, a session
 * through /sandbox/v1) never holds them.
 */
export function actsOutsideSandbox(scope: Scope): boolean {
  return (scope.startsWith('station:') && scope !== 'station:read') || scope === 'platform:admin';
}

/** Who may use the staff login (/api/auth/admin/login): the roles whose scopes need TOTP. */
export const STAFF_ROLES: readonly Role[] = ROLES.filter(roleNeedsSecondFactor);

export function isScope(value: string): value is Scope {
  return (STATION_SCOPES as readonly string[]).includes(value) || (PLATFORM_SCOPES as readonly string[]).includes(value);
}
