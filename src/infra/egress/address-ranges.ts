/**
 * What kind of address an IP is, from the IANA special-purpose registries (RFC 6890 and successors), so the
 * egress policy can tell public addresses from the ones a user-supplied URL must not reach by default.
 * Built on node:net's BlockList. An IPv4 range also covers its IPv4-mapped IPv6 form (::ffff:a.b.c.d) and its
 * NAT64 form (64:ff9b::a.b.c.d, RFC 6052): both end up at the embedded IPv4 address, so they are that address.
 */
import { BlockList, isIP } from 'node:net';

/** Address classes; `external` is every address outside the ranges below (public unicast). */
export type AddressClass = 'loopback' | 'private' | 'link_local' | 'cgnat' | 'multicast' | 'unspecified' | 'special' | 'external';

type Cidr = readonly [address: string, prefix: number];

/** Checked in this order: the first class whose ranges hold the address names it. */
const RANGES: readonly (readonly [Exclude<AddressClass, 'external'>, readonly Cidr[]])[] = [
  [
    'loopback',
    [
      ['127.0.0.0', 8],
      ['::1', 128],
    ],
  ],
  // RFC 1918 and RFC 4193 unique-local (fc00::/7), as Gitea's `private`; fec0::/10 is the deprecated site-local.
  [
    'private',
    [
      ['10.0.0.0', 8],
      ['172.16.0.0', 12],
      ['192.168.0.0', 16],
      ['fc00::', 7],
      ['fec0::', 10],
    ],
  ],
  // 169.254.169.254, the cloud metadata service, is here.
  [
    'link_local',
    [
      ['169.254.0.0', 16],
      ['fe80::', 10],
    ],
  ],
  ['cgnat', [['100.64.0.0', 10]]],
  [
    'multicast',
    [
      ['224.0.0.0', 4],
      ['ff00::', 8],
    ],
  ],
  // 0.0.0.0/8 is "this network": connecting to 0.0.0.0 reaches the local host.
  [
    'unspecified',
    [
      ['0.0.0.0', 8],
      ['::', 128],
    ],
  ],
  [
    'special',
    [
      ['192.0.0.0', 24], // IETF protocol assignments
      ['192.0.2.0', 24], // documentation (TEST-NET-1)
      ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
      ['198.18.0.0', 15], // benchmarking
      ['198.51.100.0', 24], // documentation (TEST-NET-2)
      ['203.0.113.0', 24], // documentation (TEST-NET-3)
      ['240.0.0.0', 4], // reserved, and 255.255.255.255 broadcast
      ['::', 96], // IPv4-compatible (deprecated): ::a.b.c.d
      ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215): translates to whatever the local network routes
      ['100::', 64], // discard-only
      ['2001::', 32], // Teredo: tunnels to an address we cannot check
      ['2001:db8::', 32], // documentation
      ['2002::', 16], // 6to4: tunnels to an embedded IPv4 address
    ],
  ],
];

/** Adds a range to a BlockList; an IPv4 range also as its IPv4-mapped and NAT64 forms. */
export function addRange(list: BlockList, address: string, prefix: number): void {
  if (isIP(address) === 4) {
    list.addSubnet(address, prefix, 'ipv4');
    list.addSubnet(`::ffff:${address}`, 96 + prefix, 'ipv6');
    list.addSubnet(`64:ff9b::${address}`, 96 + prefix, 'ipv6');
  } else {
    list.addSubnet(address, prefix, 'ipv6');
  }
}

const CLASSES: readonly (readonly [Exclude<AddressClass, 'external'>, BlockList])[] = RANGES.map(([name, cidrs]) => {
  const list = new BlockList();
  for (const [address, prefix] of cidrs) addRange(list, address, prefix);
  return [name, list] as const;
});

/** True when `list` holds `address` (an IPv4 or IPv6 literal). */
export function inList(list: BlockList, address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return list.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** The class of an IP literal; throws on anything that is not one. */
export function classify(address: string): AddressClass {
  if (isIP(address) === 0) throw new TypeError(`not an IP address: ${address}`);
  for (const [name, list] of CLASSES) if (inList(list, address)) return name;
  return 'external';
}
