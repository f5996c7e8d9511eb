import { describe, expect, it } from 'vitest';
import { UNKNOWN_ADDRESS, addressKey } from './client-address';

describe('addressKey', () => {
  it('keeps an IPv4 address as it is', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey(' 203.0.113.7 ')).toBe('203.0.113.7');
  });

  it('reads an IPv4-mapped IPv6 address as the IPv4 address', () => {
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::FFFF:cb00:7107')).toBe('203.0.113.7');
  });

  it('groups an IPv6 address by its /64 network', () => {
    expect(addressKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0DB8:0001:0002:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2:ffff::9')).toBe(addressKey('2001:db8:1:2::1'));
    expect(addressKey('2001:db8:1:3::1')).not.toBe(addressKey('2001:db8:1:2::1'));
    expect(addressKey('2001:db8::1')).toBe('2001:db8::/64');
    expect(addressKey('::1')).toBe('::/64');
  });

  it('ignores a zone id', () => {
    expect(addressKey('fe80::1%eth0')).toBe('fe80::/64');
    expect(addressKey('fe80::1%eth0')).toBe(addressKey('fe80::2'));
  });

  it('puts anything unreadable in one bucket', () => {
    for (const garbage of [
      '',
      'unknown',
      'not an address',
      '203.0.113',
      '0x7f.1',
      '127.1',
      '256.1.1.1',
      '2001:db8::1::2',
      '2001:db8:1:2:3:4:5:6:7',
      '203.0.113.7, 198.51.100.1',
      '[2001:db8::1]:443',
      '203.0.113.7/24',
    ]) {
      expect(addressKey(garbage), garbage).toBe(UNKNOWN_ADDRESS);
    }
  });

  it('answers null when no address was given (limits by address are then off)', () => {
    expect(addressKey(null)).toBeNull();
    expect(addressKey(undefined)).toBeNull();
  });
});
