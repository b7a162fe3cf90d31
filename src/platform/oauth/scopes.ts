/**
 * What an app may be granted. Never platform:admin nor a station scope that needs TOTP: an app's tokens
 * are logins without a second factor (src/auth/access.ts narrows them to the role's non-TOTP scopes at
 * every request anyway). Scope strings follow RFC 6749 section 3.3: space-delimited, case-sensitive.
 */
import { PLATFORM_SCOPES, type Scope } from '../../auth/scopes.js';

export const GRANTABLE_SCOPES = [...PLATFORM_SCOPES.filter((scope) => scope !== 'platform:admin'), 'station:read'] as const satisfies readonly Scope[];
export type GrantableScope = (typeof GRANTABLE_SCOPES)[number];

/** Shown on the consent screen. */
export const SCOPE_DESCRIPTIONS: Record<GrantableScope, string> = {
  'streams:read': 'Stream tracks for you',
  'tracks:read': 'Browse the catalog, albums and the store',
  'tracks:write': 'Change track metadata you may change',
  'users:read': 'Read your account and profile',
  'analytics:read': 'Read analytics you have access to',
  'webhooks:read': 'List your webhooks',
  'webhooks:write': 'Register and remove your webhooks',
  'store:orders': 'See your store orders, download what you bought, and open checkouts for you',
  artist: 'Act as your artist account (uploads, capsules, products, payouts)',
  'station:read': 'Listen to the radio and read its public data',
};

export function isGrantable(scope: string): scope is GrantableScope {
  return (GRANTABLE_SCOPES as readonly string[]).includes(scope);
}

/** A scope parameter as a set of names, or null when it is malformed (empty items, characters RFC 6749 excludes). */
export function parseScope(value: string | undefined): string[] | null {
  if (value === undefined) return null;
  const items = value.split(' ');
  if (items.some((item) => !/^[\x21\x23-\x5b\x5d-\x7e]+$/.test(item))) return null;
  return [...new Set(items)];
}

export const formatScope = (scopes: readonly string[]) => [...scopes].sort().join(' ');
