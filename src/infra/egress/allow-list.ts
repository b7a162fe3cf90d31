/**
 * STATION_WEBHOOK_ALLOWED_HOSTS, parsed: where webhooks and notify_webhook may be delivered. The same shape as
 * Gitea's ALLOWED_HOST_LIST: a comma-separated list of
 *
 *   external   public unicast addresses (the default, alone)
 *   loopback   127.0.0.0/8 and ::1
 *   private    RFC 1918 (10/8, 172.16/12, 192.168/16) and RFC 4193 unique-local (fc00::/7)
 *   *          anywhere
 *   a host name, exact (hooks.example.com) or a wildcard for its subdomains (*.example.com): that host,
 *              whatever it resolves to (the operator vouches for the name)
 *   a CIDR or a single address (10.20.0.0/16, 2001:db8::/32, 10.0.0.5)
 *
 * Everything else (link-local with the metadata service 169.254.169.254, CGNAT, multicast, 0.0.0.0, reserved
 * and documentation ranges) is reachable only through a CIDR entry or `*`.
 */
import { isIP } from 'node:net';

export type AddressKeyword = 'external' | 'loopback' | 'private';

export interface AllowedCidr {
  address: string;
  prefix: number;
  family: 4 | 6;
}

export interface AllowList {
  /** `*`: no restriction at all. */
  any: boolean;
  keywords: AddressKeyword[];
  /** Exact host names, lower case, ASCII (punycode), without a trailing dot. */
  hosts: string[];
  /** From `*.example.com`: `example.com`; matches names ending in `.example.com`. */
  hostSuffixes: string[];
  cidrs: AllowedCidr[];
}

export const DEFAULT_ALLOW_LIST_TEXT = 'external';

const KEYWORDS: readonly string[] = ['external', 'loopback', 'private'];
const HOST_LABEL = /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/;

export class AllowListError extends Error {}

export function parseAllowList(text: string): AllowList {
  const list: AllowList = { any: false, keywords: [], hosts: [], hostSuffixes: [], cidrs: [] };
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length === 0) throw new AllowListError('no entries');
  for (const raw of entries) {
    const entry = raw.toLowerCase().replace(/^\[([^\]]*)\]/, '$1'); // [::1] and [::1]/128 as ::1 and ::1/128
    if (entry === '*') list.any = true;
    else if (KEYWORDS.includes(entry)) pushUnique(list.keywords, entry as AddressKeyword);
    else if (entry.startsWith('*.')) pushUnique(list.hostSuffixes, hostName(entry.slice(2), raw));
    else if (entry.includes('/') || isIP(entry) !== 0) list.cidrs.push(cidr(entry, raw));
    else pushUnique(list.hosts, hostName(entry, raw));
  }
  return list;
}

/** A host as the egress policy compares it: lower case, punycode, no brackets, no trailing dot. */
export function normalizeHost(host: string): string {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return bare.toLowerCase().replace(/\.$/, '');
}

function cidr(entry: string, raw: string): AllowedCidr {
  const [address, prefixText, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) throw new AllowListError(`not a CIDR or an address: ${raw}`);
  const max = family === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) throw new AllowListError(`a prefix from 0 to ${max} is needed: ${raw}`);
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (prefix > max) throw new AllowListError(`a prefix from 0 to ${max} is needed: ${raw}`);
  return { address, prefix, family: family === 4 ? 4 : 6 };
}

/** Host names as URLs carry them (WHATWG URL lower-cases them and turns IDNs into punycode). */
function hostName(entry: string, raw: string): string {
  // URL would quietly take ports, paths, user info and more: none of them belongs in a host entry.
  if (/[\s:/@?#*\\%[\]]/.test(entry)) throw new AllowListError(`not a host name: ${raw}`);
  let host: string;
  try {
    host = normalizeHost(new URL(`http://${entry}/`).hostname);
  } catch {
    throw new AllowListError(`not a host name: ${raw}`);
  }
  const valid = host !== '' && isIP(host) === 0 && host.split('.').every((label) => HOST_LABEL.test(label));
  if (!valid) throw new AllowListError(`not a host name: ${raw}`);
  return host;
}

function pushUnique<T>(into: T[], value: T): void {
  if (!into.includes(value)) into.push(value);
}
