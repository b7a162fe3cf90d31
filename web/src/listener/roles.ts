/**
 * Where each role belongs after sign-in (platform-api.md: "the JWT carries a role claim used to redirect by
 * role"): staff to the station admin at /admin, artists to their studio at /studio, listeners stay on /.
 */

/** The roles that hold station scopes and work at /admin (contract.md, "Roles and station scopes"). */
const STAFF = new Set(['super_admin', 'admin', 'developer']);

export function isStaff(role: string): boolean {
  return STAFF.has(role);
}

/** The role claim of an access token (the payload is not secret; the server checks the signature, not this page). */
export function roleClaim(token: string): string | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const json = atob(
      payload
        .replace(/-/g, '+')
        .replace(/_/g, '/')
        .padEnd(Math.ceil(payload.length / 4) * 4, '='),
    );
    const role = (JSON.parse(json) as { role?: unknown }).role;
    return typeof role === 'string' ? role : null;
  } catch {
    return null;
  }
}

/** The area a fresh sign-in opens: '/admin', '/studio', or null to stay on the listener's pages. */
export function homeOf(role: string): '/admin' | '/studio' | null {
  if (isStaff(role)) return '/admin';
  if (role === 'artist') return '/studio';
  return null;
}
