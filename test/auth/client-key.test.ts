/** The key per-address limits count a client under: IPv4 as is, IPv6 by its /64, IPv4-mapped as IPv4. */
import { describe, expect, it } from 'vitest';
import { clientKey } from '../../src/http/client-address.js';

describe('clientKey', () => {
  it.each([
    ['203.0.113.5', '203.0.113.5'],
    ['::ffff:203.0.113.5', '203.0.113.5'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002::1', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['2001:db8:1:2::ffff:1.2.3.4', '2001:db8:1:2::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
  ])('%s -> %s', (address, key) => {
    expect(clientKey(address)).toBe(key);
  });

  it('gives every address of one /64 the same key and another /64 another', () => {
    expect(clientKey('2001:db8:aa:bb::1')).toBe(clientKey('2001:db8:aa:bb:ffff:ffff:ffff:ffff'));
    expect(clientKey('2001:db8:aa:bb::1')).not.toBe(clientKey('2001:db8:aa:bc::1'));
  });
});
