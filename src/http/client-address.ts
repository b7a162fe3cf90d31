/**
 * The key per-address limits count a client under. An IPv4 address is one client; an IPv6 client usually
 * holds a whole /64 (a home or a cloud instance gets one), so keying on the full address would give it 2^64
 * fresh budgets: IPv6 addresses are counted by their /64 prefix. IPv4-mapped IPv6 (::ffff:a.b.c.d) counts as
 * the IPv4 address. (Written here because no library of package.json gives an address's prefix: node:net
 * validates addresses and tests membership, nothing more.)
 */
import { isIPv4, isIPv6 } from 'node:net';

const MAPPED_IPV4 = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

export function clientKey(address: string): string {
  const mapped = MAPPED_IPV4.exec(address);
  if (mapped && isIPv4(mapped[1])) return mapped[1];
  if (!isIPv6(address)) return address;
  return `${expandIpv6(address).slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, without leading zeros ('::' expanded, zone id dropped). */
function expandIpv6(address: string): string[] {
  const [withoutZone] = address.split('%');
  const [head, tail] = withoutZone.includes('::') ? withoutZone.split('::') : [withoutZone, null];
  const groupsOf = (part: string) => (part === '' ? [] : part.split(':'));
  const headGroups = groupsOf(head);
  const tailGroups = tail === null ? [] : groupsOf(tail);
  // An embedded IPv4 tail (::1.2.3.4) stands for two groups; only the first four groups matter here.
  const tailLength = tailGroups.reduce((n, group) => n + (group.includes('.') ? 2 : 1), 0);
  const zeros = tail === null ? [] : Array.from({ length: 8 - headGroups.length - tailLength }, () => '0');
  return [...headGroups, ...zeros, ...tailGroups].map((group) => (group.includes('.') ? group : group.replace(/^0+(?=.)/, '').toLowerCase()));
}
