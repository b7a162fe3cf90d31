/** Roles and the scopes they hold, exactly as ../shared/spec/contract.md fixes them. */
export const ROLES = ['listener', 'artist', 'developer', 'admin', 'super_admin'] as const;
export type Role = (typeof ROLES)[number];

export const STAFF_ROLES: readonly Role[] = ['developer', 'admin', 'super_admin'];
export const ADMIN_ROLES: readonly Role[] = ['admin', 'super_admin'];

export const STATION_SCOPES = ['station:admin', 'station:train', 'station:generate', 'station:read'] as const;
export const PLATFORM_SCOPES = [
  'streams:read',
  'tracks:read',
  'tracks:write',
  'users:read',
  'analytics:read',
  'webhooks:read',
  'webhooks:write',
  'artist',
  'platform:admin',
] as const;
export type Scope = (typeof STATION_SCOPES)[number] | (typeof PLATFORM_SCOPES)[number];

const LISTENER: Scope[] = ['station:read', 'streams:read', 'tracks:read', 'users:read'];

const ROLE_SCOPES: Record<Role, readonly Scope[]> = {
  listener: LISTENER,
  artist: [...LISTENER, 'tracks:write', 'artist'],
  developer: ['station:train', 'station:read', 'streams:read', 'tracks:read', 'users:read', 'analytics:read', 'webhooks:read', 'webhooks:write'],
  admin: [...STATION_SCOPES, ...PLATFORM_SCOPES],
  super_admin: [...STATION_SCOPES, ...PLATFORM_SCOPES],
};

/** The bootstrap service key of STATION_SERVICE_API_KEY. */
export const SERVICE_KEY_SCOPES: readonly Scope[] = ['station:generate', 'station:read'];

export function scopesOfRole(role: Role): readonly Scope[] {
  return ROLE_SCOPES[role];
}

export function isScope(value: string): value is Scope {
  return (STATION_SCOPES as readonly string[]).includes(value) || (PLATFORM_SCOPES as readonly string[]).includes(value);
}
